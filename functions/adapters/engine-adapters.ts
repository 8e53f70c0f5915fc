/**
 * The engine's adapters built from its configuration: the one place that knows which class implements which
 * port, shared by the two composition roots (the CLI and the Lambda handler).
 */
import { randomUUID } from 'node:crypto';
import type { EngineConfig } from '../core/config.ts';
import type { EngineDeps } from '../core/run-validation.ts';
import { createCohereChat } from './cohere-chat.ts';
import { CohereEmbedder } from './cohere-embedder.ts';
import { HttpSitemap } from './http-sitemap.ts';
import { QdrantIndex } from './qdrant-index.ts';
import { allowedOriginsOf } from './sitemap-url-policy.ts';
import { systemClock } from './system-clock.ts';

/** Builds the index, embedder, sitemap, clock and id source for one configuration. */
export function createEngineAdapters(config: EngineConfig): EngineDeps {
  return {
    index: new QdrantIndex({
      url: config.qdrantUrl,
      collection: config.collection,
      timeoutMs: config.qdrantTimeoutMs,
      ...(config.secrets.qdrantApiKey ? { apiKey: config.secrets.qdrantApiKey } : {}),
    }),
    embedder: new CohereEmbedder({
      apiKey: config.secrets.cohereApiKey ?? '',
      model: config.embeddingModel,
      timeoutMs: config.cohereTimeoutMs,
      ...(config.cohereBaseUrl ? { baseUrl: config.cohereBaseUrl } : {}),
    }),
    chat: createCohereChat({
      token: config.secrets.cohereApiKey ?? '',
      model: config.chatModel,
      timeoutInSeconds: config.cohereTimeoutMs / 1000,
      ...(config.cohereBaseUrl ? { baseUrl: config.cohereBaseUrl } : {}),
    }),
    sitemap: new HttpSitemap({
      url: config.sitemapUrl,
      timeoutMs: config.qdrantTimeoutMs,
      allowedOrigins: [...allowedOriginsOf([config.docusaurusBaseUrl]), ...config.sitemapAllowedOrigins],
    }),
    clock: systemClock,
    newId: randomUUID,
  };
}

/** The run options that come from configuration rather than from the suite. */
export function runOptionsFromConfig(config: EngineConfig) {
  return {
    collection: config.collection,
    environment: config.environment,
    requiredFields: config.requiredFields,
    coveragePathPrefix: config.coveragePathPrefix,
    searchConcurrency: config.searchConcurrency,
    maxAgentQueries: config.maxAgentQueries,
    criteria: config.criteria,
    ...(config.topK === undefined ? {} : { topK: config.topK }),
    ...(config.similarityThreshold === undefined ? {} : { minSimilarity: config.similarityThreshold }),
  };
}
