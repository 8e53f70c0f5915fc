/**
 * The query concern's inputs: the collection's description (most of the run waits for it), the book's catalog and
 * the searched queries, each resolved once per run through its named step.
 */
import type { Input } from '../checks/input.ts';
import type { CollectionInfo } from '../ports.ts';
import { DEFAULT_SCROLL_PARTITIONS } from '../scroll-plan.ts';
import { type BookCatalog, namesModulesOrChapters, readBookCatalog } from './catalog.ts';
import { type QueryStageResult, runQueryStage } from './query-stage.ts';

/** The collection's description. Its failure is told by the inputs that need it (the profile, the queries). */
export const collectionDescription: Input<CollectionInfo> = {
  name: 'describe',
  steps: ['describe'],
  resolve: (ctx) => ctx.step('describe', () => ctx.deps.index.describe()),
};

/** The modules and chapters the index holds, to resolve what the suite names (facets, else one scroll of two fields). */
export const bookCatalog: Input<BookCatalog> = {
  name: 'catalog',
  steps: ['catalog'],
  resolve: (ctx) =>
    ctx.step('catalog', async () =>
      readBookCatalog({
        index: ctx.deps.index,
        info: await ctx.input(collectionDescription),
        pageSize: ctx.options.scrollPageSize ?? 1000,
        partitions: ctx.options.scrollPartitions ?? DEFAULT_SCROLL_PARTITIONS,
      }),
    ),
};

/** Embeds in batches of 96 while the collection is described, then searches in batches of 100, then judges. */
export const searchedQueries: Input<QueryStageResult> = {
  name: 'queries',
  steps: ['queries'],
  resolve: (ctx) =>
    ctx.step(
      'queries',
      () =>
        runQueryStage({
          queries: ctx.queries,
          embedder: ctx.deps.embedder,
          index: ctx.deps.index,
          collection: ctx.input(collectionDescription),
          ...(namesModulesOrChapters(ctx.queries) ? { catalog: ctx.input(bookCatalog) } : {}),
          clock: ctx.deps.clock,
          newId: ctx.deps.newId,
          concurrency: ctx.options.searchConcurrency,
          ...(ctx.deps.progress ? { progress: ctx.deps.progress } : {}),
        }),
      (searched) => searched.stageFailure,
    ),
  failure: { label: 'queries' },
  unusable: (searched) => searched.stageFailure,
};
