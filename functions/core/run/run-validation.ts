/**
 * The use case: one full validation run, the same in the Lambda, the CLI and the local demo.
 *
 * What happens, in order:
 * 1. CREATED: the suite's queries are resolved (defaults and configuration overrides applied).
 * 2. EXECUTING: every check in CHECKS (./checks.ts) asks for its inputs together. Each input is resolved once, its
 *    I/O in named steps (checks/steps.ts), so a run costs only its longest chain of dependent round trips (embed,
 *    then search). An input that fails is reported once, as the step that failed, and the checks that need it are
 *    skipped; the others go on. When the run's signal aborts, whatever is pending is cut.
 * 3. COMPLETED (or FAILED when some input could not be had at all).
 * 4. ANALYZED: each check's verdict (its findings and its own success criteria), the run's status and its reason.
 * The function never throws for a service failure: whatever broke, a report with a status comes back.
 */

import type { ReportSections } from '../checks/check.ts';
import { outcome } from '../checks/input.ts';
import { runChecks } from '../checks/run-checks.ts';
import { createRunContext } from '../checks/run-context.ts';
import type { EngineDeps, RunOptions } from '../checks/run-options.ts';
import { criteriaErrors, decideRunStatus } from '../criteria/criteria.ts';
import { buildValidationMetrics } from '../queries/aggregate-metrics.ts';
import { collectionDescription } from '../queries/inputs.ts';
import { emptyIndexHealth } from '../report/index-health-report.ts';
import { type LifecycleEvent, REPORT_SCHEMA_VERSION, type ValidationReport } from '../report/report.ts';
import { redactUrlsDeep } from '../shared/redact-url.ts';
import { roundTo } from '../shared/statistics.ts';
import { resolveQueries, SuccessCriteria, setAsideQueries } from '../suite/suite.ts';
import { CHECKS, CRITERION_UNITS } from './checks.ts';

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
  const setAside = setAsideQueries(options.suite);
  const criteria = mergeCriteria(options.suite.success_criteria, options.criteria);
  const run = createRunContext({ deps, options, runId, startedAt, queries, criteria });

  lifecycle.push({ state: 'EXECUTING', at: clock.now().toISOString() });
  const described = outcome(run.ctx.input(collectionDescription)); // first: most inputs wait for it
  const checked = await runChecks(CHECKS, run);
  const { failures } = checked;
  lifecycle.push({ state: failures.length > 0 ? 'FAILED' : 'COMPLETED', at: clock.now().toISOString() });

  const verdicts = checked.verdicts.flatMap((v) => (v.verdict ? [v.verdict] : []));
  const sections: ReportSections = Object.assign({}, ...verdicts.map((v) => v.sections));
  const healthParts = verdicts.flatMap((v) => (v.sections.index_health ? [v.sections.index_health] : []));
  const successCriteria = checked.criteria;
  const errors = [...checked.errors, ...criteriaErrors(successCriteria, runId, newId, CRITERION_UNITS)];
  const finishedAt = clock.now();
  lifecycle.push({ state: 'ANALYZED', at: finishedAt.toISOString() });
  const { status, statusReason } = decideRunStatus(failures, successCriteria, errors);

  const queryResults = sections.query_results ?? [];
  const passed = queryResults.filter((r) => r.status === 'PASS').length;
  const failed = queryResults.filter((r) => r.status === 'FAIL').length;
  const describedInfo = await described;
  // Every output is rendered from the report: a credential in any URL it names (the sitemap's, a page's, one quoted
  // in a message) is redacted here, once, before any of them is written.
  return redactUrlsDeep<ValidationReport>({
    schema_version: REPORT_SCHEMA_VERSION,
    run_id: runId,
    status,
    status_reason: statusReason,
    collection: options.collection,
    environment: options.environment,
    suite: {
      name: options.suite.name,
      source: options.suiteSource,
      query_count: queries.length,
      ...(setAside.length > 0 ? { set_aside: setAside } : {}),
    },
    timestamp: startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    duration_seconds: roundTo((clock.monotonicMs() - start) / 1000, 2),
    lifecycle,
    total_queries: queryResults.length,
    passed_queries: passed,
    failed_queries: failed,
    error_queries: queryResults.length - passed - failed,
    pass_rate: queryResults.length === 0 ? 0 : roundTo((passed / queryResults.length) * 100, 2),
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
      embed_calls: sum(verdicts, 'embed_calls'),
      search_calls: sum(verdicts, 'search_calls'),
      embedding_model: deps.embedder.model,
      vector_size: describedInfo.ok ? describedInfo.value.vectorSize : null,
      stages: run.stages(),
    },
    ...(sections.regression ? { regression: sections.regression } : {}),
  });
}

function sum(
  verdicts: { execution?: { embed_calls: number; search_calls: number } }[],
  key: 'embed_calls' | 'search_calls',
): number {
  return verdicts.reduce((total, v) => total + (v.execution?.[key] ?? 0), 0);
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
