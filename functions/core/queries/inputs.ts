/**
 * The query concern's shared inputs, each a named step run at most once per run: the collection's description
 * (most checks wait for it), the book's catalog and the searched queries.
 */
import type { RunContext } from '../checks/check.ts';
import type { CollectionInfo } from '../ports.ts';
import { type BookCatalog, namesModulesOrChapters, readBookCatalog } from './catalog.ts';
import { type QueryStageResult, runQueryStage } from './query-stage.ts';

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
