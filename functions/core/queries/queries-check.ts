/**
 * The golden queries: each searched and judged; the pass rate (stale queries set aside: their suite is wrong, not
 * the index), MRR and p95 latency against the suite's success criteria.
 */
import { type CriterionDeclaration, defineCheck, verdict } from '../checks/check.ts';
import { staleQueries } from '../sitemap/inputs.ts';
import { buildValidationMetrics, categoryErrors } from './aggregate-metrics.ts';
import { searchedQueries } from './inputs.ts';

/** Seed 001: pass rate >= 90 by default. */
const PASS_RATE: CriterionDeclaration = {
  name: 'pass_rate',
  description: 'Share of golden queries that pass (%)',
  threshold: 'min_pass_rate',
  comparator: '>=',
  decimals: 2,
  unit: '%',
  severity: (v, threshold) => (v === null || v < threshold / 2 ? 'CRITICAL' : 'HIGH'),
  judgedWhenSkipped: true,
};

/** Optional: only with `min_mrr` in the suite. */
const MRR: CriterionDeclaration = {
  name: 'mrr',
  description: 'Mean reciprocal rank over judged queries',
  threshold: 'min_mrr',
  comparator: '>=',
  decimals: 4,
  unit: '',
  severity: () => 'MEDIUM',
  judgedWhenSkipped: true,
};

/** Optional: only with `max_p95_latency_ms` in the suite. */
const P95_LATENCY: CriterionDeclaration = {
  name: 'p95_latency_ms',
  description: '95th percentile of each query’s share of its batched embed and search calls (ms)',
  threshold: 'max_p95_latency_ms',
  comparator: '<=',
  decimals: 2,
  unit: ' ms',
  severity: () => 'MEDIUM',
  judgedWhenSkipped: true,
};

export const queriesCheck = defineCheck({
  name: 'queries',
  description: 'Enough golden queries pass: each finds its expected pages, module and chapter, relevantly and in time',
  needs: { searched: searchedQueries, stale: staleQueries },
  errorTypes: [
    'LOW_RELEVANCE',
    'METADATA_MISMATCH',
    'MISSING_EXPECTED_SOURCE',
    'LOW_PRECISION',
    'LATENCY_EXCEEDED',
    'NO_RESULTS',
    'UNEXPECTED_MATCH',
    'TIMEOUT',
    'RATE_LIMITED',
    'RETRIEVAL_FAILED',
    'EMBEDDING_FAILED',
    'DIMENSION_MISMATCH',
    'CATEGORY_EXPECTATION_MISSED',
    'UNSUPPORTED_DISTANCE',
    'INDEX_ANOMALY',
  ],
  criteria: [PASS_RATE, MRR, P95_LATENCY],
  metrics: [
    'PassRate',
    'QueriesTotal',
    'QueriesFailed',
    'QueryErrors',
    'AvgSimilarity',
    'PrecisionAtK',
    'RecallAtK',
    'MRR',
    'NdcgAtK',
    'HitRate',
    'QueryLatency',
    'EmbeddingLatency',
    'SearchLatency',
  ],
  section: 'query_results',
  judge({ searched, stale }, ctx) {
    const errors = [...searched.errors];
    if (searched.dimensionMismatch) {
      errors.push(
        ctx.error(
          'DIMENSION_MISMATCH',
          'CRITICAL',
          `embedding dimension ${searched.dimensionMismatch.embedding} does not match the collection's vector size ${searched.dimensionMismatch.collection}`,
          { ...searched.dimensionMismatch, embedding_model: ctx.embeddingModel },
        ),
      );
    }
    if (searched.unsupportedDistance) {
      errors.push(
        ctx.error('UNSUPPORTED_DISTANCE', 'CRITICAL', searched.stageFailure ?? '', searched.unsupportedDistance),
      );
    }
    const anomalies = searched.scoreAnomalies;
    if (anomalies.length > 0) {
      errors.push(
        ctx.error(
          'INDEX_ANOMALY',
          'CRITICAL',
          `the index answered scores no similarity can have for ${anomalies.length} quer${anomalies.length === 1 ? 'y' : 'ies'}; ` +
            `its ranking cannot be trusted (first: ${anomalies[0]?.queryId}: ${anomalies[0]?.scores.join(', ')})`,
          {
            query_count: anomalies.length,
            queries: anomalies.slice(0, 20).map((a) => a.queryId),
            first_scores: anomalies[0]?.scores ?? [],
          },
        ),
      );
    }
    const { results } = searched;
    const metrics = buildValidationMetrics({
      runId: ctx.runId,
      timestamp: ctx.startedAt,
      results,
      queryStageMs: searched.durationMs,
      categories: ctx.options.suite.categories,
    });
    errors.push(...categoryErrors(metrics, ctx.runId, ctx.newId));
    // A query whose expectations left the sitemap is the suite's failure, not the index's: set aside, said so.
    const setAside = results.filter((r) => stale.stale.has(r.id) && r.status === 'FAIL').length;
    const counted = results.length - setAside;
    const passed = results.filter((r) => r.status === 'PASS').length;
    return verdict({
      sections: { query_results: results, validation_metrics: metrics },
      errors,
      criteria: [
        ctx.criterion(
          PASS_RATE,
          // Not evaluated when the stage failed as a whole (an outage, an index not to be trusted): a 0 % would read
          // as a measurement of the index, and the run is ERROR.
          counted === 0 || searched.stageFailure !== null ? null : (passed / counted) * 100,
          setAside === 0
            ? undefined
            : `${PASS_RATE.description}; ${setAside} stale quer${setAside === 1 ? 'y' : 'ies'} set aside (regression.stale_queries)`,
        ),
        ctx.criterion(MRR, metrics.mrr),
        ctx.criterion(P95_LATENCY, metrics.p95_latency_ms),
      ],
      execution: { embed_calls: searched.embedCalls, search_calls: searched.searchCalls },
    });
  },
});
