/**
 * The `index_health` report section: one block per check (null when that check could not run), each with its
 * figures and the threshold it was judged against. Findings are ValidationErrors in the report's `errors`.
 */
import { z } from 'zod';

const count = z.number().int().min(0);
const urls = z.array(z.string()).describe('the first URLs concerned (at most 10)');

const StaleChunks = z.object({
  urls_checked: count,
  stale_pages: count.describe('pages holding stale or duplicate chunks'),
  urls_with_several_page_hashes: count.describe('pages whose points carry more than one page_hash: stale leftovers'),
  duplicate_chunks: count.describe('points repeating a chunk_index of their page'),
  points_without_page_hash: count,
  urls,
});

const Freshness = z.object({
  pages_checked: count.describe('sitemap pages with a lastmod that the index holds'),
  stale_pages: count.describe('pages whose sitemap lastmod is newer than their oldest indexed_at'),
  urls,
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
  queries_compared: count,
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
  freshness: Freshness.nullable(),
  embedding_models: EmbeddingModels.nullable(),
  drift_canary: DriftCanary.nullable(),
  ann: AnnHealth.nullable(),
  filters: FilterCorrectness.nullable(),
});
export type IndexHealth = z.infer<typeof IndexHealth>;

/** An index_health with no block computed, for checks to fill in. */
export function emptyIndexHealth(): IndexHealth {
  return { stale_chunks: null, freshness: null, embedding_models: null, drift_canary: null, ann: null, filters: null };
}
