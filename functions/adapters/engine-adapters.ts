/**
 * The engine's adapters built from its configuration: the one place that knows which class implements which
 * port, and which setting goes to which adapter, shared by the composition roots (the CLI's commands, the Lambda).
 */
import { randomUUID } from 'node:crypto';
import type { EngineConfig } from '../core/config.ts';
import type { EngineDeps } from '../core/run/run-validation.ts';
import { createCohereChat } from './cohere/chat.ts';
import { CohereEmbedder } from './cohere/embedder.ts';
import { createCohereJudge } from './cohere/judge.ts';
import { QDRANT_GATE_STRIKES, QdrantIndex } from './qdrant/vector-index.ts';
import { agentDeadline } from './run-deadline.ts';
import { HttpSitemap } from './sitemap/http-sitemap.ts';
import { allowedOriginsOf } from './sitemap/url-policy.ts';
import { systemClock } from './system-clock.ts';
import { DependencyGate, type RunSignal } from './transport.ts';

/**
 * Builds the index, embedder, sitemap, clock and id source for one configuration. `run` is the run's deadline:
 * every request of every adapter listens to its signal. Each adapter is built per run, so a dependency that
 * failed hard in this run is not tried again in it (transport.ts's DependencyGate).
 */
export function createEngineAdapters(config: EngineConfig, options: { run?: RunSignal } = {}): EngineDeps {
  const run = options.run ? { run: options.run } : {};
  // The agent's chat, its own searches and the judge stop a margin before the run's deadline, so the agent step keeps
  // what it had.
  const agentRun = options.run ? agentDeadline(options.run) : undefined;
  const agent = agentRun ? { run: agentRun } : {};
  const cohere = new DependencyGate('Cohere');
  const qdrant = new DependencyGate('Qdrant', { strikes: QDRANT_GATE_STRIKES });
  return {
    index: new QdrantIndex({ ...run, gate: qdrant, ...qdrantTarget(config) }),
    embedder: new CohereEmbedder({ ...run, gate: cohere, ...cohereEmbedTarget(config) }),
    // A search the agent starts itself (its question not fetched by the query stage) listens to the agent's deadline,
    // like its chat; the gates are shared, and a call cut by that deadline is no strike (transport.ts).
    ...(agentRun
      ? {
          agentSearch: {
            index: new QdrantIndex({ ...agent, gate: qdrant, ...qdrantTarget(config) }),
            embedder: new CohereEmbedder({ ...agent, gate: cohere, ...cohereEmbedTarget(config) }),
          },
        }
      : {}),
    chat: createCohereChat({
      ...agent,
      gate: cohere,
      token: config.secrets.cohereApiKey ?? '',
      model: config.chatModel,
      timeoutInSeconds: config.cohereTimeoutMs / 1000,
      ...(config.cohereBaseUrl ? { baseUrl: config.cohereBaseUrl } : {}),
    }),
    // The claim judge shares the agent's gate: once Cohere failed hard in this run, it is not tried either.
    ...(config.groundingJudge === 'cohere'
      ? {
          judge: createCohereJudge({
            ...agent,
            gate: cohere,
            token: config.secrets.cohereApiKey ?? '',
            model: config.judgeModel,
            timeoutInSeconds: config.cohereTimeoutMs / 1000,
            ...(config.cohereBaseUrl ? { baseUrl: config.cohereBaseUrl } : {}),
          }),
        }
      : {}),
    sitemap: new HttpSitemap({
      ...run,
      url: config.sitemapUrl,
      timeoutMs: config.qdrantTimeoutMs,
      allowedOrigins: [...allowedOriginsOf([config.docusaurusBaseUrl]), ...config.sitemapAllowedOrigins],
    }),
    clock: systemClock,
    newId: randomUUID,
    // The engine cuts whatever is still pending when the deadline strikes, so a report always comes back.
    ...(options.run ? { signal: options.run.signal } : {}),
    ...(agentRun ? { wrapUp: agentRun.signal } : {}),
  };
}

/** Where Qdrant is and how to reach it, for the engine's index, `suite generate` and the indexer. */
export function qdrantTarget(config: EngineConfig): {
  url: string;
  collection: string;
  timeoutMs: number;
  apiKey?: string;
} {
  return {
    url: config.qdrantUrl,
    collection: config.collection,
    timeoutMs: config.qdrantTimeoutMs,
    ...(config.secrets.qdrantApiKey ? { apiKey: config.secrets.qdrantApiKey } : {}),
  };
}

/** How to reach Cohere's embed API, for the engine and the indexer. */
export function cohereEmbedTarget(config: EngineConfig): {
  apiKey: string;
  model: string;
  timeoutMs: number;
  baseUrl?: string;
} {
  return {
    apiKey: config.secrets.cohereApiKey ?? '',
    model: config.embeddingModel,
    timeoutMs: config.cohereTimeoutMs,
    ...(config.cohereBaseUrl ? { baseUrl: config.cohereBaseUrl } : {}),
  };
}

/** The run options that come from configuration rather than from the suite; a null setting leaves it to the suite. */
export function runOptionsFromConfig(config: EngineConfig) {
  const { criteria } = config;
  return {
    collection: config.collection,
    environment: config.environment,
    requiredFields: config.requiredFields,
    coveragePathPrefix: config.coveragePathPrefix,
    coverageExclude: config.coverageExclude,
    searchConcurrency: config.searchConcurrency,
    scrollPartitions: config.scrollPartitions,
    indexHealth: { annSample: config.annRecallSample },
    maxAgentQueries: config.maxAgentQueries,
    judgeMaxClaims: config.judgeMaxClaims,
    criteria: {
      ...(criteria.minPassRate === null ? {} : { minPassRate: criteria.minPassRate }),
      ...(criteria.minCoverage === null ? {} : { minCoverage: criteria.minCoverage }),
      ...(criteria.minCompleteness === null ? {} : { minCompleteness: criteria.minCompleteness }),
    },
    ...(config.topK === null ? {} : { topK: config.topK }),
    ...(config.minSimilarity === null ? {} : { minSimilarity: config.minSimilarity }),
  };
}
