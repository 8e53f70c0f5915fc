/**
 * ANN health: the suite's searches, as the query step sent them (vector, filter, k), sent once more with exact
 * search (the exact-search input, on tonight's sample of at most ANN_RECALL_SAMPLE searches, a different slice each
 * night), and the approximate hits' recall@k against the exact ones measured per query and on average. An HNSW index whose recall fell (a bad `ef`, a broken segment, too aggressive quantization) loses
 * relevant chunks silently.
 */
import { type CriterionDeclaration, defineCheck, verdict } from '../checks/check.ts';
import { roundTo } from '../shared/statistics.ts';
import { exactSearches } from './inputs.ts';

const ANN_RECALL: CriterionDeclaration = {
  name: 'ann_recall',
  description: 'Mean recall@k of approximate search against exact search',
  threshold: 'min_ann_recall',
  comparator: '>=',
  decimals: 4,
  unit: '',
  severity: () => 'HIGH',
};

export const annHealthCheck = defineCheck({
  name: 'ann',
  description: 'Approximate search finds what exact search finds',
  needs: { compared: exactSearches },
  errorTypes: ['ANN_RECALL_LOW'],
  criteria: [ANN_RECALL],
  metrics: ['AnnRecall'],
  section: 'index_health.ann',
  judge({ compared: { searched, sampleSize, compared } }, ctx) {
    const threshold = ctx.criteria.min_ann_recall;
    const perQuery = compared.flatMap((s) => {
      if (s.exact.length === 0) return [];
      const found = new Set(s.approximate.map((h) => h.id));
      const recall = s.exact.filter((h) => found.has(h.id)).length / s.exact.length;
      return [{ query_id: s.queryId, k: s.exact.length, recall: roundTo(recall, 4) }];
    });
    const recall =
      perQuery.length === 0 ? null : roundTo(perQuery.reduce((sum, q) => sum + q.recall, 0) / perQuery.length, 4);
    const block = {
      queries_compared: perQuery.length,
      queries_searched: searched,
      sample_size: sampleSize,
      recall,
      threshold,
      per_query: perQuery,
    };
    const low = perQuery.filter((q) => q.recall < threshold);
    return verdict({
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
      criteria: recall === null ? [] : [ctx.criterion(ANN_RECALL, recall)],
      applicable: recall !== null,
    });
  },
});
