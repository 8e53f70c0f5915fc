/**
 * What one nightly run needs from outside, and the production set of it: the S3, CloudWatch, SNS and Secrets
 * Manager adapters on the clients built once per cold start, the engine on its adapters. Tests swap single parts.
 */
import { randomUUID } from 'node:crypto';
import type { AwsClients } from '../adapters/aws/clients.ts';
import { CloudWatchMetrics } from '../adapters/aws/cloudwatch-metrics.ts';
import { S3IncidentStore } from '../adapters/aws/s3-incident-store.ts';
import { S3MaintenanceMarker } from '../adapters/aws/s3-maintenance-marker.ts';
import { S3ReportStore } from '../adapters/aws/s3-report-store.ts';
import { S3RunHistory } from '../adapters/aws/s3-run-history.ts';
import { SecretsReader } from '../adapters/aws/secrets.ts';
import { SnsAlerter } from '../adapters/aws/sns-alerter.ts';
import { createEngineAdapters, runOptionsFromConfig } from '../adapters/engine-adapters.ts';
import { systemClock } from '../adapters/system-clock.ts';
import type { RunSignal } from '../adapters/transport.ts';
import type { EngineConfig } from '../core/config.ts';
import type { Clock, IncidentStore, RunHistory } from '../core/ports.ts';
import type { ValidationReport } from '../core/report/report.ts';
import { runValidation } from '../core/run/run-validation.ts';
import { describeError } from '../core/shared/errors.ts';
import type { NightlyConfig } from './config.ts';
import { redactingLogger } from './redacting-logger.ts';
import { type LoadedSuite, loadSuite } from './suite-source.ts';

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

export interface NightlyDeps {
  config: NightlyConfig;
  logger: NightlyLogger;
  clock: Clock;
  newId: () => string;
  /** Each receives the run's signal and must stop when it aborts; the handler also bounds each by sinkTimeoutMs. */
  loadApiKeys: (signal: AbortSignal) => Promise<{ cohereApiKey: string; qdrantApiKey: string | null }>;
  loadSuite: (signal: AbortSignal) => Promise<LoadedSuite>;
  /**
   * Runs the engine; `newId` hands out the handler's run id first so the report and the logs share it, `deadline`
   * is the run's deadline, which every adapter request listens to.
   */
  runEngine: (
    engine: EngineConfig,
    run: LoadedSuite & { newId: () => string; deadline: RunSignal },
  ) => Promise<ValidationReport>;
  reportStore: Pick<S3ReportStore, 'saveArchive' | 'saveLatest' | 'readLatest' | 'saveRunsPage'>;
  /** Earlier runs' reports, for the regression section's baseline and the trend. */
  history: RunHistory;
  /** The incident state beside the reports, written conditionally. */
  incidents: IncidentStore;
  /** The planned maintenance window's marker beside the reports (docs/DEPLOY.md). */
  maintenance: Pick<S3MaintenanceMarker, 'read' | 'uri'>;
  metrics: Pick<CloudWatchMetrics, 'publish'>;
  alerter: Pick<SnsAlerter, 'send'>;
}

/** The production dependencies for a configuration and a set of SDK clients. */
export function createNightlyDeps(config: NightlyConfig, clients: AwsClients, logger: NightlyLogger): NightlyDeps {
  const secrets = new SecretsReader({ client: clients.secretsManager, maxAgeSeconds: config.secretsMaxAgeSeconds });
  const deps: NightlyDeps = {
    config,
    // Every line through the one URL redaction, whichever logger the root hands in.
    logger: redactingLogger(logger),
    clock: systemClock,
    newId: randomUUID,
    loadApiKeys: async () => {
      // Powertools takes no abort signal: the handler's bound races it, the client's timeouts end the request.
      // Both read to the end: when both fail, the message names each, not whichever failed first.
      const [cohere, qdrant] = await Promise.allSettled([
        secrets.getApiKey(config.cohereSecretId, 'Cohere'),
        config.qdrantSecretId === null ? null : secrets.getApiKey(config.qdrantSecretId, 'Qdrant'),
      ]);
      if (cohere.status === 'rejected' && qdrant.status === 'rejected')
        throw new Error(`${describeError(cohere.reason)}; ${describeError(qdrant.reason)}`, { cause: cohere.reason });
      if (cohere.status === 'rejected') throw cohere.reason;
      if (qdrant.status === 'rejected') throw qdrant.reason;
      return { cohereApiKey: cohere.value, qdrantApiKey: qdrant.value };
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
    maintenance: new S3MaintenanceMarker({ client: clients.s3, bucket: config.reportBucket }),
    metrics: new CloudWatchMetrics({ client: clients.cloudWatch, namespace: config.metricNamespace }),
    alerter: new SnsAlerter({
      client: clients.sns,
      topicArn: config.alertTopicArn,
      pageTopicArn: config.pageTopicArn ?? undefined,
    }),
  };
  return deps;
}
