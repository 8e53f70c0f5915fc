/**
 * A short replay in the test suite, so the one-alert-per-incident guarantee cannot silently break: twenty nights
 * of the real nightly handler against the stand-ins, with a module dropped, Qdrant down, a page renamed, a new page
 * never indexed, the embedding model swapped, ANN search degraded and stale duplicate chunks left by a re-index, on
 * noisy nights (score noise sigma 0.01 per chunk and query, busy nights, a flaky query failing on a quarter of the
 * nights). Each night's emails are checked, then the summary against the target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NightRecord, startReplay } from '../../sandbox/replay/replay.ts';
import { parseScenario } from '../../sandbox/replay/scenario.ts';
import { tallyReplay } from '../../sandbox/replay/tally.ts';
import { type ReplayWorld, startReplayWorld } from '../../sandbox/replay/world.ts';

const scenario = parseScenario(
  {
    nights: 20,
    start_date: '2026-03-01',
    noise: {
      latency_jitter_ms: [0, 10],
      reindexed_chunks: 3,
      seed: 7,
      sigma: 0.01,
      busy_nights: 0.1,
      flaky_query: { id: 'nav2-section', share: 0.25 },
    },
    faults: [
      { id: 'a', kind: 'module-dropped', target: 'module-4-vla', from: 4, nights: 2 },
      { id: 'e', kind: 'qdrant-down', from: 6, nights: 1 },
      {
        id: 'h',
        kind: 'page-renamed',
        target: '/docs/module-3-nvidia-isaac/ch2-isaac-ros-vslam',
        to: '/docs/module-3-nvidia-isaac/ch2-visual-slam',
        from: 7,
        nights: 2,
      },
      { id: 'f', kind: 'page-not-indexed', target: '/docs/module-4-vla/ch4-safety-and-ethics', from: 9, nights: 1 },
      { id: 'c', kind: 'embedding-model-swapped', from: 12, nights: 1 },
      { id: 'g', kind: 'ann-degraded', from: 15, nights: 1 },
      {
        id: 'b',
        kind: 'stale-duplicate-chunks',
        target: '/docs/module-1-ros2/ch2-rclpy-and-launch-files',
        from: 18,
        nights: 1,
      },
    ],
  },
  'short replay',
);

/** The emails each night should send, as track:kind (ALERT_RECOVERY_RUNS 2: a recovery on the second clean run). */
const EXPECTED: Record<number, string[]> = {
  1: [],
  2: [],
  3: [],
  4: ['quality:onset'],
  5: [],
  6: ['infrastructure:onset'],
  7: ['suite:onset'],
  // An ERROR night cannot judge quality: module a's second clean run is night 8, the second that completed.
  8: ['infrastructure:recovery', 'quality:recovery'],
  // Coverage breached again a night after module a's recovery: the same incident re-opens (flapping), as does the
  // pass-rate breach of night 12; degraded ANN (night 15: ann recall, on noisy nights without a pass-rate breach)
  // and the stale chunks of night 18 break nothing it had, so they open anew.
  9: ['quality:reopened'],
  10: ['suite:recovery'],
  11: ['quality:recovery'],
  12: ['quality:reopened'],
  13: [],
  14: ['quality:recovery'],
  15: ['quality:onset'],
  16: [],
  17: ['quality:recovery'],
  18: ['quality:onset'],
  19: [],
  20: ['quality:recovery'],
};

let world: ReplayWorld;
let replay: Awaited<ReturnType<typeof startReplay>>;
const records: NightRecord[] = [];

beforeAll(async () => {
  world = await startReplayWorld();
  replay = await startReplay(world, scenario);
});

afterAll(async () => {
  await world?.stop();
});

describe('a twenty-night replay through the real nightly handler', () => {
  // One night per test, in order: each runs the handler once and checks that night's emails.
  it.each(Object.entries(EXPECTED))(
    'sends on night %s exactly the emails its faults call for: %j',
    async (night, kinds) => {
      const record = await replay.next();
      records.push(record);
      expect(record.night).toBe(Number(night));
      expect(record.emails.map((e) => `${e.track}:${e.kind}`).sort()).toEqual([...kinds].sort());
    },
  );

  it('marks the night Qdrant was down ERROR and the others PASSED or FAILED', () => {
    expect(records.map((r) => r.status)).toEqual([
      'PASSED',
      'PASSED',
      'PASSED',
      'FAILED',
      'FAILED',
      'ERROR',
      'PASSED',
      'PASSED',
      'FAILED',
      'PASSED',
      'PASSED',
      'FAILED',
      'PASSED',
      'PASSED',
      'FAILED',
      'PASSED',
      'PASSED',
      'FAILED',
      'PASSED',
      'PASSED',
    ]);
  });

  it('sees the renamed page as golden-set rot, the swapped model as a score shift, degraded ANN by its recall', () => {
    // Latency may move on a busy machine; it is reported, never alerted.
    expect(records[6]?.findings.filter((f) => !f.endsWith('_ms'))).toEqual(['SUITE_STALE']);
    expect(records[11]?.findings).toContain('SCORE_SHIFT:best_similarity_paired');
    expect(records[14]?.emails[0]?.body).toMatch(/ann recall 0\.\d+ < 0\.95/);
  });

  it('reports the flaky query as FLAKY on the nights it fails once known, and never emails for it alone', () => {
    const flaky = records.filter((r) => r.findings.includes('FLAKY'));
    expect(flaky.length).toBeGreaterThan(0);
    for (const r of flaky.filter((x) => x.faults.length === 0))
      expect(r.emails.filter((e) => e.kind === 'onset' || e.kind === 'escalation')).toEqual([]);
  });

  it('detects every fault on its first night', () => {
    const summary = tallyReplay(scenario, records);
    expect(summary.detected_first_night).toBe(summary.faults);
    expect(summary.faults).toBe(7);
  });

  it('announces the end of every fault', () => {
    const summary = tallyReplay(scenario, records);
    expect(summary.recoveries).toBe(summary.faults);
  });

  it('sends no false alert and no duplicate alert', () => {
    const summary = tallyReplay(scenario, records);
    expect({ false: summary.false_alerts, duplicate: summary.duplicate_alerts }).toEqual({ false: 0, duplicate: 0 });
  });
});
