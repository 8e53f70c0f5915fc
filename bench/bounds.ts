/**
 * What a run cannot do with less: the fewest requests per endpoint, and the longest chain of round trips that
 * depend on each other, for one scenario. The benchmark prints its measurements next to these.
 *
 * The chains of one run (stages start together; see functions/core/run/run-validation.ts):
 * - queries: embed the N queries in ceil(N/96) calls while the collection is described (in parallel), then search
 *   in ceil(N/100) query-batch calls. Batches share one limiter of `concurrency`, so each step costs
 *   ceil(calls / concurrency) waves: at N = 200, 1 + 1 = 2 round trips.
 * - profile: describe, then every facet and count at once (1 wave), then, without payload indexes, one scroll page
 *   after another (each page needs the previous page's next offset): 2 + ceil(P / pageSize) round trips.
 * - catalog: only when the suite names a module or chapter, the index's modules and chapters: describe, then two
 *   facets (module_name, chapter_id) with payload indexes, else one scroll of those two fields.
 * - sitemap: one fetch per level (a sitemap index adds one).
 * - grounded answers: the agent reuses the query stage's hits, so after that stage's round trips it costs one chat
 *   per agent query whose retrieval found a relevant chunk, one after the other.
 * - index health (core/index-health): one inventory scroll of a few payload fields, page after page (stale chunks and
 *   freshness need per-page figures no facet gives), then the drift canary's retrieve and embed; with payload
 *   indexes, one facet on model_version (mixed models) beside the profile's facets; and, after the query stage, its
 *   searches once more with exact search (ANN recall). Filters cost nothing extra.
 * The bound is the longest chain times the injected latency.
 */

import type { StepName } from '../functions/core/checks/steps.ts';

/** Cohere's limit on texts per embed call. */
const EMBED_BATCH = 96;
/** The engine's search batch (functions/core/queries/query-stage.ts). */
const SEARCH_BATCH = 100;
/**
 * Payload fields aggregated by facet when indexed: source_url (keyword) and token_count (integer) for the profile,
 * model_version (keyword) for the mixed-models check.
 */
const FACET_FIELDS = 3;

/** One scenario, as far as its cost is concerned. */
export interface RunShape {
  queries: number;
  /** Queries the agent answers (agent: true, capped by MAX_AGENT_QUERIES). */
  agentQueries: number;
  /** Of those, the ones whose retrieval found a relevant chunk: only they call chat (known after the run). */
  agentChats: number;
  points: number;
  payloadIndexes: boolean;
  requiredFields: number;
  pageSize: number;
  concurrency: number;
  /** Sitemap fetches one after the other: 1 for a sitemap, 2 for an index with one child. */
  sitemapLevels: number;
  /** The suite names a module or chapter, so the run reads the book's catalog (default false). */
  catalog?: boolean;
}

/** The catalog's facets when indexed: module_name and chapter_id (functions/core/queries/catalog.ts). */
const CATALOG_FACETS = 2;

/** Endpoints as the stand-ins count them (Qdrant by OpenAPI operationId). */
export const ENDPOINTS = [
  'embed',
  'chat',
  'get_collection',
  'query_batch_points',
  'facet',
  'count_points',
  'scroll_points',
  'get_points',
  'sitemap',
] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

/**
 * What each named step of a run asks of which endpoint (functions/core/checks/steps.ts): the bounds below count
 * them. A step that is new to the engine must be given its endpoints here, and its requests in the bounds; the guard
 * test (test/core/run/checks.test.ts) fails until it is.
 */
export const STEP_ENDPOINTS: Record<StepName, readonly Endpoint[]> = {
  describe: ['get_collection'],
  catalog: ['facet', 'scroll_points'],
  queries: ['embed', 'query_batch_points'],
  sitemap: ['sitemap'],
  profile: ['facet', 'count_points', 'scroll_points'],
  agent: ['chat'],
  inventory: ['scroll_points'],
  'exact search': ['query_batch_points'],
  'canary retrieve': ['get_points'],
  'canary embed': ['embed'],
  'model facet': ['facet'],
};

/** The fewest requests per endpoint the run needs. */
export function requestLowerBounds(shape: RunShape): Record<Endpoint, number> {
  const { queries } = shape;
  const canary = shape.points > 0 ? 1 : 0;
  return {
    // The queries, plus the drift canary's one call of at most 96 stored chunks.
    embed: Math.ceil(queries / EMBED_BATCH) + canary,
    chat: shape.agentChats,
    get_collection: 1,
    // The queries' searches, then the same searches exact (ANN health).
    query_batch_points: 2 * Math.ceil(queries / SEARCH_BATCH),
    facet: shape.payloadIndexes ? FACET_FIELDS + (shape.catalog ? CATALOG_FACETS : 0) : 0,
    // The total, the points complete in every field, and the points missing each field: O(fields), never O(points).
    count_points: 2 + shape.requiredFields,
    // A last page shorter than pageSize carries next_page_offset null, so no empty page follows; P = 0 still asks once.
    // The index-health inventory always scrolls; the profile and the catalog only without payload indexes.
    scroll_points: (shape.payloadIndexes ? 1 : 2 + (shape.catalog ? 1 : 0)) * scrollPages(shape),
    get_points: canary,
    sitemap: shape.sitemapLevels,
  };
}

function scrollPages(shape: RunShape): number {
  return Math.max(1, Math.ceil(shape.points / shape.pageSize));
}

/** One chain of dependent round trips. */
export interface Chain {
  name: string;
  roundTrips: number;
}

/** Every chain of the run, longest first; the first one is the critical path. */
export function dependentChains(shape: RunShape): Chain[] {
  const waves = (calls: number) => Math.ceil(calls / shape.concurrency);
  const embedWaves = waves(Math.ceil(shape.queries / EMBED_BATCH));
  const searchWaves = waves(Math.ceil(shape.queries / SEARCH_BATCH));
  const queryChain = shape.queries === 0 ? 1 : Math.max(1, embedWaves) + searchWaves;
  const chains: Chain[] = [
    { name: 'describe ∥ embed → search', roundTrips: queryChain },
    {
      name: shape.payloadIndexes ? 'describe → facets ∥ counts' : 'describe → counts → scroll pages',
      roundTrips: 2 + (shape.payloadIndexes ? 0 : scrollPages(shape)),
    },
    { name: 'sitemap', roundTrips: shape.sitemapLevels },
    { name: 'inventory scroll pages → canary retrieve → canary embed', roundTrips: scrollPages(shape) + 2 },
    { name: 'queries → exact searches', roundTrips: queryChain + Math.ceil(shape.queries / SEARCH_BATCH) },
  ];
  if (shape.agentQueries > 0) {
    chains.push({
      name: 'queries → agent chats one by one',
      roundTrips: queryChain + shape.agentChats,
    });
  }
  return chains.sort((a, b) => b.roundTrips - a.roundTrips);
}

/** The critical path: its round trips and the wall time they cost at this latency. */
export function criticalPath(shape: RunShape, latencyMs: number): Chain & { boundMs: number } {
  const [longest] = dependentChains(shape);
  if (longest === undefined) throw new Error('a run has at least one chain');
  return { ...longest, boundMs: longest.roundTrips * latencyMs };
}
