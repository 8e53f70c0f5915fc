/**
 * The `index_health` report section: one block per check (null when that check could not run), each with its
 * figures and the threshold it was judged against. Findings are ValidationErrors in the report's `errors`.
 */
import { z } from 'zod';

const count = z.number().int().min(0);
const urls = z.array(z.string()).describe('the first URLs concerned (at most 10)');

const inventorySource = z
  .enum(['facet', 'scroll'])
  .describe(
    'facet: exact facets on the keyword payload indexes of page_version and indexed_at (a constant number of requests); scroll: the inventory scroll (ceil(P / 1000) requests)',
  );

const StaleChunks = z.object({
  urls_checked: count,
  stale_pages: count.describe('pages holding stale or duplicate chunks'),
  urls_with_several_page_hashes: count.describe('pages whose points carry more than one page_hash: stale leftovers'),
  duplicate_chunks: count.describe(
    'points beyond one per chunk within one version of a page (a repeated chunk_index, or more than page_version declares)',
  ),
  points_without_page_hash: count.describe(
    'scroll: points of a page without page_hash; facet: points without a readable page_version',
  ),
  urls,
  source: inventorySource,
});

const MissingChunks = z.object({
  urls_checked: count.describe('pages with a page_version declaring their chunk count (other pages are not judged)'),
  pages_missing_chunks: count.describe('pages holding fewer chunks than their page_version declares'),
  missing_chunks: count.describe(
    'chunks declared and not held (facet: declared less points of the version; scroll: less distinct chunk indexes)',
  ),
  urls,
  source: inventorySource,
});

const Freshness = z.object({
  pages_checked: count.describe('sitemap pages with a lastmod that the index holds'),
  stale_pages: count.describe('pages whose sitemap lastmod is newer than their oldest indexed_at'),
  urls,
  source: inventorySource,
  note: z
    .string()
    .optional()
    .describe(
      'present when no page was checked: why, and for a sitemap without <lastmod> the Docusaurus setting that writes it',
    ),
});

const EmbeddingModels = z.object({
  models: z.array(z.object({ model: z.string().describe('"(none)" for points without model_version'), points: count })),
  source: z
    .enum(['facet', 'scroll'])
    .describe('facet: one exact facet on the keyword payload index of model_version; scroll: the inventory scroll'),
});

const DriftCanary = z.object({
  sampled: count,
  min_cosine: z.number().nullable().describe('the lowest cosine between a stored vector and its chunk re-embedded'),
  threshold: z.number(),
  drifted: z.array(z.object({ point_id: z.string(), source_url: z.string().nullable(), cosine: z.number() })),
});

const AnnHealth = z.object({
  queries_compared: count.describe('the sampled queries whose exact search returned hits (recall is their mean)'),
  queries_searched: count.describe("the queries the query stage searched: the sample's population"),
  sample_size: count.describe(
    'ANN_RECALL_SAMPLE: at most this many searches are repeated with exact search a night, a different slice each night (0: none)',
  ),
  recall: z.number().nullable().describe('mean recall@k of the approximate search against exact search'),
  threshold: z.number(),
  per_query: z.array(z.object({ query_id: z.string(), k: count, recall: z.number() })),
});

const FilterCorrectness = z.object({
  filtered_queries: count,
  hits_checked: count,
  violations: count,
  examples: z.array(z.object({ query_id: z.string(), point_id: z.string() })),
});

export const IndexHealth = z.object({
  stale_chunks: StaleChunks.nullable(),
  missing_chunks: MissingChunks.nullable(),
  freshness: Freshness.nullable(),
  embedding_models: EmbeddingModels.nullable(),
  drift_canary: DriftCanary.nullable(),
  ann: AnnHealth.nullable(),
  filters: FilterCorrectness.nullable(),
});
export type IndexHealth = z.infer<typeof IndexHealth>;

/** An index_health with no block computed, for checks to fill in. */
export function emptyIndexHealth(): IndexHealth {
  return {
    stale_chunks: null,
    missing_chunks: null,
    freshness: null,
    embedding_models: null,
    drift_canary: null,
    ann: null,
    filters: null,
  };
}
