/**
 * A run context for the index-health checks over in-memory fakes: a MemoryIndex, a FakeEmbedder and a sitemap
 * listing, with the suite's success criteria (defaults unless overridden). `searched` stands in for the query
 * step's searches, so the ANN and filter checks can be given exactly the hits an index returned.
 */
import { createRunContext } from '../../../functions/core/checks/run-context.ts';
import type { EngineDeps, RunOptions } from '../../../functions/core/checks/run-options.ts';
import type { CollectionInfo, SearchHit, SearchRequest, SitemapEntry } from '../../../functions/core/ports.ts';
import type { QueryStageResult } from '../../../functions/core/queries/query-stage.ts';
import { SuccessCriteria, Suite } from '../../../functions/core/suite/suite.ts';
import { FakeEmbedder } from '../../fakes/fake-embedder.ts';
import { MemoryIndex, type MemoryPoint } from '../../fakes/memory-index.ts';

export interface HealthSetup {
  points?: MemoryPoint[];
  info?: Partial<CollectionInfo>;
  embedder?: FakeEmbedder;
  /** The sitemap's entries, or the error listing it fails with. */
  sitemap?: SitemapEntry[] | Error;
  criteria?: Partial<SuccessCriteria>;
  options?: Partial<RunOptions>;
  /** The query step's searches as sent and answered; a rejection when an Error (the query step failed). */
  searched?: { queryId: string; request: SearchRequest; hits: SearchHit[] }[] | Error;
}

export function healthContext(setup: HealthSetup = {}) {
  // The profile answers from facets and counts, so a failing scroll fails the inventory alone.
  const index = new MemoryIndex(setup.points ?? [], {
    payloadIndexes: { source_url: 'keyword', token_count: 'integer' },
    ...setup.info,
  });
  const embedder = setup.embedder ?? new FakeEmbedder();
  let ids = 0;
  const sitemap = setup.sitemap ?? [];
  const deps: EngineDeps = {
    index,
    embedder,
    sitemap: {
      location: 'https://book.example.com/sitemap.xml',
      list: async () => {
        if (sitemap instanceof Error) throw sitemap;
        return { entries: sitemap, issues: [] };
      },
    },
    clock: { now: () => new Date('2026-11-23T00:00:00Z'), monotonicMs: () => 0 },
    newId: () => `id-${++ids}`,
  };
  const options = {
    suite: Suite.parse({ queries: [{ id: 'q', query_text: 'q' }] }),
    requiredFields: ['source_url'],
    ...setup.options,
  } as RunOptions;
  const handle = createRunContext({
    deps,
    options,
    runId: 'run-1',
    startedAt: new Date('2026-11-23T00:00:00Z'),
    queries: [],
    criteria: SuccessCriteria.parse(setup.criteria ?? {}),
  });
  const searched = setup.searched;
  if (searched !== undefined) {
    // The query step, settled with these searches (or failed), as runQueryStage would leave it.
    void handle.ctx
      .step('queries', async () => {
        if (searched instanceof Error) throw searched;
        return { searches: searched } as QueryStageResult;
      })
      .catch(() => undefined);
  }
  /** The steps the run has timed so far, by name (the report's `execution.stages`). */
  const stages = () => Object.keys(handle.stages()).sort();
  return { ctx: handle.ctx, index, embedder, stages };
}

/** A point of the book: its page, chunk index, page hash, model and indexing time (each may be overridden). */
export function point(id: string, payload: Record<string, unknown> = {}, vector?: number[]): MemoryPoint {
  return {
    id,
    ...(vector ? { vector } : {}),
    payload: {
      source_url: 'https://book.example.com/docs/a',
      chunk_index: 0,
      page_hash: 'h1',
      model_version: 'embed-english-v3.0',
      indexed_at: '2026-11-01T00:00:00.000Z',
      ...payload,
    },
  };
}
