/**
 * The run itself, in the Lambda: the API keys from Secrets Manager, the suite, then the engine, each within its
 * bound and the run's deadline. Whatever throws on the way still gives the run a report: status ERROR, with the
 * stage that failed and why.
 */
import { withinBound } from '../adapters/bounded.ts';
import type { RunSignal } from '../adapters/transport.ts';
import type { EngineConfig } from '../core/config.ts';
import { buildRunFailureReport } from '../core/report/failure-report.ts';
import type { ValidationReport } from '../core/report/report.ts';
import { describeError } from '../core/shared/errors.ts';
import type { NightlyDeps } from './deps.ts';

/** The run's report, under `runId`; never throws. */
export async function produceReport(deps: NightlyDeps, runId: string, deadline: RunSignal): Promise<ValidationReport> {
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
