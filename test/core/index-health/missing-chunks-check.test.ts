import { describe, expect, it } from 'vitest';
import { pageVersionKey } from '../../../functions/core/book/payload.ts';
import { missingChunksCheck } from '../../../functions/core/index-health/missing-chunks-check.ts';
import { missingChunksOf } from '../../../functions/core/quality/page-inventory.ts';
import type { SuccessCriteria } from '../../../functions/core/suite/suite.ts';
import type { MemoryPoint } from '../../fakes/memory-index.ts';
import { runCheck } from '../../fakes/run-context.ts';
import { healthContext, point } from './context.ts';

const BASE = 'https://book.example.com/docs';
const A = `${BASE}/a`;
const B = `${BASE}/b`;
const C = `${BASE}/c`;
const INDEXES = {
  source_url: 'keyword',
  token_count: 'integer',
  page_version: 'keyword',
  indexed_at: 'keyword',
} as const;

/** Chunks `from`..`to - 1` of a version of `url` that declares `chunks`, as the indexer writes them. */
const chunksOf = (url: string, chunks: number, from = 0, to = chunks, hash = 'h1'): MemoryPoint[] =>
  Array.from({ length: to - from }, (_, i) =>
    point(`${url}#${hash}#${from + i}`, {
      source_url: url,
      chunk_index: from + i,
      page_hash: hash,
      page_version: pageVersionKey(url, hash, chunks),
    }),
  );

/** The check on these points, read by facets (with the indexer's keyword indexes) or by the scroll (without). */
async function judge(points: MemoryPoint[], read: 'facet' | 'scroll', criteria: Partial<SuccessCriteria> = {}) {
  const { ctx } = healthContext({
    points,
    criteria,
    info: { payloadIndexes: read === 'facet' ? { ...INDEXES } : { source_url: 'keyword', token_count: 'integer' } },
  });
  return runCheck(missingChunksCheck, ctx);
}

describe('the missing-chunks check', () => {
  it.each(['facet', 'scroll'] as const)(
    'passes whole pages, read by %s, and says how many it checked',
    async (read) => {
      const result = await judge([...chunksOf(A, 6), ...chunksOf(B, 1)], read);
      expect(result.sections?.index_health?.missing_chunks).toEqual({
        urls_checked: 2,
        pages_missing_chunks: 0,
        missing_chunks: 0,
        urls: [],
        source: read,
      });
      expect(result.errors).toEqual([]);
      expect(result.verdicts).toEqual([
        {
          name: 'missing_chunk_pages',
          description: 'Pages holding fewer chunks than their indexer wrote',
          value: 0,
          threshold: 0,
          comparator: '<=',
          passed: true,
          severity: 'HIGH',
        },
      ]);
    },
  );

  it.each(['facet', 'scroll'] as const)(
    'reports pages cut to their first chunks as MISSING_CHUNKS, high, counting the chunks lost (%s)',
    async (read) => {
      // A cut to its first 2 of 6 chunks, B to 1 of 3, C whole: the shape of a module re-indexed by a chunker
      // that stopped early, or of a re-index cut short.
      const result = await judge([...chunksOf(A, 6, 0, 2), ...chunksOf(B, 3, 0, 1), ...chunksOf(C, 4)], read);
      const block = { urls_checked: 3, pages_missing_chunks: 2, missing_chunks: 6, urls: [A, B], source: read };
      expect(result.sections?.index_health?.missing_chunks).toEqual(block);
      expect(result.errors).toEqual([
        {
          id: 'id-1',
          validation_id: 'run-1',
          error_type: 'MISSING_CHUNKS',
          severity: 'HIGH',
          message: `2 page(s) hold fewer chunks than their indexer wrote (6 chunk(s) missing), e.g. ${A}`,
          details: block,
        },
      ]);
      expect(result.verdicts?.[0]).toMatchObject({ value: 2, passed: false, severity: 'HIGH' });
    },
  );

  it.each(['facet', 'scroll'] as const)('finds one chunk lost from the middle of a page (%s)', async (read) => {
    const result = await judge([...chunksOf(A, 5, 0, 2), ...chunksOf(A, 5, 3, 5)], read);
    expect(result.sections?.index_health?.missing_chunks).toMatchObject({ pages_missing_chunks: 1, missing_chunks: 1 });
  });

  it.each(['facet', 'scroll'] as const)(
    'does not call a stale leftover of an earlier, longer version a page missing chunks (%s)',
    async (read) => {
      // The page went from 4 chunks to 3: ids are per page and chunk index, so chunks 0-2 were overwritten and only
      // chunk 3 of the old version (declaring 4) is left. That is STALE_CHUNKS' finding, not lost text.
      const result = await judge([...chunksOf(A, 3), ...chunksOf(A, 4, 3, 4, 'h0')], read);
      expect(result.sections?.index_health?.missing_chunks).toMatchObject({
        pages_missing_chunks: 0,
        missing_chunks: 0,
      });
      // A page both cut and holding a leftover: its current version (the one holding most) is judged.
      const cut = await judge([...chunksOf(A, 6, 0, 2), ...chunksOf(A, 7, 6, 7, 'h0')], read);
      expect(cut.sections?.index_health?.missing_chunks).toMatchObject({ pages_missing_chunks: 1, missing_chunks: 4 });
    },
  );

  it('in the scroll, counts a chunk held twice once, so a repeat hides no lost chunk', async () => {
    const points = [...chunksOf(A, 3, 0, 2), point('again', { ...chunksOf(A, 3, 1, 2)[0]?.payload })];
    const result = await judge(points, 'scroll');
    expect(result.sections?.index_health?.missing_chunks).toMatchObject({ pages_missing_chunks: 1, missing_chunks: 1 });
  });

  it('does not judge pages whose points declare no chunk count (another indexer), and says so', async () => {
    const result = await judge([point('1'), point('2', { chunk_index: 1 }), ...chunksOf(B, 2, 0, 1)], 'scroll');
    expect(result.sections?.index_health?.missing_chunks).toEqual({
      urls_checked: 1,
      pages_missing_chunks: 1,
      missing_chunks: 1,
      urls: [B],
      source: 'scroll',
    });
  });

  it('is held to max_missing_chunk_pages on both sides of it', async () => {
    const points = [...chunksOf(A, 6, 0, 2), ...chunksOf(B, 3, 0, 1)];
    const at = await judge(points, 'facet', { max_missing_chunk_pages: 2 });
    const under = await judge(points, 'facet', { max_missing_chunk_pages: 1 });
    expect(at.verdicts?.[0]).toMatchObject({ value: 2, threshold: 2, passed: true });
    expect(under.verdicts?.[0]).toMatchObject({ value: 2, threshold: 1, passed: false });
  });

  it('lists at most 10 pages, and counts them all', async () => {
    const points = Array.from({ length: 12 }, (_, i) =>
      chunksOf(`${BASE}/p${String(i).padStart(2, '0')}`, 3, 0, 2),
    ).flat();
    const block = (await judge(points, 'facet')).sections?.index_health?.missing_chunks;
    expect([block?.pages_missing_chunks, block?.missing_chunks, block?.urls.length]).toEqual([12, 12, 10]);
  });
});

describe('missingChunksOf: the current version of a page', () => {
  it('is the version holding the most chunks, on a tie the one missing fewest', () => {
    expect(missingChunksOf([])).toBe(0);
    expect(missingChunksOf([{ held: 2, declared: 6 }])).toBe(4);
    expect(missingChunksOf([{ held: 2, declared: undefined }])).toBe(0);
    // Fewer held is never current, however few it misses (a leftover that declares as many as it holds).
    expect(
      missingChunksOf([
        { held: 3, declared: 5 },
        { held: 1, declared: 1 },
      ]),
    ).toBe(2);
    expect(
      missingChunksOf([
        { held: 1, declared: 4 },
        { held: 3, declared: 3 },
      ]),
    ).toBe(0);
    expect(
      missingChunksOf([
        { held: 3, declared: 3 },
        { held: 1, declared: 4 },
      ]),
    ).toBe(0);
    expect(
      missingChunksOf([
        { held: 2, declared: 5 },
        { held: 2, declared: 3 },
      ]),
    ).toBe(1);
    expect(
      missingChunksOf([
        { held: 2, declared: 3 },
        { held: 2, declared: 5 },
      ]),
    ).toBe(1);
    expect(
      missingChunksOf([
        { held: 2, declared: 3 },
        { held: 3, declared: 9 },
      ]),
    ).toBe(6);
  });
});
