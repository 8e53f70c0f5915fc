/**
 * ANN health: the suite's searches, as the query step sent them (vector, filter, k), are sent once more with exact
 * search, and the approximate hits' recall@k against the exact ones measured per query and on average. An HNSW index
 * whose recall fell (a bad `ef`, a broken segment, too aggressive quantization) loses relevant chunks silently.
 * Cost: one query-batch call per 100 queries.
 */
import type { Check } from '../checks/check.ts';
import { outcome } from '../checks/run-context.ts';
import { judgeCriterion } from '../criteria/criteria.ts';
import { searchedQueries } from '../queries/inputs.ts';
import { SEARCH_BATCH_SIZE } from '../queries/query-stage.ts';
import { describeError } from '../shared/errors.ts';
import { roundTo } from '../shared/statistics.ts';

export const annHealthCheck: Check = {
  name: 'ann',
  async run(ctx) {
    const threshold = ctx.criteria.min_ann_recall;
    // A query step that failed is reported by the queries check.
    const searched = await outcome(searchedQueries(ctx));
    if (!searched.ok) return { errors: [] };
    const compared = await outcome(
      (async () => {
        const searches = searched.value.searches;
        const exact = await ctx.step('exact search', async () => {
          const all = [];
          for (let start = 0; start < searches.length; start += SEARCH_BATCH_SIZE) {
            const batch = searches.slice(start, start + SEARCH_BATCH_SIZE);
            all.push(
              ...(await ctx.deps.index.searchBatch(
                batch.map((s) => ({ ...s.request, payloadFields: [], exact: true })),
              )),
            );
          }
          return all;
        });
        return searches.flatMap((s, i) => {
          const truth = exact[i] ?? [];
          if (truth.length === 0) return [];
          const found = new Set(s.hits.map((h) => h.id));
          const recall = truth.filter((h) => found.has(h.id)).length / truth.length;
          return [{ query_id: s.queryId, k: truth.length, recall: roundTo(recall, 4) }];
        });
      })(),
    );
    if (!compared.ok) return { errors: [], failures: [`ann health: ${describeError(compared.error)}`] };
    const perQuery = compared.value;
    const recall =
      perQuery.length === 0 ? null : roundTo(perQuery.reduce((sum, q) => sum + q.recall, 0) / perQuery.length, 4);
    const block = { queries_compared: perQuery.length, recall, threshold, per_query: perQuery };
    const low = perQuery.filter((q) => q.recall < threshold);
    return {
      sections: { index_health: { ann: block } },
      // Below the threshold overall is HIGH; single queries below it while the mean holds are worth a MEDIUM look.
      errors:
        recall === null || low.length === 0
          ? []
          : [
              ctx.error(
                'ANN_RECALL_LOW',
                recall < threshold ? 'HIGH' : 'MEDIUM',
                `approximate search recall@k is ${recall} overall against exact search (threshold ${threshold}); ${low.length} of ${perQuery.length} queries below it, e.g. ${low[0]?.query_id} at ${low[0]?.recall}`,
                { recall, threshold, queries: low.slice(0, 10) },
              ),
            ],
      verdicts:
        recall === null
          ? []
          : [
              judgeCriterion({
                name: 'ann_recall',
                description: 'Mean recall@k of approximate search against exact search',
                decimals: 4,
                value: recall,
                threshold,
                comparator: '>=',
                severity: () => 'HIGH',
              }),
            ],
    };
  },
};
