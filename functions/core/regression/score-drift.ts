/**
 * SCORE_DRIFT: the queries' best similarities have been sliding away from their long-horizon reference, night
 * after night, by steps each too small for the 7-run baseline to call (and which that baseline would absorb).
 *
 * The reference: each query's median best similarity over up to 28 healthy runs that were not regressions
 * (four weeks; at least 7). Each run's observation x is the mean, over the queries it shares with the reference
 * (flaky, stale and new ones left out), of its relative change (now - reference) / reference. A one-sided CUSUM
 * (Page's) accumulates the falls beyond a slack k, over the healthy runs in history oldest first and then this
 * one: S = max(0, S - x - k), restarted at 0 by a run within k of the reference (the fall was undone). It alarms
 * when S > h and this run is itself at least 2 % below the reference (so a drift that was undone stops being a
 * finding on its first clean night, although S decays slowly); once told (the run before was a regression), while
 * the run is more than k below it.
 *
 * k = 1 % and h = 4 %, for a per-run noise of the mean of about 0.9 % (12 queries, per-query sd 0.01 on a best
 * similarity of about 0.32): a drift of -1.5 % a night crosses h on its third night (S = 0.5, 2.5, 6 %), a
 * stationary run would need, on average, many years of nights to (k is 1.1 sd, h 4.4 sd: Page's ARL0 >> 10^3).
 * Its onset needs no second night: the CUSUM is already the evidence of several.
 */
import { MIN_REFERENCE_RUNS, HISTORY_RUNS as REFERENCE_RUNS } from '../history/baseline.ts';
import type { RunDigest } from '../history/run-digest.ts';
import { finding, type RegressionFinding } from '../report/regression-report.ts';
import { roundTo } from '../shared/statistics.ts';
import { medianBestSimilarities, sameQuery } from './comparable.ts';

const SLACK = 0.01;
const ALARM = 0.04;
const STILL_BELOW = 0.02;

export function detectScoreDrift(options: {
  current: RunDigest;
  /** Earlier runs, newest first. */
  history: readonly RunDigest[];
  setAside: ReadonlySet<string>;
}): RegressionFinding[] {
  const healthy = options.history.filter((r) => r.status !== 'ERROR');
  const referenceRuns = healthy.filter((r) => !r.regressed).slice(0, REFERENCE_RUNS);
  if (referenceRuns.length < MIN_REFERENCE_RUNS) return [];
  const reference = medianBestSimilarities(referenceRuns);
  const ids = Object.keys(reference).filter((id) => !options.setAside.has(id) && (reference[id] ?? 0) > 0);
  const observe = (run: RunDigest): number | null => {
    const now = options.current.queries;
    const changes = ids.flatMap((id) => {
      const q = run.queries[id];
      const ref = reference[id] as number;
      if (!q || q.bestSimilarity === null || q.status === 'ERROR') return [];
      if (now[id] && !sameQuery(now[id], q)) return [];
      return [(q.bestSimilarity - ref) / ref];
    });
    return changes.length === 0 ? null : changes.reduce((a, b) => a + b, 0) / changes.length;
  };
  // A run within the slack of the reference restarts the sum: whatever fell before (a drift, or another fault's
  // nights, which stay in the sequence though not in the reference) has been undone.
  const step = (sum: number, x: number) => (x > -SLACK ? 0 : sum - x - SLACK);
  let cusum = 0;
  for (const run of [...healthy.slice(0, REFERENCE_RUNS)].reverse()) {
    const x = observe(run);
    if (x !== null) cusum = step(cusum, x);
  }
  const now = observe(options.current);
  if (now === null) return [];
  cusum = step(cusum, now);
  // Hysteresis: a drift already told (the run before was a regression) lasts while the run is below the reference
  // by more than the slack; a new one needs the run 2 % below. A fault near the line then neither flickers between
  // "[RESOLVED]" and a new onset nor ends while it is still there.
  const below = options.history.find((r) => r.status !== 'ERROR')?.regressed === true ? SLACK : STILL_BELOW;
  if (cusum <= ALARM || now > -below) return [];
  const refMean = ids.reduce((sum, id) => sum + (reference[id] as number), 0) / Math.max(1, ids.length);
  return [
    finding({
      kind: 'SCORE_DRIFT',
      severity: 'MEDIUM',
      message: `best similarities have drifted down: ${roundTo(now * 100, 1)} % against their ${referenceRuns.length}-run reference (CUSUM ${roundTo(cusum * 100, 1)} % > ${ALARM * 100} %)`,
      metric: 'best_similarity_vs_reference',
      value: now,
      baseline: refMean,
      band: ALARM,
    }),
  ];
}
