/**
 * QUERY_DRIFT: one query's best similarity has been sliding below its own long-horizon reference, night after night
 * (issue 21 §1: the drift rule on per-query best similarity). SCORE_DRIFT sees the queries fall together; this sees
 * one query fall alone, by steps each within its 7-run band (which SIMILARITY_DROPPED judges, and which a slow
 * slide enters a night at a time): its page rewritten a little at a time, its chunks thinned out by re-indexes.
 *
 * Per query, the same one-sided CUSUM as SCORE_DRIFT (score-drift.ts), on the query's own relative change
 * x = (now - reference) / reference against its median over up to 28 healthy runs that were not regressions (at
 * least 7), in units of that query's own noise on those runs (sd = 1.4826 x MAD): slack k = 1.1 sd, alarm
 * h = 4.4 sd, this run at least 2.2 sd below, never under 1 %, 4 % and 2 %. And a drift is a slide, not a night:
 * the last 3 runs (this one included) must each have fallen beyond the slack. One deep night is SIMILARITY_DROPPED's
 * (or, for a query whose best chunk comes and goes, FLAKY's); without this, a single night 30 % down would cross h
 * at once and be called a drift.
 *
 * LOW, reported and not alerted (observe-run.ts: one query's score moving while its verdict holds opens no
 * incident; when its verdict goes, QUERY_REGRESSED does). Not reported for any query when SCORE_DRIFT fires on the
 * same run: the queries then fall together, and one finding says so better than twelve.
 */
import { MIN_REFERENCE_RUNS, HISTORY_RUNS as REFERENCE_RUNS } from '../history/baseline.ts';
import type { RunDigest } from '../history/run-digest.ts';
import { finding, type RegressionFinding } from '../report/regression-report.ts';
import { noiseBand, roundTo } from '../shared/statistics.ts';
import { medianBestSimilarities, sameQuery } from './comparable.ts';

const MIN_SLACK = 0.01;
const MIN_ALARM = 0.04;
const MIN_STILL_BELOW = 0.02;
/** Runs in a row (this one included) that must each have fallen beyond the slack: a slide, not a night. */
const DRIFT_RUNS = 3;

export function detectQueryDrift(options: {
  current: RunDigest;
  /** Earlier runs, newest first. */
  history: readonly RunDigest[];
  setAside: ReadonlySet<string>;
}): RegressionFinding[] {
  const healthy = options.history.filter((r) => r.status !== 'ERROR');
  const referenceRuns = healthy.filter((r) => !r.regressed).slice(0, REFERENCE_RUNS);
  if (referenceRuns.length < MIN_REFERENCE_RUNS) return [];
  const reference = medianBestSimilarities(referenceRuns);
  const sequence = [...healthy.slice(0, REFERENCE_RUNS)].reverse();
  const findings: RegressionFinding[] = [];
  for (const [id, ref] of Object.entries(reference)) {
    const now = options.current.queries[id];
    if (options.setAside.has(id) || ref <= 0 || now === undefined) continue;
    const observe = (run: RunDigest): number | null => {
      const q = run.queries[id];
      if (!q || q.bestSimilarity === null || q.status === 'ERROR' || !sameQuery(now, q)) return null;
      return (q.bestSimilarity - ref) / ref;
    };
    const x = observe(options.current);
    if (x === null) continue;
    const referenceObservations = referenceRuns.map(observe).filter((v): v is number => v !== null);
    const noise = (sigmas: number, floor: number) => noiseBand(referenceObservations, { sigmas, floor });
    const slack = noise(1.1, MIN_SLACK);
    const alarm = noise(4.4, MIN_ALARM);
    const stillBelow = noise(2.2, MIN_STILL_BELOW);
    let cusum = 0;
    let streak = 0;
    for (const v of [...sequence.map(observe), x]) {
      if (v === null) continue;
      const fell = v <= -slack;
      cusum = fell ? cusum - v - slack : 0;
      streak = fell ? streak + 1 : 0;
    }
    if (cusum <= alarm || x > -stillBelow || streak < DRIFT_RUNS) continue;
    findings.push(
      finding({
        kind: 'QUERY_DRIFT',
        severity: 'LOW',
        message: `query ${id}: best similarity has drifted down ${streak} runs in a row: ${roundTo(x * 100, 1)} % against its ${referenceRuns.length}-run reference ${roundTo(ref, 4)} (CUSUM ${roundTo(cusum * 100, 1)} % > ${roundTo(alarm * 100, 1)} %)`,
        query_id: id,
        metric: 'best_similarity_vs_reference',
        value: roundTo(now.bestSimilarity ?? 0, 4),
        baseline: roundTo(ref, 4),
        band: alarm,
      }),
    );
  }
  return findings;
}
