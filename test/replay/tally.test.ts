import { describe, expect, it } from 'vitest';
import type { NightRecord } from '../../sandbox/replay/replay.ts';
import { parseScenario, type Scenario } from '../../sandbox/replay/scenario.ts';
import { tallyReplay } from '../../sandbox/replay/tally.ts';

const scenario: Scenario = parseScenario(
  {
    nights: 6,
    start_date: '2026-03-01',
    noise: { latency_jitter_ms: [0, 0], reindexed_chunks: 0, seed: 1 },
    faults: [{ id: 'a', kind: 'module-dropped', target: 'module-4-vla', from: 2, nights: 2 }],
  },
  'test scenario',
);
const email = (kind: string, track = 'quality') => ({ kind, track, severity: 'HIGH', subject: `${kind} ${track}` });
const nights = (emails: Record<number, ReturnType<typeof email>[]>): NightRecord[] =>
  Array.from({ length: 6 }, (_, i) => ({
    night: i + 1,
    date: `2026-03-0${i + 1}`,
    faults: [],
    status: 'PASSED',
    emails: emails[i + 1] ?? [],
    findings: [],
  }));

describe('tallyReplay', () => {
  it('meets the target when the fault is told once on its first night and its end once on the next', () => {
    expect(tallyReplay(scenario, nights({ 2: [email('onset')], 4: [email('recovery')] }))).toEqual({
      faults: 1,
      detected_first_night: 1,
      recoveries: 1,
      false_alerts: 0,
      duplicate_alerts: 0,
    });
  });

  it('counts a re-opened (flapping) incident on the fault’s first night as detected, and a recovery as no detection', () => {
    expect(tallyReplay(scenario, nights({ 2: [email('reopened')], 4: [email('recovery')] })).detected_first_night).toBe(
      1,
    );
    expect(tallyReplay(scenario, nights({ 2: [email('recovery')] })).detected_first_night).toBe(0);
  });

  it('counts an email on a later night of the fault as a duplicate', () => {
    const summary = tallyReplay(scenario, nights({ 2: [email('onset')], 3: [email('onset')], 4: [email('recovery')] }));
    expect(summary.duplicate_alerts).toBe(1);
  });

  it('counts an email on a clean night as a false alert', () => {
    const summary = tallyReplay(scenario, nights({ 2: [email('onset')], 4: [email('recovery')], 6: [email('onset')] }));
    expect(summary.false_alerts).toBe(1);
  });

  it('does not count a fault detected late, or told on another track, as detected on its first night', () => {
    expect(tallyReplay(scenario, nights({ 3: [email('onset')] })).detected_first_night).toBe(0);
    expect(tallyReplay(scenario, nights({ 2: [email('onset', 'suite')] })).detected_first_night).toBe(0);
  });

  it('waits past a night whose run could not complete for a quality recovery', () => {
    const records = nights({ 2: [email('onset')], 5: [email('recovery')] });
    const errorNight = records[3];
    if (errorNight) errorNight.status = 'ERROR';
    expect(tallyReplay(scenario, records)).toMatchObject({ recoveries: 1, false_alerts: 0 });
  });

  it('does not count a recovery that comes a night late', () => {
    expect(tallyReplay(scenario, nights({ 2: [email('onset')], 5: [email('recovery')] })).recoveries).toBe(0);
  });
});

describe('parseScenario', () => {
  it('refuses two faults of one incident track without a clean night between them', () => {
    const raw = {
      nights: 10,
      start_date: '2026-03-01',
      noise: { latency_jitter_ms: [0, 0], reindexed_chunks: 0, seed: 1 },
      faults: [
        { id: 'a', kind: 'module-dropped', target: 'module-4-vla', from: 2, nights: 2 },
        { id: 'f', kind: 'page-not-indexed', target: '/docs/x', from: 4, nights: 1 },
      ],
    };
    expect(() => parseScenario(raw, 'scenario.json')).toThrow(
      'scenario.json: faults a and f (quality) must be separated by a clean night',
    );
  });

  it('names a fault that lacks the target it needs, or runs past the last night', () => {
    const raw = {
      nights: 3,
      start_date: '2026-03-01',
      noise: { latency_jitter_ms: [0, 0], reindexed_chunks: 0, seed: 1 },
      faults: [{ id: 'h', kind: 'page-renamed', target: '/docs/x', from: 2, nights: 3 }],
    };
    expect(() => parseScenario(raw, 's.json')).toThrow('s.json: fault h ends after night 3; fault h: to is required');
  });
});
