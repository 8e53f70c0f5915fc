/**
 * The baseline a run is compared with: what "usual" looks like, per metric and per query, from recent healthy runs.
 *
 * Choice: the median of the last 7 runs that produced figures (PASSED or FAILED; never ERROR, whose figures are
 * absent or zero because the run could not complete; never a run that was itself judged a regression), with a noise band of 3 robust sigmas (1.4826 x MAD) and a
 * floor per metric. Why: 7 nightly runs are a week, so a weekly rhythm (re-index on Mondays) is inside the
 * baseline; the median of 7 ignores up to 3 bad runs, so an incident lasting 1-3 nights neither drags the
 * baseline down with it nor hides its own recovery; FAILED runs stay in because a criterion breached for weeks is
 * the usual state of that collection, and comparing with it is what separates "still broken" from "newly broken".
 * The floor keeps a history of identical nights (MAD 0) from calling the smallest wobble a regression.
 */
import { median, noiseBand } from '../shared/statistics.ts';
import { type CoverageDigest, RUN_METRICS, type RunDigest, type RunMetric } from './run-digest.ts';

/** Runs a baseline is built from, and the fewest with which regressions are judged at all. */
export const BASELINE_RUNS = 7;
export const MIN_BASELINE_RUNS = 3;
/**
 * The long-horizon reference (regression/score-drift.ts): the median of up to 28 healthy runs, four weeks, and the
 * fewest it is judged with.
 */
const REFERENCE_RUNS = 28;
export const MIN_REFERENCE_RUNS = 7;
/**
 * Runs read from history: the reference's four weeks. The 7-run baseline needs 7 healthy runs outside any
 * regression; a regression held for up to three weeks still leaves them in the window.
 */
export const HISTORY_RUNS = REFERENCE_RUNS;

export interface MetricBaseline {
  median: number;
  /** A move of more than this from the median is beyond the run-to-run noise. */
  band: number;
  /** Which way is worse. */
  worse: 'lower' | 'higher';
}

export interface QueryBaseline {
  /** PASS when the query passed in at least half of the baseline runs that judged it. */
  status: 'PASS' | 'FAIL';
  bestSimilarity: number | null;
  similarityBand: number;
  /** Median rank of each expectation; null when it was outside the top results in most runs. */
  expectedRanks: Record<string, number | null>;
}

export interface Baseline {
  runs: Pick<RunDigest, 'runId' | 'status' | 'startedAt' | 'location'>[];
  metrics: Partial<Record<RunMetric, MetricBaseline>>;
  queries: Record<string, QueryBaseline>;
  /**
   * URLs missing (or orphaned) in most baseline runs: the usual gaps, not news. A bound (`missingUpTo`) is set when
   * a baseline run's list was cut: the smallest such last-listed URL; past it the baseline says nothing.
   */
  coverage: CoverageDigest | null;
}

/**
 * Latency percentiles are over each query's share of its batched calls (issue 23): a few milliseconds, so a floor in
 * absolute terms that fitted whole calls (100 ms) was never reached and a latency regression never fired. The floor
 * is relative instead: a rise of three times the median (the run more than four times as slow as usual), and at
 * least LATENCY_FLOOR_MS, which keeps a sub-millisecond median's rounding and timer noise from being news. Why three
 * times: on shared hardware a busy night doubles or triples the shares with nothing wrong (the replay, under load:
 * the p95 is over 2.5 times its 7-run median on 1 night in 10, over 3 times on 1 in 20), while the faults worth
 * naming (a search brute-forced, vectors read from a cold disk) multiply it by ten or more. The 3 robust sigmas
 * still widen the band for a history that is noisier than that (docs/DETECTION.md).
 */
const LATENCY_FLOOR_MS = 5;
const LATENCY_RISE = 3;
const latencyFloor = (centre: number) => Math.max(LATENCY_RISE * centre, LATENCY_FLOOR_MS);

/** The floor of each metric's band, in its own unit (pass rate in points, latency relative to the median). */
const FLOORS: Record<RunMetric, (centre: number, queries: number) => number> = {
  pass_rate: () => 5,
  // One query of N moving its rank moves the mean by up to 1/N: that is one query's business (QUERY_REGRESSED,
  // RANK_DROPPED), not a run-level drop.
  mrr: (_, n) => Math.max(0.05, 1 / n),
  ndcg_at_k: (_, n) => Math.max(0.05, 1 / n),
  hit_rate: () => 0.05,
  avg_similarity: () => 0.03,
  p50_latency_ms: latencyFloor,
  p95_latency_ms: latencyFloor,
  p99_latency_ms: latencyFloor,
};
const SIGMAS = 3;
/** Per-query best similarity: the floor of its band (cosine units). */
const SIMILARITY_BAND_FLOOR = 0.05;
const ABSENT_RANK = 1_000_000;

/**
 * The baseline from history (newest first), or null when fewer than MIN_BASELINE_RUNS healthy runs exist. Runs
 * judged regressions themselves (`regressed`) are left out: while a fault lasts, the baseline stays what it was
 * before its onset, so the fault never becomes "usual" and the incident closes only when the figures are back.
 */
export function buildBaseline(history: readonly RunDigest[], size = BASELINE_RUNS): Baseline | null {
  const runs = history.filter((r) => r.status !== 'ERROR' && !r.regressed).slice(0, size);
  if (runs.length < MIN_BASELINE_RUNS) return null;
  const queryCount = Math.max(1, ...runs.map((r) => Object.keys(r.queries).length));
  const metrics: Baseline['metrics'] = {};
  for (const name of RUN_METRICS) {
    const values = runs.map((r) => r.metrics[name]).filter((v): v is number => v !== undefined);
    const centre = median(values);
    if (centre === null) continue;
    const band = noiseBand(values, { sigmas: SIGMAS, floor: FLOORS[name](centre, queryCount) });
    metrics[name] = { median: centre, band, worse: name.endsWith('_ms') ? 'higher' : 'lower' };
  }
  const queries: Baseline['queries'] = {};
  const ids = new Set(runs.flatMap((r) => Object.keys(r.queries)));
  for (const id of ids) {
    const seen = runs.flatMap((r) => (r.queries[id] ? [r.queries[id]] : []));
    const judged = seen.filter((q) => q.status !== 'ERROR');
    if (judged.length === 0) continue;
    const passes = judged.filter((q) => q.status === 'PASS').length;
    const sims = judged.map((q) => q.bestSimilarity).filter((s): s is number => s !== null);
    const expectations = new Set(judged.flatMap((q) => Object.keys(q.expectedRanks)));
    const expectedRanks: Record<string, number | null> = {};
    for (const e of expectations) {
      const rank = median(judged.map((q) => q.expectedRanks[e] ?? ABSENT_RANK)) ?? ABSENT_RANK;
      expectedRanks[e] = rank >= ABSENT_RANK ? null : rank;
    }
    queries[id] = {
      status: passes * 2 >= judged.length ? 'PASS' : 'FAIL',
      bestSimilarity: median(sims),
      similarityBand: similarityBand(sims),
      expectedRanks,
    };
  }
  return {
    runs: runs.map(({ runId, status, startedAt, location }) => ({ runId, status, startedAt, location })),
    metrics,
    queries,
    coverage: usualGaps(runs),
  };
}

/** A query's best-similarity noise band over its usual runs: 3 robust sigmas, at least 0.05 (cosine units). */
export function similarityBand(values: readonly number[]): number {
  return noiseBand(values, { sigmas: SIGMAS, floor: SIMILARITY_BAND_FLOOR });
}

function usualGaps(runs: readonly RunDigest[]): Baseline['coverage'] {
  const withCoverage = runs.flatMap((r) => (r.coverage ? [r.coverage] : []));
  if (withCoverage.length === 0) return null;
  const majority = (pick: (c: CoverageDigest) => string[]) => {
    const counts = new Map<string, number>();
    for (const c of withCoverage) for (const url of new Set(pick(c))) counts.set(url, (counts.get(url) ?? 0) + 1);
    return [...counts].filter(([, n]) => n * 2 > withCoverage.length).map(([url]) => url);
  };
  // The smallest bound of the runs whose list was cut: past it, some run of the majority is unknown.
  const bound = (pick: (c: CoverageDigest) => string | undefined) =>
    withCoverage.flatMap((c) => pick(c) ?? []).sort()[0];
  const missingUpTo = bound((c) => c.missingUpTo);
  const orphansUpTo = bound((c) => c.orphansUpTo);
  return {
    missing: majority((c) => c.missing),
    orphans: majority((c) => c.orphans),
    ...(missingUpTo === undefined ? {} : { missingUpTo }),
    ...(orphansUpTo === undefined ? {} : { orphansUpTo }),
  };
}
