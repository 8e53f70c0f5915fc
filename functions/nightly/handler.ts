/**
 * The nightly Lambda: the composition root. EventBridge Scheduler invokes it once a night.
 *
 * What happens, in order:
 * 1. (cold start) The configuration is parsed once and the SDK clients are built once, at module scope, each with
 *    connection and request timeouts (adapters/aws/clients.ts).
 * 2. A run id is drawn and put on every log line. The run's deadline is set: the invocation's remaining time minus
 *    the delivery reserve (budget.ts), or RUN_DEADLINE_SECONDS if tighter. One AbortSignal carries it to every
 *    request of every adapter.
 * 3. The previous run's headline is read (for the alert's "since when") while the API keys are read from Secrets
 *    Manager (cached), the suite is loaded, and the engine runs. Each AWS call has its own bound. If any of that
 *    throws, the run still gets a report: status ERROR with the reason.
 * 4. Delivery (deliver.ts): S3 and CloudWatch in parallel, then the SNS alert, each within its bound.
 * 5. The result names each sink and whether it succeeded. The invocation fails (throws) when the configuration is
 *    invalid, or when neither the report was stored nor an alert delivered: then the function's Errors alarm and
 *    the dead-letter queue are how ops hear of it.
 */
import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { type AwsClients, createAwsClients } from '../adapters/aws/clients.ts';
import { CloudWatchMetrics, type PublishedMetrics } from '../adapters/aws/cloudwatch-metrics.ts';
import { S3IncidentStore } from '../adapters/aws/s3-incident-store.ts';
import { type PreviousRun, S3ReportStore, type StoredReport } from '../adapters/aws/s3-report-store.ts';
import { S3RunHistory } from '../adapters/aws/s3-run-history.ts';
import { SecretsReader } from '../adapters/aws/secrets.ts';
import { SnsAlerter } from '../adapters/aws/sns-alerter.ts';
import { withinBound } from '../adapters/bounded.ts';
import { createEngineAdapters, runOptionsFromConfig } from '../adapters/engine-adapters.ts';
import { startRunDeadline } from '../adapters/run-deadline.ts';
import { systemClock } from '../adapters/system-clock.ts';
import type { RunSignal } from '../adapters/transport.ts';
import type { EngineConfig } from '../core/config.ts';
import type { AlertMessage } from '../core/delivery/alert-message.ts';
import type { Clock, IncidentStore, RunHistory } from '../core/ports.ts';
import { compareWithStoredHistory } from '../core/regression/post-run.ts';
import { buildReportAttachments, type ReportAttachment } from '../core/render/attachments.ts';
import { readTrendHistory } from '../core/render/read-trend.ts';
import { buildRunFailureReport } from '../core/report/failure-report.ts';
import type { ValidationReport } from '../core/report/report.ts';
import { runValidation } from '../core/run/run-validation.ts';
import { describeError } from '../core/shared/errors.ts';
import { engineBudgetMs } from './budget.ts';
import { type NightlyConfig, parseNightlyConfig } from './config.ts';
import { deliver, deliveredNothing, NothingDeliveredError, prefetchIncidentState } from './deliver.ts';
import { type LoadedSuite, loadSuite } from './suite-source.ts';

/** The log calls the handler makes; Powertools' Logger has them, and tests pass a recorder. */
export interface NightlyLogger {
  info(message: string, extra: Record<string, unknown>): void;
  warn(message: string, extra: Record<string, unknown>): void;
  error(message: string, extra: Record<string, unknown>): void;
  appendKeys(keys: Record<string, unknown>): void;
  /** Puts the invocation's context on every line (Powertools: function_request_id, cold_start, function_name...). */
  addContext?(context: LambdaContext): void;
  /** Drops the keys appended by the previous invocation of a warm function. */
  resetKeys?(): void;
}

/** What one run needs; createNightlyDeps builds the production set, tests swap single parts. */
export interface NightlyDeps {
  config: NightlyConfig;
  logger: NightlyLogger;
  clock: Clock;
  newId: () => string;
  /** Each receives the run's signal and must stop when it aborts; the handler also bounds each by sinkTimeoutMs. */
  loadApiKeys: (signal: AbortSignal) => Promise<{ cohereApiKey: string; qdrantApiKey: string | undefined }>;
  loadSuite: (signal: AbortSignal) => Promise<LoadedSuite>;
  /**
   * Runs the engine; `newId` hands out the handler's run id first so the report and the logs share it, `signal` is
   * the run's deadline, which every adapter request listens to.
   */
  runEngine: (
    engine: EngineConfig,
    run: LoadedSuite & { newId: () => string; deadline: RunSignal },
  ) => Promise<ValidationReport>;
  reportStore: {
    /**
     * The dated report and its attachments (what must not be lost), and the latest copies, each bounded on its own.
     * `save` does both in one call, for callers that need no bounds.
     */
    saveArchive(
      report: ValidationReport,
      options: { signal: AbortSignal; attachments?: ReportAttachment[] },
    ): Promise<Omit<StoredReport, 'latest'>>;
    saveLatest(
      report: ValidationReport,
      options: { signal: AbortSignal; attachments?: ReportAttachment[] },
    ): Promise<{ key: string }>;
    readLatest(collection: string, options: { signal: AbortSignal }): Promise<PreviousRun | null>;
  };
  /** Earlier runs' reports, for the regression section's baseline. */
  history: RunHistory;
  /** The incident state beside the reports, written conditionally. */
  incidents: IncidentStore;
  metrics: { publish(report: ValidationReport, options: { signal: AbortSignal }): Promise<PublishedMetrics> };
  alerter: {
    /** `options.signal` aborts the publish; the handler passes its bound. */
    send(
      alert: AlertMessage,
      labels: { collection: string; environment: string; kind?: string; track?: string },
      options?: { signal?: AbortSignal },
    ): Promise<{ messageId: string }>;
  };
}

/** The part of Lambda's context object the handler and Powertools' Logger read. */
export interface LambdaContext {
  awsRequestId?: string;
  /** Lambda's clock for this invocation: what is left before it is killed. */
  getRemainingTimeInMillis?: () => number;
  functionName?: string;
  functionVersion?: string;
  invokedFunctionArn?: string;
  memoryLimitInMB?: string;
}

export type SinkOutcome<T> = { ok: true; value: T } | { ok: false; error: string };

/** The invocation's result: the run and what became of each sink. */
export interface NightlyResult {
  runId: string;
  status: ValidationReport['status'];
  statusReason: string;
  sinks: {
    report: SinkOutcome<{ location: string; latestUpdated: boolean; htmlLocation?: string }>;
    metrics: SinkOutcome<PublishedMetrics>;
    alert: SinkOutcome<
      | { sent: false }
      | {
          sent: true;
          messageId: string;
          severity: AlertMessage['severity'];
          /** One per incident notice this run sent (onset, escalation, reminder, recovery). */
          emails?: { kind: string; track: string; severity: string; subject: string; messageId: string }[];
        }
    >;
  };
}

export type { AwsClients };

/** The production dependencies for a configuration and a set of SDK clients. */
export function createNightlyDeps(config: NightlyConfig, clients: AwsClients, logger: NightlyLogger): NightlyDeps {
  const secrets = new SecretsReader({ client: clients.secretsManager, maxAgeSeconds: config.secretsMaxAgeSeconds });
  const deps: NightlyDeps = {
    config,
    logger,
    clock: systemClock,
    newId: randomUUID,
    loadApiKeys: async () => {
      // Powertools takes no abort signal: the handler's bound races it, the client's timeouts end the request.
      const [cohereApiKey, qdrantApiKey] = await Promise.all([
        secrets.getApiKey(config.cohereSecretId),
        config.qdrantSecretId === undefined ? undefined : secrets.getApiKey(config.qdrantSecretId),
      ]);
      return { cohereApiKey, qdrantApiKey };
    },
    loadSuite: () => loadSuite(config.suite, clients.s3, process.env.LAMBDA_TASK_ROOT ?? process.cwd()),
    // The engine reads the handler's clock (deps.clock), so a replay on a fake clock dates every report by it.
    runEngine: (engine, run) =>
      runValidation(
        { ...createEngineAdapters(engine, { run: run.deadline }), clock: deps.clock, newId: run.newId },
        { ...runOptionsFromConfig(engine), suite: run.suite, suiteSource: run.source },
      ),
    reportStore: new S3ReportStore({ client: clients.s3, bucket: config.reportBucket }),
    history: new S3RunHistory({ client: clients.s3, bucket: config.reportBucket }),
    incidents: new S3IncidentStore({ client: clients.s3, bucket: config.reportBucket }),
    metrics: new CloudWatchMetrics({ client: clients.cloudWatch, namespace: config.metricNamespace }),
    alerter: new SnsAlerter({ client: clients.sns, topicArn: config.alertTopicArn }),
  };
  return deps;
}

/** Builds the Lambda handler around its dependencies. */
export function createHandler(deps: NightlyDeps): (event?: unknown, context?: LambdaContext) => Promise<NightlyResult> {
  return async (_event, context) => {
    const { config, logger } = deps;
    const runId = deps.newId();
    logger.resetKeys?.();
    if (context?.functionName !== undefined) logger.addContext?.(context);
    logger.appendKeys({
      run_id: runId,
      collection: config.engine.collection,
      environment: config.engine.environment,
      ...(context?.awsRequestId ? { aws_request_id: context.awsRequestId } : {}),
    });
    const deadline = startRunDeadline(
      engineBudgetMs({
        runDeadlineSeconds: config.engine.runDeadlineSeconds,
        sinkTimeoutMs: config.sinkTimeoutMs,
        remainingMs: context?.getRemainingTimeInMillis?.(),
      }),
    );
    logger.info('validation started', {
      suite: config.suite.kind === 's3' ? config.suite.uri : config.suite.path,
      deadline_seconds: deadline.budgetMs / 1000,
    });

    // Read before this run overwrites latest.json, alongside the run: the alert's "since when". Its failure only
    // costs that line.
    const previousRead = withinBound({ what: 'S3 previous run', ms: config.sinkTimeoutMs }, (signal) =>
      deps.reportStore.readLatest(config.engine.collection, { signal }),
    ).catch((error: unknown) => {
      logger.warn('previous report not read', { reason: describeError(error) });
      return undefined;
    });
    const incidents = prefetchIncidentState(deps);
    const produced = await produceReport(deps, runId, deadline).finally(() => deadline.cancel());
    // History is best effort, and within a sink's bound: a hung S3 costs the regression section, not the run.
    const history: RunHistory = {
      recentRuns: (query) =>
        withinBound({ what: 'S3 history', ms: config.sinkTimeoutMs }, () => deps.history.recentRuns(query)),
    };
    // The regression section and the HTML report's trend read the same history, at the same time.
    const trend = readTrendHistory(history, produced);
    const compared = await compareWithStoredHistory(produced, history, deps.newId);
    if (compared.historyError !== null) logger.warn('history not read', { reason: compared.historyError });
    const report = compared.report;
    if (report.run_id !== runId) logger.appendKeys({ run_id: report.run_id });
    logger.info('validation finished', {
      status: report.status,
      status_reason: report.status_reason,
      pass_rate: report.pass_rate,
      coverage_percentage: report.coverage_report?.coverage_percentage ?? null,
      duration_seconds: report.duration_seconds,
    });

    // The HTML report (its trend from the run history) and the CSV of query rows go beside the JSON.
    const attachments = buildReportAttachments(report, { history: await trend });
    const sinks = await deliver({ ...deps, incidents }, report, { previous: await previousRead, attachments });
    const result: NightlyResult = {
      runId: report.run_id,
      status: report.status,
      statusReason: report.status_reason,
      sinks,
    };
    logger.info('sinks done', { sinks });
    if (deliveredNothing(sinks)) {
      const error = new NothingDeliveredError(report.run_id, sinks);
      logger.error('nothing delivered', { reason: error.message });
      throw error;
    }
    return result;
  };
}

async function produceReport(deps: NightlyDeps, runId: string, deadline: RunSignal): Promise<ValidationReport> {
  const { signal } = deadline;
  const { config, clock } = deps;
  const startedAt = clock.now();
  let stage = 'secrets';
  let suiteInfo = {
    name: 'unknown',
    source: config.suite.kind === 's3' ? config.suite.uri : config.suite.path,
    query_count: 0,
  };
  try {
    const bound = (what: string) => ({ what, ms: config.sinkTimeoutMs, parent: signal });
    const keys = await withinBound(bound('Secrets Manager'), (s) => deps.loadApiKeys(s));
    stage = 'suite';
    const loaded = await withinBound(bound('suite'), (s) => deps.loadSuite(s));
    suiteInfo = { name: loaded.suite.name, source: loaded.source, query_count: loaded.suite.queries.length };
    stage = 'engine';
    const engine: EngineConfig = {
      ...config.engine,
      secrets: { cohereApiKey: keys.cohereApiKey, qdrantApiKey: keys.qdrantApiKey },
    };
    return await deps.runEngine(engine, { ...loaded, newId: firstThen(runId, deps.newId), deadline });
  } catch (error) {
    deps.logger.error('validation could not run', { stage, reason: describeError(error) });
    return buildRunFailureReport({
      runId,
      errorId: deps.newId(),
      startedAt,
      finishedAt: clock.now(),
      collection: config.engine.collection,
      environment: config.engine.environment,
      suite: suiteInfo,
      embeddingModel: config.engine.embeddingModel,
      reason: describeError(error),
      stage,
    });
  }
}

/** Hands out `first` once, then fresh ids: the engine's first id is the run id. */
function firstThen(first: string, next: () => string): () => string {
  let used = false;
  return () => {
    if (used) return next();
    used = true;
    return first;
  };
}

// ---- module scope: built once per cold start -------------------------------------------------------------------

const logger = new Logger({ serviceName: 'ragwatch-nightly' });
const clients: AwsClients = createAwsClients();

function buildDefaultHandler(): (event?: unknown, context?: LambdaContext) => Promise<NightlyResult> {
  try {
    return createHandler(createNightlyDeps(parseNightlyConfig(process.env), clients, logger));
  } catch (error) {
    const problems = (error as { problems?: string[] }).problems ?? [describeError(error)];
    return async () => {
      logger.error('invalid configuration', { problems });
      throw error;
    };
  }
}

/** The Lambda entry point. */
export const handler = buildDefaultHandler();
