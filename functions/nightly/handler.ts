/**
 * The nightly Lambda: the composition root. EventBridge Scheduler invokes it once a night.
 *
 * What happens, in order:
 * 1. (cold start) The configuration is parsed once and the SDK clients are built once, at module scope.
 * 2. A run id is drawn and put on every log line.
 * 3. The API keys are read from Secrets Manager (cached), the suite is loaded, and the engine runs. If any of
 *    that throws, the run still gets a report: status ERROR with the reason.
 * 4. The sinks: S3 and CloudWatch in parallel (Promise.allSettled: one failing never stops the other); then the
 *    SNS alert, which waits for S3 only to say where the report is, or that it is not stored. A report S3 would
 *    not take goes to the log in full.
 * 5. The result names each sink and whether it succeeded. Only an invalid configuration makes the invocation
 *    fail: then nothing can be stored or sent, and the function's Errors alarm is how ops hear of it.
 */
import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SNSClient } from '@aws-sdk/client-sns';
import { CloudWatchMetrics, type PublishedMetrics } from '../adapters/cloudwatch-metrics.ts';
import { createEngineAdapters, runOptionsFromConfig } from '../adapters/engine-adapters.ts';
import { S3IncidentStore } from '../adapters/s3-incident-store.ts';
import { type PreviousRun, S3ReportStore, type StoredReport } from '../adapters/s3-report-store.ts';
import { S3RunHistory } from '../adapters/s3-run-history.ts';
import { SecretsReader } from '../adapters/secrets.ts';
import { SnsAlerter } from '../adapters/sns-alerter.ts';
import { systemClock } from '../adapters/system-clock.ts';
import type { EngineConfig } from '../core/config.ts';
import {
  type AlertContext,
  type AlertMessage,
  buildAlertMessage,
  type ReportPlacement,
} from '../core/delivery/alert-message.ts';
import { describeError } from '../core/errors.ts';
import type { Clock, IncidentStore, RunHistory } from '../core/ports.ts';
import { compareWithStoredHistory } from '../core/regression/post-run.ts';
import { buildReportAttachments, type ReportAttachment } from '../core/report/attachments.ts';
import { buildRunFailureReport } from '../core/report/failure-report.ts';
import { readTrendHistory } from '../core/report/read-trend.ts';
import type { ValidationReport } from '../core/report/report.ts';
import { runValidation } from '../core/run-validation.ts';
import { type NightlyConfig, parseNightlyConfig } from './config.ts';
import { alertIncidents } from './incident-alerts.ts';
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
  loadApiKeys: () => Promise<{ cohereApiKey: string; qdrantApiKey: string | undefined }>;
  loadSuite: () => Promise<LoadedSuite>;
  /** Runs the engine; `newId` hands out the handler's run id first so the report and the logs share it. */
  runEngine: (engine: EngineConfig, run: LoadedSuite & { newId: () => string }) => Promise<ValidationReport>;
  reportStore: {
    save(report: ValidationReport, attachments?: ReportAttachment[]): Promise<StoredReport>;
    readLatest(collection: string): Promise<PreviousRun | null>;
  };
  /** Earlier runs' reports, for the regression section's baseline. */
  history: RunHistory;
  /** The incident state beside the reports, written conditionally. */
  incidents: IncidentStore;
  metrics: { publish(report: ValidationReport): Promise<PublishedMetrics> };
  alerter: {
    send(
      alert: AlertMessage,
      labels: { collection: string; environment: string; kind?: string; track?: string },
    ): Promise<{ messageId: string }>;
  };
}

/** The part of Lambda's context object the handler and Powertools' Logger read. */
export interface LambdaContext {
  awsRequestId?: string;
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

export interface AwsClients {
  s3: S3Client;
  cloudWatch: CloudWatchClient;
  sns: SNSClient;
  secretsManager: SecretsManagerClient;
}

/** The production dependencies for a configuration and a set of SDK clients. */
export function createNightlyDeps(config: NightlyConfig, clients: AwsClients, logger: NightlyLogger): NightlyDeps {
  const secrets = new SecretsReader({ client: clients.secretsManager, maxAgeSeconds: config.secretsMaxAgeSeconds });
  const deps: NightlyDeps = {
    config,
    logger,
    clock: systemClock,
    newId: randomUUID,
    loadApiKeys: async () => {
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
        { ...createEngineAdapters(engine), clock: deps.clock, newId: run.newId },
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
    logger.info('validation started', { suite: config.suite.kind === 's3' ? config.suite.uri : config.suite.path });

    const compared = await compareWithStoredHistory(await produceReport(deps, runId), deps.history, deps.newId);
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

    // Read before this run overwrites latest.json: the alert's "since when". Its failure only costs that line.
    const previous = await deps.reportStore.readLatest(report.collection).catch((error: unknown) => {
      logger.warn('previous report not read', { reason: describeError(error) });
      return undefined;
    });
    // The HTML report (its trend from the run history) and the CSV of query rows go beside the JSON.
    const attachments = buildReportAttachments(report, { history: await readTrendHistory(deps.history, report) });
    const [stored, published] = await Promise.allSettled([
      deps.reportStore.save(report, attachments),
      deps.metrics.publish(report),
    ]);
    const placement = placementOf(stored, config);
    if (stored.status === 'rejected') {
      // Nothing is lost: the log keeps the whole report when S3 will not.
      logger.error('validation report (not stored)', { reason: describeError(stored.reason), report });
    } else if (!stored.value.latest.updated) {
      logger.warn('latest.json not updated', { key: stored.value.latest.key, reason: stored.value.latest.reason });
    }
    if (published.status === 'rejected')
      logger.error('metrics not published', { reason: describeError(published.reason) });

    // One alert per incident (core/incident); the run's own alert only when the incident state is unavailable.
    const alert = await alertIncidents(deps, report, { placement }, published, () =>
      sendAlert(deps, report, { placement, previous }, published),
    );
    const result: NightlyResult = {
      runId: report.run_id,
      status: report.status,
      statusReason: report.status_reason,
      sinks: {
        report:
          stored.status === 'fulfilled'
            ? {
                ok: true,
                value: {
                  location: stored.value.location,
                  latestUpdated: stored.value.latest.updated,
                  ...htmlOf(stored.value),
                },
              }
            : { ok: false, error: describeError(stored.reason) },
        metrics:
          published.status === 'fulfilled'
            ? { ok: true, value: published.value }
            : { ok: false, error: describeError(published.reason) },
        alert,
      },
    };
    logger.info('sinks done', { sinks: result.sinks });
    return result;
  };
}

async function produceReport(deps: NightlyDeps, runId: string): Promise<ValidationReport> {
  const { config, clock } = deps;
  const startedAt = clock.now();
  let stage = 'secrets';
  let suiteInfo = {
    name: 'unknown',
    source: config.suite.kind === 's3' ? config.suite.uri : config.suite.path,
    query_count: 0,
  };
  try {
    const keys = await deps.loadApiKeys();
    stage = 'suite';
    const loaded = await deps.loadSuite();
    suiteInfo = { name: loaded.suite.name, source: loaded.source, query_count: loaded.suite.queries.length };
    stage = 'engine';
    const engine: EngineConfig = {
      ...config.engine,
      secrets: { cohereApiKey: keys.cohereApiKey, qdrantApiKey: keys.qdrantApiKey },
    };
    return await deps.runEngine(engine, { ...loaded, newId: firstThen(runId, deps.newId) });
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

async function sendAlert(
  deps: NightlyDeps,
  report: ValidationReport,
  context: Pick<AlertContext, 'placement' | 'previous'>,
  published: PromiseSettledResult<PublishedMetrics>,
): Promise<NightlyResult['sinks']['alert']> {
  const failedSinks =
    published.status === 'rejected' ? [{ sink: 'CloudWatch metrics', reason: describeError(published.reason) }] : [];
  const alert = buildAlertMessage(report, { ...context, failedSinks });
  if (alert === null) return { ok: true, value: { sent: false } };
  try {
    const { messageId } = await deps.alerter.send(alert, {
      collection: report.collection,
      environment: report.environment,
    });
    deps.logger.info('alert sent', { severity: alert.severity, subject: alert.subject, message_id: messageId });
    return { ok: true, value: { sent: true, messageId, severity: alert.severity } };
  } catch (error) {
    deps.logger.error('alert not sent', {
      severity: alert.severity,
      subject: alert.subject,
      reason: describeError(error),
    });
    return { ok: false, error: describeError(error) };
  }
}

function placementOf(stored: PromiseSettledResult<StoredReport>, config: NightlyConfig): ReportPlacement {
  if (stored.status === 'fulfilled')
    return { stored: true, bucket: stored.value.bucket, key: stored.value.key, region: config.region };
  return {
    stored: false,
    reason: describeError(stored.reason),
    fallback: `the function's log (${config.logGroupName ?? 'its CloudWatch Logs group'}), message "validation report (not stored)"`,
  };
}

/** Where the HTML report went, when it was stored. */
function htmlOf(stored: StoredReport): { htmlLocation?: string } {
  const html = stored.attachments.find((a) => a.suffix === '.html' && a.stored);
  return html === undefined ? {} : { htmlLocation: `s3://${stored.bucket}/${html.key}` };
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
// The SDK's standard retry mode (3 attempts, backoff with jitter) is what "after retries" means for every sink.
const clients: AwsClients = {
  s3: new S3Client({ maxAttempts: 3 }),
  cloudWatch: new CloudWatchClient({ maxAttempts: 3 }),
  sns: new SNSClient({ maxAttempts: 3 }),
  secretsManager: new SecretsManagerClient({ maxAttempts: 3 }),
};

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
