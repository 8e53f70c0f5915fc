/**
 * A short replay in the test suite, so the one-alert-per-incident guarantee cannot silently break: fifteen nights
 * of the real nightly handler against the stand-ins, with a module dropped, Qdrant down, a page renamed, a new page
 * never indexed, the embedding model swapped, ANN search degraded and stale duplicate chunks left by a re-index. Each night's emails are checked, then the
 * summary against the target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NightRecord, startReplay } from '../../sandbox/replay/replay.ts';
import { parseScenario } from '../../sandbox/replay/scenario.ts';
import { tallyReplay } from '../../sandbox/replay/tally.ts';
import { type ReplayWorld, startReplayWorld } from '../../sandbox/replay/world.ts';

const scenario = parseScenario(
  {
    nights: 15,
    start_date: '2026-03-01',
    noise: { latency_jitter_ms: [0, 10], reindexed_chunks: 3, seed: 7 },
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
      { id: 'f', kind: 'page-not-indexed', target: '/docs/module-4-vla/ch4-safety-and-ethics', from: 8, nights: 1 },
      { id: 'c', kind: 'embedding-model-swapped', from: 10, nights: 1 },
      { id: 'g', kind: 'ann-degraded', from: 12, nights: 1 },
      {
        id: 'b',
        kind: 'stale-duplicate-chunks',
        target: '/docs/module-1-ros2/ch2-rclpy-and-launch-files',
        from: 14,
        nights: 1,
      },
    ],
  },
  'short replay',
);

/** The emails each night should send, as track:kind. */
const EXPECTED: Record<number, string[]> = {
  1: [],
  2: [],
  3: [],
  4: ['quality:onset'],
  5: [],
  // An ERROR night cannot judge quality: module a's recovery waits for night 7, the next run that completed.
  6: ['infrastructure:onset'],
  7: ['infrastructure:recovery', 'quality:recovery', 'suite:onset'],
  // Coverage breached again a night after module a's recovery: the same incident re-opens (flapping), as do the
  // pass-rate breaches of nights 10 and 12; the stale chunks of night 14 break nothing it had, so they open anew.
  8: ['quality:reopened'],
  9: ['quality:recovery', 'suite:recovery'],
  10: ['quality:reopened'],
  11: ['quality:recovery'],
  12: ['quality:reopened'],
  13: ['quality:recovery'],
  14: ['quality:onset'],
  15: ['quality:recovery'],
};

let world: ReplayWorld;
let replay: ReturnType<typeof startReplay>;
const records: NightRecord[] = [];

beforeAll(async () => {
  world = await startReplayWorld();
  replay = startReplay(world, scenario);
});

afterAll(async () => {
  await world?.stop();
});

describe('a fifteen-night replay through the real nightly handler', () => {
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
      'FAILED',
      'PASSED',
      'FAILED',
      'PASSED',
      'FAILED',
      'PASSED',
      'FAILED',
      'PASSED',
    ]);
  });

  it('sees the renamed page as golden-set rot, the swapped model as a score shift, degraded ANN as regressions', () => {
    // Latency may move on a busy machine; it is reported, never alerted.
    expect(records[6]?.findings.filter((f) => !f.endsWith('_ms'))).toEqual(['SUITE_STALE']);
    expect(records[9]?.findings).toContain('SCORE_SHIFT:best_similarity_distribution');
    expect(records[11]?.findings).toContain('QUERY_REGRESSED');
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
