/**
 * The use case: one full validation run, the same in the Lambda, the CLI and the local demo.
 *
 * What happens, in order:
 * 1. CREATED: the suite's queries are resolved (defaults and configuration overrides applied).
 * 2. EXECUTING: three independent stages start together, so a run costs only its longest chain of dependent
 *    round trips (embed, then search):
 *    - queries: embed in batches of 96 while the collection is described, then search in batches of 100, then judge;
 *    - coverage: fetch the sitemap while the collection's distinct source URLs are read (facet, else scroll);
 *    - quality: completeness by counts, token distribution by facet, else one streaming scroll.
 *    A stage that fails becomes ValidationErrors and a null section; the others go on.
 *    - grounded answers: for queries marked `agent: true` (up to a cap), the agent answers from retrieved chunks
 *      and each answer's grounding is checked (only when a chat model is wired).
 * 3. COMPLETED (or FAILED when a stage could not run at all).
 * 4. ANALYZED: aggregates, success criteria, the run's status and its reason.
 * The function never throws for a service failure: whatever broke, a report with a status comes back.
 */

import { computeCoverage, coverageErrors } from './coverage/coverage.ts';
import { sitemapIssueErrors, sitemapIssueNotes } from './coverage/sitemap-issues.ts';
import { criteriaErrors, decideRunStatus, evaluateCriteria } from './criteria/criteria.ts';
import { describeError, isServiceError } from './errors.ts';
import type { GroundingReport } from './grounding/grounding-report.ts';
import { createRetrievalTool } from './grounding/retrieval-tool.ts';
import { runAgentChecks } from './grounding/run-agent-checks.ts';
import type { ChatModel, Clock, Embedder, ProgressListener, SitemapSource, VectorIndex } from './ports.ts';
import { profileCollection } from './quality/profile-collection.ts';
import { buildQualityMetrics, qualityErrors } from './quality/quality.ts';
import { buildValidationMetrics } from './queries/aggregate-metrics.ts';
import { indexSearchedHits } from './queries/query-results.ts';
import { runQueryStage } from './queries/query-stage.ts';
import type {
  CoverageReport,
  Execution,
  LifecycleEvent,
  QualityMetrics,
  ValidationError,
  ValidationReport,
} from './report/report.ts';
import { resolveQueries, SuccessCriteria, type Suite } from './suite/suite.ts';

export interface EngineDeps {
  index: VectorIndex;
  embedder: Embedder;
  sitemap: SitemapSource;
  /** The agent's chat model; without it, grounded answers are not checked (grounding_report: null). */
  chat?: ChatModel;
  clock: Clock;
  /** A fresh UUID (crypto.randomUUID in production). */
  newId: () => string;
  progress?: ProgressListener;
}

export interface RunOptions {
  suite: Suite;
  /** Where the suite came from (a path or an S3 URI), for the report. */
  suiteSource: string;
  collection: string;
  environment: string;
  requiredFields: string[];
  coveragePathPrefix: string;
  /** Overrides of the suite's defaults and success criteria, from configuration. */
  topK?: number;
  minSimilarity?: number;
  criteria?: { minPassRate?: number; minCoverage?: number; minCompleteness?: number };
  searchConcurrency: number;
  /** At most this many agent queries per run, so the chat cost is bounded (default 10). */
  maxAgentQueries?: number;
  /** Scroll page size when the index cannot aggregate (default 1000). */
  scrollPageSize?: number;
}

type Stage<T> = { ok: true; value: T; ms: number } | { ok: false; error: unknown; ms: number };

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

  lifecycle.push({ state: 'EXECUTING', at: clock.now().toISOString() });
  const stage = <T>(name: string, fn: () => Promise<T>): Promise<Stage<T>> => timeStage(deps, name, fn);
  const described = stage('describe', () => deps.index.describe());
  const collectionInfo = described.then((s) => (s.ok ? s.value : Promise.reject(s.error)));
  collectionInfo.catch(() => undefined); // observed by every stage below; this only silences the unhandled rejection

  const chat = deps.chat;
  const agentWanted = chat !== undefined && queries.some((q) => q.agent);
  const queriesRun = stage('queries', () =>
    runQueryStage({
      queries,
      embedder: deps.embedder,
      index: deps.index,
      collection: collectionInfo,
      clock,
      newId,
      concurrency: options.searchConcurrency,
      ...(deps.progress ? { progress: deps.progress } : {}),
    }),
  );
  // The agent answers from the hits the query stage already fetched: its chain is then the query stage's two
  // round trips plus its chat calls, not a second embed and search per question.
  const agentRun =
    agentWanted && chat
      ? stage('agent', async () => {
          const searched = await queriesRun;
          const prefetched = searched.ok ? indexSearchedHits(searched.value.results) : undefined;
          return runAgentChecks({
            queries,
            tool: createRetrievalTool({ ...deps, ...(prefetched ? { prefetched } : {}) }),
            chat,
            clock,
            newId,
            maxAgentQueries: options.maxAgentQueries ?? 10,
          });
        })
      : null;
  const [queryStage, sitemapStage, profileStage, agentStage] = await Promise.all([
    queriesRun,
    stage('sitemap', () => deps.sitemap.list()),
    stage('profile', async () =>
      profileCollection({
        index: deps.index,
        info: await collectionInfo,
        requiredFields: options.requiredFields,
        pageSize: options.scrollPageSize ?? 1000,
      }),
    ),
    agentRun,
  ]);

  const errors: ValidationError[] = [];
  const runError = (
    error_type: ValidationError['error_type'],
    severity: ValidationError['severity'],
    message: string,
    details: Record<string, unknown> = {},
  ) => errors.push({ id: newId(), validation_id: runId, error_type, severity, message, details });
  const stageFailures: string[] = [];

  const qs = queryStage.ok ? queryStage.value : null;
  if (!queryStage.ok) stageFailures.push(`queries: ${describeError(queryStage.error)}`);
  if (qs) {
    errors.push(...qs.errors);
    if (qs.dimensionMismatch) {
      runError(
        'DIMENSION_MISMATCH',
        'CRITICAL',
        `embedding dimension ${qs.dimensionMismatch.embedding} does not match the collection's vector size ${qs.dimensionMismatch.collection}`,
        { ...qs.dimensionMismatch, embedding_model: deps.embedder.model },
      );
    }
    if (qs.stageFailure) stageFailures.push(`queries: ${qs.stageFailure}`);
  }

  const timestamp = clock.now().toISOString();
  const profile = profileStage.ok ? profileStage.value : null;
  if (!profileStage.ok) {
    stageFailures.push(`index profile: ${describeError(profileStage.error)}`);
    runError(
      failureType(profileStage.error, 'RETRIEVAL_FAILED'),
      'CRITICAL',
      `could not read the collection: ${describeError(profileStage.error)}`,
    );
  }
  let coverage: CoverageReport | null = null;
  if (!sitemapStage.ok) {
    stageFailures.push(`sitemap: ${describeError(sitemapStage.error)}`);
    runError(
      failureType(sitemapStage.error, 'SITEMAP_FAILED'),
      'HIGH',
      `could not read the sitemap ${deps.sitemap.location}: ${describeError(sitemapStage.error)}`,
      { sitemap_url: deps.sitemap.location },
    );
  } else {
    errors.push(...sitemapIssueErrors(sitemapStage.value.issues, runId, newId));
  }
  if (sitemapStage.ok && profile) {
    coverage = computeCoverage({
      sitemapUrls: sitemapStage.value.entries.map((e) => e.url),
      indexedUrls: [...profile.distinctUrls],
      pathPrefix: options.coveragePathPrefix,
      sitemapUrl: deps.sitemap.location,
      source: profile.sources.urls,
      timestamp,
    });
    coverage.notes.push(...sitemapIssueNotes(sitemapStage.value.issues));
    errors.push(...coverageErrors(coverage, runId, newId));
  }

  const results = qs?.results ?? [];
  const quality: QualityMetrics | null = profile
    ? buildQualityMetrics({ profile, requiredFields: options.requiredFields, results, timestamp })
    : null;
  if (quality) errors.push(...qualityErrors(quality, runId, newId));

  let grounding: GroundingReport | null = null;
  if (agentStage?.ok) {
    grounding = agentStage.value.report;
    errors.push(...agentStage.value.errors);
  } else if (agentStage) {
    stageFailures.push(`grounded answers: ${describeError(agentStage.error)}`);
    runError('GROUNDING_FAILED', 'HIGH', `grounded answers could not be checked: ${describeError(agentStage.error)}`);
  }
  // A grounding criterion applies only when this run asked that kind of question.
  const asked = queries.filter((q) => q.agent).slice(0, options.maxAgentQueries ?? 10);
  const groundedRate =
    agentStage && asked.some((q) => q.expect_answer) ? (grounding?.grounded_rate ?? null) : undefined;
  const abstentionRate =
    agentStage && asked.some((q) => !q.expect_answer) ? (grounding?.abstention_correct_rate ?? null) : undefined;

  lifecycle.push({ state: stageFailures.length > 0 ? 'FAILED' : 'COMPLETED', at: clock.now().toISOString() });

  const passed = results.filter((r) => r.status === 'PASS').length;
  const failed = results.filter((r) => r.status === 'FAIL').length;
  const passRate = results.length === 0 ? 0 : round2((passed / results.length) * 100);
  const metrics = buildValidationMetrics({
    runId,
    timestamp: startedAt.toISOString(),
    results,
    queryStageMs: qs?.durationMs ?? 0,
  });
  const successCriteria = evaluateCriteria({
    passRate: results.length === 0 ? null : passRate,
    coverage: coverage?.coverage_percentage ?? null,
    completeness: quality?.metadata_completeness_rate ?? null,
    mrr: metrics.mrr,
    p95LatencyMs: metrics.p95_latency_ms,
    ...(groundedRate === undefined ? {} : { groundedRate }),
    ...(abstentionRate === undefined ? {} : { abstentionCorrectRate: abstentionRate }),
    criteria,
  });
  errors.push(...criteriaErrors(successCriteria, runId, newId));
  const finishedAt = clock.now();
  lifecycle.push({ state: 'ANALYZED', at: finishedAt.toISOString() });

  const { status, statusReason } = decideRunStatus(stageFailures, successCriteria);

  const describeStage = await described;
  const execution: Execution = {
    embed_calls: qs?.embedCalls ?? 0,
    search_calls: qs?.searchCalls ?? 0,
    embedding_model: deps.embedder.model,
    vector_size: describeStage.ok ? describeStage.value.vectorSize : null,
    stages: Object.fromEntries(
      (
        [
          ['describe', describeStage],
          ['queries', queryStage],
          ['sitemap', sitemapStage],
          ['profile', profileStage],
          ...(agentStage ? [['agent', agentStage] as const] : []),
        ] as const
      ).map(([name, s]) => [name, { status: s.ok ? 'ok' : 'failed', duration_ms: round1(s.ms) }]),
    ),
  };

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
    duration_seconds: round2((clock.monotonicMs() - start) / 1000),
    lifecycle,
    total_queries: results.length,
    passed_queries: passed,
    failed_queries: failed,
    error_queries: results.length - passed - failed,
    pass_rate: passRate,
    query_results: results,
    coverage_report: coverage,
    quality_metrics: quality,
    grounding_report: grounding,
    validation_metrics: metrics,
    success_criteria: successCriteria,
    errors,
    execution,
  };
}

async function timeStage<T>(deps: EngineDeps, name: string, fn: () => Promise<T>): Promise<Stage<T>> {
  const t = deps.clock.monotonicMs();
  deps.progress?.({ kind: 'stage', stage: name, status: 'started' });
  try {
    const value = await fn();
    deps.progress?.({ kind: 'stage', stage: name, status: 'finished' });
    return { ok: true, value, ms: deps.clock.monotonicMs() - t };
  } catch (error) {
    deps.progress?.({ kind: 'stage', stage: name, status: 'failed' });
    return { ok: false, error, ms: deps.clock.monotonicMs() - t };
  }
}

function failureType(error: unknown, fallback: ValidationError['error_type']): ValidationError['error_type'] {
  return isServiceError(error) && error.kind === 'timeout' ? 'TIMEOUT' : fallback;
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

function round1(v: number): number {
  return Math.round(v * 10) / 10;
}
function round2(v: number): number {
  return Math.round(v * 100) / 100;
}
