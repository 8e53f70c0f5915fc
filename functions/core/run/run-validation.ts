/**
 * The use case: one full validation run, the same in the Lambda, the CLI and the local demo.
 *
 * What happens, in order:
 * 1. CREATED: the suite's queries are resolved (defaults and configuration overrides applied).
 * 2. EXECUTING: every check in CHECKS (./checks.ts) starts together. Checks share their inputs through named steps
 *    run once each (each concern's inputs.ts: describe, queries, sitemap, profile, agent), so a run costs only its longest
 *    chain of dependent round trips (embed, then search). A step that fails becomes ValidationErrors and a null
 *    section in the checks that need it; the others go on. When the run's signal aborts, whatever is pending is cut.
 * 3. COMPLETED (or FAILED when some check could not run at all).
 * 4. ANALYZED: the checks' figures against the success criteria, the run's status and its reason.
 * The function never throws for a service failure: whatever broke, a report with a status comes back.
 */

import type { CheckResult, CriteriaFigures, ReportSections } from '../checks/check.ts';
import { createRunContext, outcome, runChecks } from '../checks/run-context.ts';
import type { EngineDeps, RunOptions } from '../checks/run-options.ts';
import { criteriaErrors, decideRunStatus, evaluateCriteria } from '../criteria/criteria.ts';
import { buildValidationMetrics } from '../queries/aggregate-metrics.ts';
import { describeCollection } from '../queries/inputs.ts';
import { emptyIndexHealth } from '../report/index-health-report.ts';
import type { LifecycleEvent, ValidationReport } from '../report/report.ts';
import { roundTo } from '../shared/statistics.ts';
import { resolveQueries, SuccessCriteria } from '../suite/suite.ts';
import { CHECKS } from './checks.ts';

export type { EngineDeps, RunOptions } from '../checks/run-options.ts';

/** Runs the full validation; never throws for a service failure: the report's status says what happened. */
export async function runValidation(deps: EngineDeps, options: RunOptions): Promise<ValidationReport> {
  const { clock, newId } = deps;
  const runId = newId();
  const startedAt = clock.now();
  const start = clock.monotonicMs();
  const lifecycle: LifecycleEvent[] = [{ state: 'CREATED', at: startedAt.toISOString() }];
  const queries = resolveQueries(
    options.suite,
    dropUndefined({ top_k: options.topK, min_similarity: options.minSimilarity }),
  );
  const criteria = mergeCriteria(options.suite.success_criteria, options.criteria);
  const run = createRunContext({ deps, options, runId, startedAt, queries, criteria });

  lifecycle.push({ state: 'EXECUTING', at: clock.now().toISOString() });
  const described = outcome(describeCollection(run.ctx)); // first: most checks wait for it
  const results = await runChecks(CHECKS, run.ctx);
  await run.settleAll();
  const failures = results.flatMap((r) => r.failures ?? []);
  lifecycle.push({ state: failures.length > 0 ? 'FAILED' : 'COMPLETED', at: clock.now().toISOString() });

  const sections: ReportSections = Object.assign({}, ...results.map((r) => r.sections));
  const healthParts = results.flatMap((r) => (r.sections?.index_health ? [r.sections.index_health] : []));
  const figures: CriteriaFigures = Object.assign({}, ...results.map((r) => r.criteria));
  const errors = results.flatMap((r) => r.errors);
  const successCriteria = evaluateCriteria({
    passRate: null,
    coverage: null,
    completeness: null,
    ...figures,
    criteria,
  });
  successCriteria.push(...results.flatMap((r) => r.verdicts ?? []));
  errors.push(...criteriaErrors(successCriteria, runId, newId));
  const finishedAt = clock.now();
  lifecycle.push({ state: 'ANALYZED', at: finishedAt.toISOString() });
  const { status, statusReason } = decideRunStatus(failures, successCriteria);

  const queryResults = sections.query_results ?? [];
  const passed = queryResults.filter((r) => r.status === 'PASS').length;
  const failed = queryResults.filter((r) => r.status === 'FAIL').length;
  const describedInfo = await described;
  return {
    schema_version: '1',
    run_id: runId,
    status,
    status_reason: statusReason,
    collection: options.collection,
    environment: options.environment,
    suite: { name: options.suite.name, source: options.suiteSource, query_count: queries.length },
    timestamp: startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    duration_seconds: roundTo((clock.monotonicMs() - start) / 1000, 2),
    lifecycle,
    total_queries: queryResults.length,
    passed_queries: passed,
    failed_queries: failed,
    error_queries: queryResults.length - passed - failed,
    pass_rate: figures.passRate ?? 0,
    query_results: queryResults,
    coverage_report: sections.coverage_report ?? null,
    quality_metrics: sections.quality_metrics ?? null,
    grounding_report: sections.grounding_report ?? null,
    index_health: healthParts.length > 0 ? Object.assign(emptyIndexHealth(), ...healthParts) : null,
    validation_metrics:
      sections.validation_metrics ??
      buildValidationMetrics({ runId, timestamp: startedAt.toISOString(), results: [], queryStageMs: 0 }),
    success_criteria: successCriteria,
    errors,
    execution: {
      embed_calls: sum(results, 'embed_calls'),
      search_calls: sum(results, 'search_calls'),
      embedding_model: deps.embedder.model,
      vector_size: describedInfo.ok ? describedInfo.value.vectorSize : null,
      stages: run.stages(),
    },
  };
}

function sum(results: CheckResult[], key: 'embed_calls' | 'search_calls'): number {
  return results.reduce((total, r) => total + (r.execution?.[key] ?? 0), 0);
}

function mergeCriteria(suite: SuccessCriteria, overrides: RunOptions['criteria']): SuccessCriteria {
  return SuccessCriteria.parse({
    ...suite,
    ...dropUndefined({
      min_pass_rate: overrides?.minPassRate,
      min_coverage: overrides?.minCoverage,
      min_completeness: overrides?.minCompleteness,
    }),
  });
}

function dropUndefined<T extends Record<string, unknown>>(record: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
