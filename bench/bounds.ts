/**
 * What a run cannot do with less: the fewest requests per endpoint, and the longest chain of round trips that
 * depend on each other, for one scenario. The benchmark prints its measurements next to these.
 *
 * The chains of one run (stages start together; see functions/core/run/run-validation.ts). The work's own (what the
 * run is judged against: the suite's queries and the book's sitemap cannot be had in fewer round trips):
 * - queries: embed the N queries in ceil(N/96) calls while the collection is described (in parallel), then search
 *   in ceil(N/100) query-batch calls. Batches share one limiter of `concurrency`, so each step costs
 *   ceil(calls / concurrency) waves: at N = 200, 1 + 1 = 2 round trips.
 * - sitemap: one fetch per level (a sitemap index adds one).
 * - grounded answers: the agent reuses the query stage's hits, so after that stage's round trips it costs one chat
 *   per agent query whose retrieval found a relevant chunk, one after the other, and with the claim judge
 *   (GROUNDING_JUDGE=cohere) one more chat call per claim judged, each after the answer it judges.
 * The engine's own (what it adds to read the collection; printed on its own line, never part of the bound):
 * - profile: describe, then every facet and count at once (1 wave), then, without payload indexes, the scroll: its
 *   first page, then W id ranges at once, each page after page (a page needs the previous page's next offset):
 *   2 + 1 + ceil((P - pageSize) / (pageSize W)) round trips (2 + ceil(P / pageSize) at W = 1).
 * - catalog: only when the suite names a module or chapter, the index's modules and chapters: describe, then two
 *   facets (module_name, chapter_id) with payload indexes, else one scroll of those two fields.
 * - index inventory (core/index-health): with the page_version and indexed_at keyword indexes, describe, then two
 *   facets (and one facet per indexing time when the collection holds several): 2 round trips; without any payload
 *   index (the bench's "no index"), it rides the profile's scroll (functions/core/quality/inputs.ts): no request and
 *   no chain of its own. (With the profile's indexes but not its own, its own scroll, as the profile's.)
 * - drift canary: one scroll of the first 8 points with their vectors, then one embed call: 2 round trips.
 * - exact searches (ANN recall): after the query stage, its searches once more with exact search, all at once.
 * - mixed models: one facet on model_version beside the profile's (indexed), else the inventory scroll.
 */

import type { StepName } from '../functions/core/checks/steps.ts';
import { DEFAULT_ANN_SAMPLE } from '../functions/core/config.ts';

/** Cohere's limit on texts per embed call. */
const EMBED_BATCH = 96;
/** The engine's search batch (functions/core/queries/query-stage.ts). */
const SEARCH_BATCH = 100;
/**
 * Payload fields aggregated by facet when indexed: source_url (keyword) and token_count (integer) for the profile,
 * model_version (keyword) for the mixed-models check, page_version and indexed_at (keyword) for the index inventory.
 */
const FACET_FIELDS = 5;

/** One scenario, as far as its cost is concerned. */
export interface RunShape {
  queries: number;
  /** Queries the agent answers (agent: true, capped by MAX_AGENT_QUERIES). */
  agentQueries: number;
  /** Of those, the ones whose retrieval found a relevant chunk: only they call chat (known after the run). */
  agentChats: number;
  /** Claims the judge was asked about, one chat call each (grounding_report.judge.judged; 0 with the lexical gate). */
  judgeCalls?: number;
  points: number;
  payloadIndexes: boolean;
  requiredFields: number;
  pageSize: number;
  /** Id ranges each fallback scroll reads at once (SCROLL_PARTITIONS; default 1, one page after the other). */
  partitions?: number;
  concurrency: number;
  /** Sitemap fetches one after the other: 1 for a sitemap, 2 for an index with one child. */
  sitemapLevels: number;
  /** The suite names a module or chapter, so the run reads the book's catalog (default false). */
  catalog?: boolean;
  /**
   * Distinct indexed_at values in the collection (default 1: one indexing run wrote or confirmed every point). More
   * than one costs one page_version facet per time, in a third round trip.
   */
  indexingTimes?: number;
  /** Searches ANN health repeats with exact search (ANN_RECALL_SAMPLE; default the engine's, 20). */
  annSample?: number;
}

/** The searches a run repeats exact: tonight's sample, at most the suite. */
const exactSearchCount = (shape: RunShape) => Math.min(shape.queries, shape.annSample ?? DEFAULT_ANN_SAMPLE);

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
  page_facets: ['facet'],
  exact_search: ['query_batch_points'],
  canary_sample: ['scroll_points'],
  canary_embed: ['embed'],
  model_facet: ['facet'],
};

/** The fewest requests per endpoint the run needs. */
export function requestLowerBounds(shape: RunShape): Record<Endpoint, number> {
  const { queries } = shape;
  const canaryEmbed = shape.points > 0 ? 1 : 0;
  const times = shape.indexingTimes ?? 1;
  return {
    // The queries, plus the drift canary's one call of at most 96 stored chunks.
    embed: Math.ceil(queries / EMBED_BATCH) + canaryEmbed,
    chat: shape.agentChats + (shape.judgeCalls ?? 0),
    get_collection: 1,
    // The queries' searches, then tonight's sample of them exact (ANN health).
    query_batch_points: Math.ceil(queries / SEARCH_BATCH) + Math.ceil(exactSearchCount(shape) / SEARCH_BATCH),
    facet: shape.payloadIndexes ? FACET_FIELDS + (times > 1 ? times : 0) + (shape.catalog ? CATALOG_FACETS : 0) : 0,
    // The total, the points complete in every field, and the points missing each field: O(fields), never O(points).
    count_points: 2 + shape.requiredFields,
    // The canary's one page of the first points. Without payload indexes, the profile's scroll (which the inventory
    // rides) and the catalog's, ceil(P / pageSize) each in one range: a last page shorter than pageSize carries
    // next_page_offset null, so no empty page follows; P = 0 still asks once. In W ranges, each range's last page.
    scroll_points: 1 + (shape.payloadIndexes ? 0 : (1 + (shape.catalog ? 1 : 0)) * partitionedScroll(shape).requests),
    get_points: 0,
    sitemap: shape.sitemapLevels,
  };
}

/**
 * One fallback scroll of the bench's collections (ids 1..P, dense, so the adapter's cuts are exact, see
 * functions/adapters/qdrant/id-ranges.ts): the first page, then the P - pageSize points left in
 * min(W, their pages) equal id ranges read at once, each page after page. Requests and pages one after the other.
 */
export function partitionedScroll(shape: Pick<RunShape, 'points' | 'pageSize' | 'partitions'>): {
  requests: number;
  depth: number;
} {
  const { pageSize } = shape;
  const remaining = shape.points - pageSize;
  if (remaining <= 0) return { requests: 1, depth: 1 };
  const count = Math.max(1, Math.min(shape.partitions ?? 1, Math.ceil(remaining / pageSize)));
  const pages = Array.from({ length: count }, (_, k) =>
    Math.ceil((Math.floor((remaining * (k + 1)) / count) - Math.floor((remaining * k) / count)) / pageSize),
  );
  return { requests: 1 + pages.reduce((a, b) => a + b, 0), depth: 1 + Math.max(...pages) };
}

/** One chain of dependent round trips: the work's own (the bound) or the engine's (what reading the index adds). */
export interface Chain {
  name: string;
  roundTrips: number;
  kind: 'work' | 'engine';
}

/** Every chain of the run, longest first. */
export function dependentChains(shape: RunShape): Chain[] {
  const waves = (calls: number) => Math.ceil(calls / shape.concurrency);
  const embedWaves = waves(Math.ceil(shape.queries / EMBED_BATCH));
  const searchWaves = waves(Math.ceil(shape.queries / SEARCH_BATCH));
  const queryChain = shape.queries === 0 ? 1 : Math.max(1, embedWaves) + searchWaves;
  const times = shape.indexingTimes ?? 1;
  const chains: Chain[] = [
    { name: 'describe ∥ embed → search', roundTrips: queryChain, kind: 'work' },
    { name: 'sitemap', roundTrips: shape.sitemapLevels, kind: 'work' },
    shape.payloadIndexes
      ? { name: 'describe → facets ∥ counts', roundTrips: 2, kind: 'engine' }
      : { name: 'describe → counts → scroll pages', roundTrips: 2 + partitionedScroll(shape).depth, kind: 'engine' },
    // Without payload indexes the inventory rides the profile's scroll: the chain above is also its.
    ...(shape.payloadIndexes
      ? [{ name: 'describe → page facets', roundTrips: 2 + (times > 1 ? 1 : 0), kind: 'engine' as const }]
      : []),
    { name: 'canary sample → canary embed', roundTrips: shape.points > 0 ? 2 : 1, kind: 'engine' },
    {
      name: 'queries → exact searches',
      roundTrips: queryChain + waves(Math.ceil(exactSearchCount(shape) / SEARCH_BATCH)),
      kind: 'engine',
    },
  ];
  if (shape.agentQueries > 0) {
    const judged = shape.judgeCalls ?? 0;
    chains.push({
      name: judged > 0 ? 'queries → agent chats and judge calls one by one' : 'queries → agent chats one by one',
      roundTrips: queryChain + shape.agentChats + judged,
      kind: 'work',
    });
  }
  return chains.sort((a, b) => b.roundTrips - a.roundTrips);
}

/**
 * The bound a run is judged against: the work's own longest chain (the query chain, one sitemap level, the agent's
 * chats), not the engine's, so adding sequential requests to the engine can never raise the bar it is held to.
 */
export function criticalPath(shape: RunShape, latencyMs: number): Chain & { boundMs: number } {
  return longest(
    dependentChains(shape).filter((c) => c.kind === 'work'),
    latencyMs,
  );
}

/** The engine's own longest chain (reading the index beyond the work): printed beside the bound, never in it. */
export function engineChain(shape: RunShape, latencyMs: number): Chain & { boundMs: number } {
  return longest(
    dependentChains(shape).filter((c) => c.kind === 'engine'),
    latencyMs,
  );
}

function longest(chains: Chain[], latencyMs: number): Chain & { boundMs: number } {
  const [first] = chains;
  if (first === undefined) throw new Error('a run has at least one chain of each kind');
  return { ...first, boundMs: first.roundTrips * latencyMs };
}
