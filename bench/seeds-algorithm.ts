/**
 * The seeds' own algorithm, as a yardstick for the benchmark (issue 20: "at least 40x faster than the seeds'
 * algorithm"): every query embedded and searched one after the other (one embed call, then one search, per query),
 * then one full scroll of the collection, through the same real adapters and stand-ins as the engine. Only its wall
 * time and requests are measured; it judges nothing.
 */
import { createEngineAdapters } from '../functions/adapters/engine-adapters.ts';
import { RESULT_FIELDS } from '../functions/core/book/payload.ts';
import { parseEngineConfig } from '../functions/core/config.ts';

/** Runs the seeds' algorithm once; resolves to its wall time. */
export async function runSeedsAlgorithm(env: Record<string, string>, queries: string[]): Promise<{ wallMs: number }> {
  const deps = createEngineAdapters(parseEngineConfig(env));
  const started = performance.now();
  for (const text of queries) {
    const { vectors } = await deps.embedder.embedQueries([text]);
    await deps.index.searchBatch([{ vector: vectors[0] ?? [], limit: 5, payloadFields: RESULT_FIELDS }]);
  }
  for await (const _page of deps.index.scroll({ payloadFields: ['source_url', 'token_count'], pageSize: 1000 })) {
    // Each page is read and dropped: the seeds' scroll only counts.
  }
  return { wallMs: performance.now() - started };
}
