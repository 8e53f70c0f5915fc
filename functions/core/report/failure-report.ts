/**
 * The report of a run that could not even start or finish inside the engine (secrets unreadable, suite invalid,
 * the engine threw): status ERROR with the reason, so such a night still leaves a report, a RunSucceeded = 0
 * datum and a CRITICAL alert. Pure.
 */
import { redactUrlsIn } from '../shared/redact-url.ts';
import { REPORT_SCHEMA_VERSION, type ValidationReport } from './report.ts';

export interface RunFailure {
  runId: string;
  errorId: string;
  startedAt: Date;
  finishedAt: Date;
  collection: string;
  environment: string;
  suite: { name: string; source: string; query_count: number };
  embeddingModel: string;
  /** One line, already free of secrets (describeError of a translated error). */
  reason: string;
  /** Where it broke: 'secrets', 'suite' or 'engine'. */
  stage: string;
}

/** Builds the ERROR report for a run that failed outside the engine's own error handling. */
export function buildRunFailureReport(failure: RunFailure): ValidationReport {
  const started = failure.startedAt.toISOString();
  const finished = failure.finishedAt.toISOString();
  const reason = `the run could not complete: ${failure.stage}: ${redactUrlsIn(failure.reason)}`;
  return {
    schema_version: REPORT_SCHEMA_VERSION,
    run_id: failure.runId,
    status: 'ERROR',
    status_reason: reason,
    collection: failure.collection,
    environment: failure.environment,
    suite: failure.suite,
    timestamp: started,
    finished_at: finished,
    duration_seconds: Math.max(0, (failure.finishedAt.getTime() - failure.startedAt.getTime()) / 1000),
    lifecycle: [
      { state: 'CREATED', at: started },
      { state: 'FAILED', at: finished },
    ],
    total_queries: 0,
    passed_queries: 0,
    failed_queries: 0,
    error_queries: 0,
    pass_rate: 0,
    query_results: [],
    coverage_report: null,
    quality_metrics: null,
    grounding_report: null,
    validation_metrics: {
      validation_run_id: failure.runId,
      timestamp: started,
      query_types_tested: [],
      total_queries_tested: 0,
      queries_passed: 0,
      success_rate: 0,
      judged_queries: 0,
      overall_precision: null,
      overall_recall: null,
      mrr: null,
      ndcg_at_k: null,
      hit_rate: null,
      avg_similarity: null,
      avg_latency_ms: null,
      p50_latency_ms: null,
      p95_latency_ms: null,
      p99_latency_ms: null,
      throughput_qps: null,
      by_category: {},
    },
    success_criteria: [],
    errors: [
      {
        id: failure.errorId,
        validation_id: failure.runId,
        error_type: 'RUN_FAILED',
        message: reason,
        severity: 'CRITICAL',
        details: { stage: failure.stage },
      },
    ],
    execution: {
      embed_calls: 0,
      search_calls: 0,
      embedding_model: failure.embeddingModel,
      vector_size: null,
      stages: { [failure.stage]: { status: 'failed', duration_ms: 0 } },
    },
  };
}
