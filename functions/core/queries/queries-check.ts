/** The golden queries: each searched and judged; the pass rate, MRR and latency figures for the criteria. */
import type { Check } from '../checks/check.ts';
import { outcome } from '../checks/run-context.ts';
import { describeError } from '../shared/errors.ts';
import { roundTo } from '../shared/statistics.ts';
import { buildValidationMetrics, categoryErrors } from './aggregate-metrics.ts';
import { searchedQueries } from './inputs.ts';

export const queriesCheck: Check = {
  name: 'queries',
  async run(ctx) {
    const searched = await outcome(searchedQueries(ctx));
    const qs = searched.ok ? searched.value : null;
    const errors = [...(qs?.errors ?? [])];
    const failures: string[] = [];
    if (!searched.ok) failures.push(`queries: ${describeError(searched.error)}`);
    if (qs?.dimensionMismatch) {
      errors.push(
        ctx.error(
          'DIMENSION_MISMATCH',
          'CRITICAL',
          `embedding dimension ${qs.dimensionMismatch.embedding} does not match the collection's vector size ${qs.dimensionMismatch.collection}`,
          { ...qs.dimensionMismatch, embedding_model: ctx.deps.embedder.model },
        ),
      );
    }
    if (qs?.stageFailure) failures.push(`queries: ${qs.stageFailure}`);

    const results = qs?.results ?? [];
    const metrics = buildValidationMetrics({
      runId: ctx.runId,
      timestamp: ctx.startedAt.toISOString(),
      results,
      queryStageMs: qs?.durationMs ?? 0,
      categories: ctx.options.suite.categories,
    });
    errors.push(...categoryErrors(metrics, ctx.runId, ctx.deps.newId));
    const passed = results.filter((r) => r.status === 'PASS').length;
    return {
      sections: { query_results: results, validation_metrics: metrics },
      errors,
      failures,
      criteria: {
        passRate: results.length === 0 ? null : roundTo((passed / results.length) * 100, 2),
        mrr: metrics.mrr,
        p95LatencyMs: metrics.p95_latency_ms,
      },
      execution: { embed_calls: qs?.embedCalls ?? 0, search_calls: qs?.searchCalls ?? 0 },
    };
  },
};
