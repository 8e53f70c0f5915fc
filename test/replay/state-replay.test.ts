/**
 * The incident state under the replay (issue 21 §5 and §6): sandbox/replay/scenarios/state.json runs the real nightly
 * handler through the S3 stand-in for 24 noisy nights with a module dropped on nights 10-15, the state object made
 * not JSON (nights 3 and 20) or deleted (night 6) before a run, and two runs of the handler at once (nights 10, 13
 * and 22). The fault must still be told once, on its first night, and its end once; the damaged state is repaired by
 * the next run without an email.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NightRecord, runReplay } from '../../sandbox/replay/replay.ts';
import { loadScenario } from '../../sandbox/replay/scenario.ts';
import { tallyReplay, targetMisses } from '../../sandbox/replay/tally.ts';
import { type ReplayWorld, startReplayWorld } from '../../sandbox/replay/world.ts';

const scenario = loadScenario(path.resolve(import.meta.dirname, '../../sandbox/replay/scenarios/state.json'));
let world: ReplayWorld;
let records: NightRecord[];

beforeAll(async () => {
  world = await startReplayWorld();
  records = await runReplay(world, scenario);
}, 300_000);

afterAll(async () => {
  await world?.stop();
});

describe('the replay with the incident state damaged and runs overlapping', () => {
  it('sends one onset on the fault’s first night (two runs at once) and one recovery, nothing else', () => {
    const sent = records.flatMap((r) => r.emails.map((e) => `${r.night} ${e.track}:${e.kind}`));
    expect(sent).toEqual(['10 quality:onset', '17 quality:recovery']);
  });

  it('counts the overlapping nights’ runs in the incident without a second email: 6 fault nights, 7 or 8 runs', () => {
    // Of two runs at once, the one that writes second reads the state again and is applied on top, unless it started
    // before the run that wrote first (then it is the older run, not applied): which happens is the scheduler's.
    const recovery = records[16]?.emails[0];
    expect(recovery?.subject).toMatch(/quality incident over after [78] run\(s\), 6 night\(s\)$/);
  });

  it('finds the state not JSON before the run on nights 3 and 20, and replaced by that run with its own', () => {
    for (const night of [3, 20]) {
      const state = records[night - 1]?.incidentState;
      expect(state?.before).toBe('{"schema_version": "1", "open": {');
      const after = JSON.parse(state?.after ?? 'null') as { last_run: { started_at: string }; open: object };
      expect(after.last_run.started_at.slice(0, 10)).toBe(records[night - 1]?.date);
      expect(after.open).toEqual({ quality: null, infrastructure: null, suite: null });
    }
  });

  it('leaves a deleted state absent while nothing is open (nothing was lost), and opens the next incident once', () => {
    const state = records[5]?.incidentState;
    expect(state).toEqual({ before: null, after: null });
    expect(records[9]?.emails.map((e) => e.kind)).toEqual(['onset']);
  });

  it('meets the scenario’s target', () => {
    const summary = tallyReplay(scenario, records);
    expect(summary).toMatchObject({ detected_first_night: 1, recoveries: 1, false_alerts: 0, duplicate_alerts: 0 });
    expect(targetMisses(scenario, summary)).toEqual([]);
  });
});
