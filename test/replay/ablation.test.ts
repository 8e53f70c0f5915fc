/**
 * The ablation: the replay must fail without the detectors that compare a run with its history. A regression
 * that breaches no criterion (every similarity -15 %, on the scores Qdrant returns, with score noise on every
 * night) is replayed twice through the real nightly handler: with the detectors it is named within two nights
 * and its end announced; with the baseline detectors, SCORE_SHIFT and SCORE_DRIFT switched off, nothing names
 * it, and the replay's target is missed. So the replay's figures are the detectors' doing, not the criteria's.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runReplay } from '../../sandbox/replay/replay.ts';
import { parseScenario } from '../../sandbox/replay/scenario.ts';
import { tallyReplay, targetMisses } from '../../sandbox/replay/tally.ts';
import { type ReplayWorld, startReplayWorld } from '../../sandbox/replay/world.ts';

const ablated = vi.hoisted(() => ({ on: false }));

vi.mock('../../functions/core/regression/detectors.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../functions/core/regression/detectors.ts')>();
  // compare-with-history reads this very array each run: emptied while ablated.
  const list = [...real.BASELINE_DETECTORS];
  return {
    BASELINE_DETECTORS: new Proxy(list, {
      get: (target, key, receiver) => (ablated.on && key === 'flatMap' ? () => [] : Reflect.get(target, key, receiver)),
    }),
  };
});
vi.mock('../../functions/core/regression/score-shift.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../functions/core/regression/score-shift.ts')>();
  return {
    detectScoreShift: (...args: Parameters<typeof real.detectScoreShift>) =>
      ablated.on ? { test: null, findings: [] } : real.detectScoreShift(...args),
  };
});
vi.mock('../../functions/core/regression/score-drift.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../functions/core/regression/score-drift.ts')>();
  return {
    detectScoreDrift: (...args: Parameters<typeof real.detectScoreDrift>) =>
      ablated.on ? [] : real.detectScoreDrift(...args),
  };
});

const scenario = (seed: number) =>
  parseScenario(
    {
      name: 'ablation',
      // The fault's last night is 8; its recovery comes on the second clean night (ALERT_RECOVERY_RUNS 2).
      nights: 10,
      start_date: '2026-05-01',
      noise: { latency_jitter_ms: [0, 5], reindexed_chunks: 2, seed, sigma: 0.01, busy_nights: 0.1 },
      faults: [{ id: 'lowered', kind: 'scores-lowered', fall: 0.15, from: 5, nights: 4 }],
      target: { detect_within: 2 },
    },
    'ablation scenario',
  );

let world: ReplayWorld;

beforeAll(async () => {
  world = await startReplayWorld();
});

afterAll(async () => {
  ablated.on = false;
  await world?.stop();
});

describe('the replay with and without the baseline detectors', () => {
  it('names a regression-only fault within two nights and announces its end, with the detectors', {
    timeout: 120_000,
  }, async () => {
    await world.startOver('ablation-on');
    const s = scenario(11);
    const records = await runReplay(world, s);
    const summary = tallyReplay(s, records);
    expect(targetMisses(s, summary)).toEqual([]);
    expect(summary.per_fault[0]).toMatchObject({ detected_on: 2, resolved_while_active: 0, recovered: true });
  });

  it('misses it without them: the replay fails', { timeout: 120_000 }, async () => {
    ablated.on = true;
    await world.startOver('ablation-off');
    const s = scenario(11);
    const summary = tallyReplay(s, await runReplay(world, s));
    expect(summary.per_fault[0]?.detected_on).toBeNull();
    expect(targetMisses(s, summary)).toContain('fault lowered (scores-lowered) not named within 2 night(s) (never)');
  });
});
