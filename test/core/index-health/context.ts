/**
 * A run context for the index-health checks: the shared one of test/fakes/run-context.ts (the real createRunContext
 * over a MemoryIndex and a FakeEmbedder), with the suite's success criteria (defaults unless overridden) and payload
 * indexes on source_url and token_count, so the profile answers by facets and counts and a failing scroll fails the
 * inventory alone. `searched` stands in for the query step's searches, so the ANN and filter checks can be given
 * exactly the hits an index returned.
 */
import type { RunOptions } from '../../../functions/core/checks/run-options.ts';
import type { CollectionInfo, SearchHit, SearchRequest, SitemapEntry } from '../../../functions/core/ports.ts';
import type { QueryStageResult } from '../../../functions/core/queries/query-stage.ts';
import type { SuccessCriteria } from '../../../functions/core/suite/suite.ts';
import type { FakeEmbedder } from '../../fakes/fake-embedder.ts';
import { MemoryIndex, type MemoryPoint } from '../../fakes/memory-index.ts';
import { buildRunContext } from '../../fakes/run-context.ts';

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
  const index = new MemoryIndex(setup.points ?? [], {
    payloadIndexes: { source_url: 'keyword', token_count: 'integer' },
    ...setup.info,
  });
  const sitemap = setup.sitemap ?? [];
  const run = buildRunContext({
    index,
    ...(setup.embedder ? { embedder: setup.embedder } : {}),
    suite: { queries: [{ id: 'q', query_text: 'q' }], success_criteria: setup.criteria ?? {} },
    sitemap: sitemap instanceof Error ? sitemap : { entries: sitemap, issues: [] },
    options: { requiredFields: ['source_url'], ...setup.options },
  });
  const searched = setup.searched;
  if (searched !== undefined) {
    // The query step, settled with these searches (or failed), as runQueryStage would leave it.
    void run.ctx
      .step('queries', async () => {
        if (searched instanceof Error) throw searched;
        return { searches: searched } as QueryStageResult;
      })
      .catch(() => undefined);
  }
  /** The steps the run has timed so far, by name (the report's `execution.stages`). */
  const stages = () => Object.keys(run.stages()).sort();
  return { ctx: run.ctx, index, embedder: run.embedder, stages };
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
