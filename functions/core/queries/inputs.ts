/**
 * The query concern's inputs: the collection's description (most of the run waits for it), the book's catalog and
 * the searched queries, each resolved once per run through its named step.
 */
import type { Input } from '../checks/input.ts';
import type { CollectionInfo } from '../ports.ts';
import { DEFAULT_SCROLL_PARTITIONS } from '../scroll-plan.ts';
import { type BookCatalog, namesModulesOrChapters, readBookCatalog } from './catalog.ts';
import { type PlannedSearch, type QueryStageResult, runQueryStage } from './query-stage.ts';

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

/**
 * The searches the query stage is about to send, announced once its embeddings are back and before it searches, so
 * a check that repeats them (ANN health's exact batch) sends its own batch beside them instead of after them. The
 * value is the announcement's handle; `planned` settles once the stage announces, or, if it never searches (it
 * failed first, or the step was settled otherwise), with what it searched when it ends (none when it failed).
 */
export interface SearchPlan {
  planned: Promise<PlannedSearch[]>;
  announce(planned: PlannedSearch[]): void;
}

export const searchPlan: Input<SearchPlan> = {
  name: 'search plan',
  steps: [],
  resolve: async () => {
    let announce: (planned: PlannedSearch[]) => void = () => undefined;
    const planned = new Promise<PlannedSearch[]>((resolve) => {
      announce = resolve;
    });
    return { planned, announce };
  },
};

/** Embeds in batches of 96 while the collection is described, then searches in batches of 100, then judges. */
export const searchedQueries: Input<QueryStageResult> = {
  name: 'queries',
  steps: ['queries'],
  resolve: (ctx) => {
    // Not awaited before the step starts: the stage begins at once, and announces through it once it has a plan.
    const plan = ctx.input(searchPlan);
    const announce = (planned: PlannedSearch[]) => void plan.then((p) => p.announce(planned));
    const searched = ctx.step(
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
          onPlanned: announce,
        }),
      (result) => result.stageFailure,
    );
    // A no-op once the stage announced; otherwise nobody waits for a plan that never comes.
    searched.then(
      (result) => announce(result.searches.map(({ queryId, request }) => ({ queryId, request }))),
      () => announce([]),
    );
    return searched;
  },
  failure: { label: 'queries' },
  unusable: (searched) => searched.stageFailure,
};
