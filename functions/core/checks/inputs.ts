/**
 * The run's shared inputs, each a named step run at most once: the checks that need the same data (the
 * collection's description, the searched queries, the sitemap, the collection's profile) share one round trip.
 */
import { createRetrievalTool } from '../grounding/retrieval-tool.ts';
import { runAgentChecks } from '../grounding/run-agent-checks.ts';
import type { CollectionInfo, SitemapListing } from '../ports.ts';
import { type CollectionProfile, profileCollection } from '../quality/profile-collection.ts';
import { type BookCatalog, namesModulesOrChapters, readBookCatalog } from '../queries/catalog.ts';
import { indexSearchedHits } from '../queries/query-results.ts';
import { type QueryStageResult, runQueryStage } from '../queries/query-stage.ts';
import type { RunContext } from './check.ts';

export const describeCollection = (ctx: RunContext): Promise<CollectionInfo> =>
  ctx.step('describe', () => ctx.deps.index.describe());

/** Embeds in batches of 96 while the collection is described, then searches in batches of 100, then judges. */
export const searchedQueries = (ctx: RunContext): Promise<QueryStageResult> =>
  ctx.step(
    'queries',
    () =>
      runQueryStage({
        queries: ctx.queries,
        embedder: ctx.deps.embedder,
        index: ctx.deps.index,
        collection: describeCollection(ctx),
        ...(namesModulesOrChapters(ctx.queries) ? { catalog: bookCatalog(ctx) } : {}),
        clock: ctx.deps.clock,
        newId: ctx.deps.newId,
        concurrency: ctx.options.searchConcurrency,
        ...(ctx.deps.progress ? { progress: ctx.deps.progress } : {}),
      }),
    (searched) => searched.stageFailure,
  );

/** The modules and chapters the index holds, to resolve what the suite names (facets, else one scroll of two fields). */
export const bookCatalog = (ctx: RunContext): Promise<BookCatalog> =>
  ctx.step('catalog', async () =>
    readBookCatalog({
      index: ctx.deps.index,
      info: await describeCollection(ctx),
      pageSize: ctx.options.scrollPageSize ?? 1000,
    }),
  );

/** The sitemap's pages (with their lastmod when given) and what the source refused or cut on the way. */
export const sitemapListing = (ctx: RunContext): Promise<SitemapListing> =>
  ctx.step('sitemap', () => ctx.deps.sitemap.list(ctx.signal ? { signal: ctx.signal } : {}));

/** Distinct source URLs, completeness by counts and token distribution (facets, else one streaming scroll). */
export const collectionProfile = (ctx: RunContext): Promise<CollectionProfile> =>
  ctx.step('profile', async () =>
    profileCollection({
      index: ctx.deps.index,
      info: await describeCollection(ctx),
      requiredFields: ctx.options.requiredFields,
      pageSize: ctx.options.scrollPageSize ?? 1000,
    }),
  );

/** At most this many agent queries per run, so the chat cost is bounded. */
export const maxAgentQueries = (ctx: RunContext): number => ctx.options.maxAgentQueries ?? 10;

/**
 * The agent answers from the hits the query step already fetched: its chain is then the query step's two round
 * trips plus its chat calls, not a second embed and search per question.
 */
export const groundedAnswers = (ctx: RunContext) => {
  const chat = ctx.deps.chat;
  if (!chat) return Promise.reject(new Error('no chat model is wired'));
  return ctx.step(
    'agent',
    async () => {
      const searched = await searchedQueries(ctx).then(
        (value) => value,
        () => null,
      );
      const prefetched = searched ? indexSearchedHits(searched.results) : undefined;
      return runAgentChecks({
        queries: ctx.queries,
        tool: createRetrievalTool({ ...ctx.deps, ...(prefetched ? { prefetched } : {}) }),
        chat,
        clock: ctx.deps.clock,
        newId: ctx.deps.newId,
        maxAgentQueries: maxAgentQueries(ctx),
      });
    },
    ({ report }) =>
      report.evaluated > 0 && report.errors === report.evaluated ? 'no agent question could be answered' : null,
  );
};
