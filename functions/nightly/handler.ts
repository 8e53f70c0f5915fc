/**
 * The nightly Lambda: the composition root. EventBridge Scheduler invokes it once a night.
 *
 * What happens, in order:
 * 1. (cold start) The configuration is parsed once and the SDK clients are built once, at module scope, each with
 *    connection and request timeouts (adapters/aws/clients.ts).
 * 2. A run id is drawn and put on every log line. The run's deadline is set: the invocation's remaining time minus
 *    the delivery reserve (budget.ts), or RUN_DEADLINE_SECONDS if tighter. One AbortSignal carries it to every
 *    request of every adapter.
 * 3. The previous run's headline and the incident state are read beside the run (post-run-ports.ts), while the API
 *    keys are read from Secrets Manager (cached), the suite is loaded and the engine runs (produce-report.ts). Each
 *    AWS call has its own bound. If any of that throws, the run still gets a report: status ERROR with the reason.
 * 4. What follows the run is the post-run use case (core/post-run/finish-run.ts), on the Lambda's ports: compared
 *    with history, stored in S3 beside its HTML and CSV, its metrics in CloudWatch, its emails through SNS.
 * 5. The result names each sink and whether it succeeded. The invocation fails (throws) when the configuration is
 *    invalid, or when neither the report was stored nor an alert delivered (result.ts): then the function's Errors
 *    alarm and the dead-letter queue are how ops hear of it.
 */

import { Logger } from '@aws-lambda-powertools/logger';
import { type AwsClients, createAwsClients } from '../adapters/aws/clients.ts';
import { startRunDeadline } from '../adapters/run-deadline.ts';
import { finishRun } from '../core/post-run/finish-run.ts';
import { deliveredNothing } from '../core/post-run/outcome.ts';
import { describeError } from '../core/shared/errors.ts';
import { engineBudgetMs } from './budget.ts';
import { parseNightlyConfig } from './config.ts';
import { createNightlyDeps, type LambdaContext, type NightlyDeps } from './deps.ts';
import { limitHeapGrowth } from './heap-growth.ts';
import { nightlyPostRunPorts, startEarlyReads } from './post-run-ports.ts';
import { produceReport } from './produce-report.ts';
import { redactingLogger } from './redacting-logger.ts';
import { type NightlyResult, NothingDeliveredError } from './result.ts';

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

    const early = startEarlyReads(deps);
    const engineReport = await produceReport(deps, runId, deadline).finally(() => deadline.cancel());
    const maintenance = await early.maintenance;
    const produced = maintenance.active ? { ...engineReport, maintenance: maintenance.window } : engineReport;
    const { report, sinks } = await finishRun(
      nightlyPostRunPorts(deps, early.incidents, runId),
      { report: produced, previous: await early.previous },
      { html: true, policy: config.incidents, ...(config.docsRoot === null ? {} : { docsRoot: config.docsRoot }) },
    );
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

// ---- module scope: built once per cold start -------------------------------------------------------------------

limitHeapGrowth();
const logger = redactingLogger(new Logger({ serviceName: 'ragwatch-nightly' }));
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
