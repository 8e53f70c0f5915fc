/**
 * SCORE_DRIFT: the queries' best similarities have been sliding away from their long-horizon reference, night
 * after night, by steps each too small for the 7-run baseline to call (and which that baseline would absorb).
 *
 * The reference: each query's median best similarity over up to 28 healthy runs that were not regressions
 * (four weeks; at least 7). Each run's observation x is the median, over the queries it shares with the reference
 * (flaky, stale and new ones left out), of its relative change (now - reference) / reference: a drift moves the
 * queries in general, and the median does not follow one query's bad night (a query that fails on some nights
 * without flipping its verdict often enough to be set aside as flaky moved the mean by 4-5 % on its own, two or
 * three nights running, and a clean noisy book alarmed every two weeks; that query is SIMILARITY_DROPPED's). A one-sided CUSUM
 * (Page's) accumulates the falls beyond a slack k, over the healthy runs in history oldest first and then this
 * one: S = max(0, S - x - k), restarted at 0 by a run within k of the reference (the fall was undone). It alarms
 * when S > h and this run is itself at least 2 % below the reference (so a drift that was undone stops being a
 * finding on its first clean night, although S decays slowly); once told (the runs before were regressions), while
 * the run is below it by half the depth those runs held, between k and 2 % (stayBelow).
 *
 * k, h and the 2 % are in units of the noise of x, measured on the reference runs themselves (sd = 1.4826 x the
 * MAD of their observations): k = 1.1 sd, h = 4.4 sd, "below" = 2.2 sd (Page's ARL0 >> 10^3 nights for a
 * stationary run), never less than 1 %, 4 % and 2 %. Fixed percentages were right for one noise level only: the
 * same sigma on best similarities of 0.2 instead of 0.32 is 1.6 times the relative noise, and with k and h fixed a
 * clean, noisy book alarmed every few weeks. At the floors (a per-run noise of the mean of about 0.9 %) a drift of
 * -1.5 % a night crosses h on its third night (S = 0.5, 2.5, 6 %); on a noisier book a drift must be larger, or
 * last longer, to be told apart from the noise, which is what the noise allows. Its onset needs no second night:
 * the CUSUM is already the evidence of several.
 */
import { MIN_REFERENCE_RUNS, HISTORY_RUNS as REFERENCE_RUNS } from '../history/baseline.ts';
import type { RunDigest } from '../history/run-digest.ts';
import { finding, type RegressionFinding } from '../report/regression-report.ts';
import { median, noiseBand, roundTo } from '../shared/statistics.ts';
import { medianBestSimilarities, sameQuery } from './comparable.ts';

const MIN_SLACK = 0.01;
const MIN_ALARM = 0.04;
const MIN_STILL_BELOW = 0.02;

/**
 * How far below the reference this run must be for the finding. A new drift: "still below" (2.2 sd). One already
 * told (the runs before were regressions): halfway between the reference and the level those runs held (the median
 * of their observations), never nearer the reference than the slack nor farther than "still below". Why halfway: a
 * fault that sits just past the opening line (-2.5 % at a 2 % line) would flicker if the line stayed there, so it
 * stays told down to half its depth; a deep one (-15 %) has no such risk, and a line left at the slack (1.1 sd) held
 * it open on a fixed night whose noise alone fell that far (1 night in 7: the held fault's recovery came a night late
 * in 2 of 5 seeds); capped at "still below", a fixed night closes it 98 times in 100.
 */
function stayBelow(
  healthy: readonly RunDigest[],
  observe: (run: RunDigest) => number | null,
  lines: { slack: number; stillBelow: number },
): number {
  const told = [];
  for (const run of healthy) {
    if (!run.regressed) break;
    told.push(run);
  }
  const level = median(told.map(observe).filter((x): x is number => x !== null));
  if (level === null) return lines.stillBelow;
  return Math.min(lines.stillBelow, Math.max(lines.slack, -level / 2));
}

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
    return median(changes);
  };
  // The noise of x on the reference runs (each observed against the reference they make up) sets the scale.
  const referenceObservations = referenceRuns.map(observe).filter((x): x is number => x !== null);
  const noise = (sigmas: number, floor: number) => noiseBand(referenceObservations, { sigmas, floor });
  const slack = noise(1.1, MIN_SLACK);
  const alarm = noise(4.4, MIN_ALARM);
  const stillBelow = noise(2.2, MIN_STILL_BELOW);
  // A run within the slack of the reference restarts the sum: whatever fell before (a drift, or another fault's
  // nights, which stay in the sequence though not in the reference) has been undone.
  const step = (sum: number, x: number) => (x > -slack ? 0 : sum - x - slack);
  let cusum = 0;
  for (const run of [...healthy.slice(0, REFERENCE_RUNS)].reverse()) {
    const x = observe(run);
    if (x !== null) cusum = step(cusum, x);
  }
  const now = observe(options.current);
  if (now === null) return [];
  cusum = step(cusum, now);
  const below = stayBelow(healthy, observe, { slack, stillBelow });
  if (cusum <= alarm || now > -below) return [];
  const refMean = ids.reduce((sum, id) => sum + (reference[id] as number), 0) / Math.max(1, ids.length);
  return [
    finding({
      kind: 'SCORE_DRIFT',
      severity: 'MEDIUM',
      message: `best similarities have drifted down: ${roundTo(now * 100, 1)} % against their ${referenceRuns.length}-run reference (CUSUM ${roundTo(cusum * 100, 1)} % > ${roundTo(alarm * 100, 1)} %)`,
      metric: 'best_similarity_vs_reference',
      value: now,
      baseline: refMean,
      band: alarm,
    }),
  ];
}
