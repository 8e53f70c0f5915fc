/**
 * What a run can fairly be compared on. A run and its baseline share most queries, but not always the same ones:
 * - a query added, or edited (its expectation changed: another hash), has no past to compare with: a new query
 *   that fails is suite news (NEW_QUERY_FAILING), never a fall of the run's figures;
 * - a flaky query (its verdict flipped back and forth within its last 7 runs) moves the run's figures every night
 *   it flips: it is reported as FLAKY, and left out of the run-level figures and the score tests;
 * - a stale query (SUITE_STALE) is golden-set rot, left out the same way.
 * Run-level figures (pass rate, MRR, nDCG, hit rate, mean best similarity) are then recomputed, for the run and
 * for each baseline run alike, over the queries they share with an unchanged hash.
 */
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
