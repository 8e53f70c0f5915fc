/**
 * What a run can fairly be compared on. A run and its baseline share most queries, but not always the same ones:
 * - a query added, or edited (its expectation changed: another hash), has no past to compare with: a new query
 *   that fails is suite news (NEW_QUERY_FAILING), never a fall of the run's figures;
 * - a flaky query (its verdict, or its best similarity, went back and forth within its last 7 runs) moves the
 *   run's figures every night it flips: it is reported as FLAKY, and left out of the run-level figures and the
 *   score tests;
 * - a stale query (SUITE_STALE) is golden-set rot, left out the same way.
 * Run-level figures (pass rate, MRR, nDCG, hit rate, mean best similarity) are then recomputed, for the run and
 * for each baseline run alike, over the queries they share with an unchanged hash.
 */
import { BASELINE_RUNS, MIN_BASELINE_RUNS, similarityBand } from '../history/baseline.ts';
import type { QueryDigest, RunDigest } from '../history/run-digest.ts';
import { median } from '../shared/statistics.ts';

/** The same query in two runs: present in both, and not edited between them (a report without hashes is trusted). */
export function sameQuery(now: QueryDigest, then: QueryDigest | undefined): boolean {
  return then !== undefined && (now.hash === null || then.hash === null || now.hash === then.hash);
}

/** Status flips (PASS<->FAIL) a query needs within its last 7 judged runs and now to be called flaky. */
const FLAKY_FLIPS = 2;
const FLAKY_WINDOW = 7;

/**
 * Queries whose verdict flipped at least twice within their last 7 judged runs and this one: PASS, FAIL, PASS
 * is noise at the threshold; PASS, PASS, FAIL, FAIL is a change (one flip), and stays a regression.
 */
export function flakyQueries(current: RunDigest, history: readonly RunDigest[]): Set<string> {
  const flaky = new Set<string>();
  for (const [id, now] of Object.entries(current.queries)) {
    if (now.status === 'ERROR') continue;
    const past = history
      .flatMap((r) => {
        const q = r.queries[id];
        return q && q.status !== 'ERROR' && sameQuery(now, q) ? [q.status] : [];
      })
      .slice(0, FLAKY_WINDOW);
    const sequence = [now.status, ...past];
    const flips = sequence.filter((s, i) => i > 0 && s !== sequence[i - 1]).length;
    if (flips >= FLAKY_FLIPS) flaky.add(id);
  }
  return flaky;
}

/** A similarity-flaky query's usual level and band (those of SIMILARITY_DROPPED), to report its low nights by. */
export interface UsualSimilarity {
  level: number;
  band: number;
}

/**
 * Queries whose best similarity fell below its usual band and came back, twice or more (two flips), within its last
 * 7 judged runs and this one, without its verdict flipping: a query whose best chunk is pushed out on some nights
 * (its similarity 0.50 on most nights, 0.23 on one in four, passing on both) is noise, like a verdict flipping at a
 * threshold; one that falls and stays low is one flip, a change, and stays a regression.
 * Its usual level and band are those SIMILARITY_DROPPED judges by: the median and band (3 robust sigmas, at least
 * 0.05) over its last 7 runs that were not regressions, so the flips are in units of the query's own noise.
 * Hysteresis: "below" is under level - band, "back" is at or above level - band / 2, and a night between the two
 * changes nothing. A query drifting or held near the edge of its band (noise moves it across the edge and back)
 * therefore never counts as flipping: only a query that truly returns to its usual level does.
 */
export function similarityFlakyQueries(
  current: RunDigest,
  history: readonly RunDigest[],
): Map<string, UsualSimilarity> {
  const flaky = new Map<string, UsualSimilarity>();
  for (const [id, now] of Object.entries(current.queries)) {
    if (now.status === 'ERROR' || now.bestSimilarity === null) continue;
    const judged = history.filter((r) => {
      const q = r.queries[id];
      return r.status !== 'ERROR' && q && q.status !== 'ERROR' && q.bestSimilarity !== null && sameQuery(now, q);
    });
    const similarityIn = (r: RunDigest) => r.queries[id]?.bestSimilarity as number;
    const usual = judged
      .filter((r) => !r.regressed)
      .slice(0, BASELINE_RUNS)
      .map(similarityIn);
    const level = median(usual);
    if (level === null || usual.length < MIN_BASELINE_RUNS) continue;
    const band = similarityBand(usual);
    const sequence = [now.bestSimilarity, ...judged.slice(0, FLAKY_WINDOW).map(similarityIn)];
    let state = null as 'below' | 'back' | null;
    let flips = 0;
    for (const value of sequence) {
      const next = value < level - band ? 'below' : value >= level - band / 2 ? 'back' : state;
      if (state !== null && next !== state) flips += 1;
      state = next;
    }
    if (flips >= FLAKY_FLIPS) flaky.set(id, { level, band });
  }
  return flaky;
}

/**
 * Queries new to the suite (or edited) within the history read: absent, or with another hash, in at least one
 * healthy run of it. Four weeks after it was added, a query is part of the suite's usual state.
 */
export function addedQueries(current: RunDigest, history: readonly RunDigest[]): Set<string> {
  const healthy = history.filter((r) => r.status !== 'ERROR');
  return new Set(
    Object.entries(current.queries)
      .filter(([id, now]) => healthy.some((r) => !sameQuery(now, r.queries[id])))
      .map(([id]) => id),
  );
}

/** The ids every digest has, with the same hash, minus those set aside. */
export function sharedQueries(
  current: RunDigest,
  runs: readonly RunDigest[],
  setAside: ReadonlySet<string>,
): Set<string> {
  return new Set(
    Object.entries(current.queries)
      .filter(([id, now]) => !setAside.has(id) && runs.every((r) => sameQuery(now, r.queries[id])))
      .map(([id]) => id),
  );
}

/**
 * The digests restricted to `ids`, with their run-level figures recomputed from the per-query ones, all by the
 * same rule, when any digest holds other queries; as they are when every one holds exactly `ids`.
 */
export function onQueries<T extends RunDigest>(digests: readonly T[], ids: ReadonlySet<string>): T[] {
  const same = (d: RunDigest) => {
    const own = Object.keys(d.queries);
    return own.length === ids.size && own.every((id) => ids.has(id));
  };
  if (digests.every(same)) return [...digests];
  return digests.map((d) => {
    const queries = Object.fromEntries(Object.entries(d.queries).filter(([id]) => ids.has(id)));
    const list = Object.values(queries);
    const metrics: RunDigest['metrics'] = {};
    for (const name of ['p50_latency_ms', 'p95_latency_ms', 'p99_latency_ms'] as const)
      if (d.metrics[name] !== undefined) metrics[name] = d.metrics[name];
    if (list.length > 0) metrics.pass_rate = (list.filter((q) => q.status === 'PASS').length / list.length) * 100;
    const judged = list.flatMap((q) => (q.ir ? [q.ir] : []));
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    if (judged.length > 0) {
      metrics.mrr = mean(judged.map((m) => m.rr));
      metrics.ndcg_at_k = mean(judged.map((m) => m.ndcg));
      metrics.hit_rate = mean(judged.map((m) => (m.hit ? 1 : 0)));
    }
    const sims = list.flatMap((q) => (q.bestSimilarity === null ? [] : [q.bestSimilarity]));
    if (sims.length > 0) metrics.avg_similarity = mean(sims);
    return { ...d, queries, metrics };
  });
}

/** Each query's median best similarity over `runs` (the reference a drift is measured from). */
export function medianBestSimilarities(runs: readonly RunDigest[]): Record<string, number> {
  const ids = new Set(runs.flatMap((r) => Object.keys(r.queries)));
  const out: Record<string, number> = {};
  for (const id of ids) {
    const m = median(
      runs.flatMap((r) => {
        const s = r.queries[id]?.bestSimilarity;
        return s === null || s === undefined || r.queries[id]?.status === 'ERROR' ? [] : [s];
      }),
    );
    if (m !== null) out[id] = m;
  }
  return out;
}
