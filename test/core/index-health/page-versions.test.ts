/**
 * The index inventory by facets (issue 20): the same figures as the scroll, for a constant number of facet requests
 * whatever the number of points, on a collection with the indexer's page_version and indexed_at keyword indexes.
 */
import { describe, expect, it } from 'vitest';
import { pageVersionKey, parsePageVersion } from '../../../functions/core/book/payload.ts';
import { freshnessCheck } from '../../../functions/core/index-health/freshness-check.ts';
import { indexInventory } from '../../../functions/core/index-health/inputs.ts';
import { missingChunksCheck } from '../../../functions/core/index-health/missing-chunks-check.ts';
import { readPageVersions } from '../../../functions/core/index-health/page-versions.ts';
import { staleChunksCheck } from '../../../functions/core/index-health/stale-chunks-check.ts';
import type { SitemapEntry } from '../../../functions/core/ports.ts';
import { collectionProfile } from '../../../functions/core/quality/inputs.ts';
import { earlierDay, hasPageIndexes } from '../../../functions/core/quality/page-inventory.ts';
import { MemoryIndex, type MemoryPoint } from '../../fakes/memory-index.ts';
import { runCheck } from '../../fakes/run-context.ts';
import { healthContext, point } from './context.ts';

const BASE = 'https://book.example.com/docs';
const A = `${BASE}/a`;
const B = `${BASE}/b`;
const C = `${BASE}/c d`;
const T1 = '2026-11-01T00:00:00.000Z';
const T2 = '2026-11-05T00:00:00.000Z';
const INDEXES = {
  source_url: 'keyword',
  token_count: 'integer',
  page_version: 'keyword',
  indexed_at: 'keyword',
} as const;

/** A point as the indexer writes it: its page_version names its page, page hash and the page's chunk count. */
const written = (id: string, url: string, chunk: number, chunks: number, extra: Record<string, unknown> = {}) => {
  const hash = typeof extra.page_hash === 'string' ? extra.page_hash : 'h1';
  return point(id, {
    source_url: url,
    chunk_index: chunk,
    page_version: pageVersionKey(url, hash, chunks),
    indexed_at: T2,
    ...extra,
  });
};

/** A page of `chunks` points, all of one version and time. */
const page = (url: string, chunks: number, extra: Record<string, unknown> = {}) =>
  Array.from({ length: chunks }, (_, i) => written(`${url}#${i}`, url, i, chunks, extra));

/** The profile's figures readPageVersions reads: here, only the count (no page without a version). */
const profiled = (totalPoints: number) => Promise.resolve({ totalPoints, distinctUrls: new Set<string>() });

/** Collections that exercise every figure: stale versions, repeats, several times, untimed points, orphans. */
const COLLECTIONS: Record<string, MemoryPoint[]> = {
  clean: [...page(A, 3), ...page(B, 2)],
  'a stale version left behind': [
    ...page(A, 3),
    written('old', A, 3, 4, { page_hash: 'h0', indexed_at: '2026-10-01T00:00:00.000Z' }),
    ...page(B, 2),
  ],
  'a chunk written twice': [...page(A, 2), written('again', A, 1, 2), ...page(B, 1)],
  // A cut to its first 2 of 5 chunks (and chunk 3 of B lost) with a leftover of an earlier, longer version of A.
  'pages missing chunks': [
    ...page(A, 5).slice(0, 2),
    written('old', A, 5, 6, { page_hash: 'h0' }),
    ...page(B, 4).filter((p) => p.payload.chunk_index !== 3),
  ],
  'two indexing times, one page partly confirmed': [
    ...page(A, 2, { indexed_at: T2 }),
    written('b0', B, 0, 2, { indexed_at: T2 }),
    written('b1', B, 1, 2, { indexed_at: T1 }),
    ...page(C, 1, { indexed_at: T1 }),
  ],
  'points without a time or a version': [
    ...page(A, 2),
    written('untimed', B, 0, 1, { indexed_at: undefined }),
    // As the sandbox's orphans: an older ingestion's points, with a URL but no version and no time.
    point('orphan', { source_url: C, page_hash: undefined, indexed_at: undefined }),
  ],
};

const SITEMAP: SitemapEntry[] = [A, B, C].flatMap((url) => [
  { url, lastmod: '2026-11-03T00:00:00.000Z' },
  { url: `${url}/other`, lastmod: '2026-11-03T00:00:00.000Z' },
]);

/**
 * How the inventory is read: by facets (every index), by its own scroll (the profile's indexes only), or riding the
 * profile's scroll (no payload index at all: both must read every point, in one pass).
 */
type Reading = 'facet' | 'scroll' | 'ride';
const READING_INDEXES: Record<Reading, Record<string, string>> = {
  facet: { ...INDEXES },
  scroll: { source_url: 'keyword', token_count: 'integer' },
  ride: {},
};

/** The checks' sections on this collection, by facets, by the inventory's own scroll or by the profile's. */
async function judged(points: MemoryPoint[], reading: Reading | boolean, partitions = 8) {
  const read: Reading = reading === true ? 'facet' : reading === false ? 'scroll' : reading;
  const setup = {
    points,
    sitemap: SITEMAP,
    // Pages of one point, so that every W really cuts these small collections into W parts.
    options: { scrollPageSize: 1, scrollPartitions: partitions },
    info: { payloadIndexes: { ...READING_INDEXES[read] } },
  };
  const stale = healthContext(setup);
  const fresh = healthContext(setup);
  const missing = healthContext(setup);
  const staleBlock = (await runCheck(staleChunksCheck, stale.ctx)).sections?.index_health?.stale_chunks;
  const freshBlock = (await runCheck(freshnessCheck, fresh.ctx)).sections?.index_health?.freshness;
  const missingBlock = (await runCheck(missingChunksCheck, missing.ctx)).sections?.index_health?.missing_chunks;
  // A run reads the profile whatever else it judges: its scroll, when it has one, counts beside the inventory's.
  await Promise.all([stale, fresh, missing].map((run) => run.ctx.input(collectionProfile)));
  return {
    stale: staleBlock,
    fresh: freshBlock,
    missing: missingBlock,
    calls: [...stale.index.calls, ...fresh.index.calls, ...missing.index.calls],
  };
}

describe('the index inventory by facets', () => {
  it.each(Object.entries(COLLECTIONS).flatMap(([name, points]) => [1, 2, 3, 8].map((w) => [name, w, points] as const)))(
    'gives the scroll’s figures for %s (scroll in %i parts), without scrolling',
    async (_, w, points) => {
      const byFacet = await judged(points, true, w);
      const byScroll = await judged(points, false, w);
      const { source: s1, ...staleByFacet } = byFacet.stale ?? { source: null };
      const { source: s2, ...staleByScroll } = byScroll.stale ?? { source: null };
      const { source: s3, ...freshByFacet } = byFacet.fresh ?? { source: null };
      const { source: s4, ...freshByScroll } = byScroll.fresh ?? { source: null };
      const { source: s5, ...missingByFacet } = byFacet.missing ?? { source: null };
      const { source: s6, ...missingByScroll } = byScroll.missing ?? { source: null };
      expect([s1, s2, s3, s4, s5, s6]).toEqual(['facet', 'scroll', 'facet', 'scroll', 'facet', 'scroll']);
      expect(missingByFacet).toEqual(missingByScroll);
      // Orphans without a source URL are the one difference: the facet counts every point without a version.
      expect(staleByFacet).toEqual(staleByScroll);
      expect(freshByFacet).toEqual(freshByScroll);
      expect(byFacet.calls).not.toContain('scroll');
      expect(byScroll.calls).toContain('scroll');
    },
  );

  it.each(Object.entries(COLLECTIONS).flatMap(([name, points]) => [1, 2, 3, 8].map((w) => [name, w, points] as const)))(
    'gives the same figures for %s riding the profile’s scroll (in %i parts), in as many scroll requests as its own',
    async (_, w, points) => {
      const own = await judged(points, 'scroll', w);
      const riding = await judged(points, 'ride', w);
      expect(riding.stale).toEqual(own.stale);
      expect(riding.fresh).toEqual(own.fresh);
      expect(riding.missing).toEqual(own.missing);
      expect(riding.stale?.source).toBe('scroll');
      // One scroll per run carries the profile and the inventory: no more pages than the inventory's own scroll.
      const scrolls = (calls: string[]) => calls.filter((c) => c === 'scroll').length;
      expect(scrolls(riding.calls)).toBe(scrolls(own.calls));
      expect(scrolls(riding.calls)).toBeGreaterThan(0);
    },
  );

  it('finds what each collection holds, so the comparison above is not of two empty answers', async () => {
    const figures = async (name: string) => {
      const { stale, fresh, missing } = await judged(COLLECTIONS[name] ?? [], true);
      return [
        stale?.urls_with_several_page_hashes,
        stale?.duplicate_chunks,
        stale?.points_without_page_hash,
        fresh?.stale_pages,
        missing?.missing_chunks,
      ];
    };
    expect(await figures('clean')).toEqual([0, 0, 0, 0, 0]);
    // The leftover (chunk 3 of a version declaring 4) is stale, not 3 chunks missing.
    expect(await figures('a stale version left behind')).toEqual([1, 0, 0, 1, 0]);
    expect(await figures('a chunk written twice')).toEqual([0, 1, 0, 0, 0]);
    // A holds 2 of the 5 its current version declares; B 3 of 4; A's old version's leftover counts for nothing.
    expect(await figures('pages missing chunks')).toEqual([1, 0, 0, 0, 4]);
    // B's oldest point is of T1 (before the lastmod), A's of T2 (after it), C's of T1.
    expect(await figures('two indexing times, one page partly confirmed')).toEqual([0, 0, 0, 2, 0]);
    expect(await figures('points without a time or a version')).toEqual([0, 0, 1, 0, 0]);
  });

  it('asks 2 facets when one run wrote every point, whatever the number of points', async () => {
    for (const pages of [2, 200]) {
      const points = Array.from({ length: pages }, (_, i) => page(`${BASE}/p${i}`, 5)).flat();
      const index = new MemoryIndex(points, { payloadIndexes: { ...INDEXES } });
      const inventory = await readPageVersions(index, profiled(points.length));
      expect(inventory?.pages.size).toBe(pages);
      expect(index.facets.map((f) => f.key)).toEqual(['page_version', 'indexed_at']);
      expect(index.calls).toEqual(['facet', 'facet']);
    }
  });

  it('asks one filtered facet per indexing time when there are several, or points without one', async () => {
    const index = new MemoryIndex(COLLECTIONS['two indexing times, one page partly confirmed'] ?? [], {});
    const inventory = await readPageVersions(index, profiled(5));
    expect(index.facets.slice(2).map((f) => f.filter)).toEqual([
      { must: [{ key: 'indexed_at', match: { value: T2 } }] },
      { must: [{ key: 'indexed_at', match: { value: T1 } }] },
    ]);
    expect([...(inventory?.pages ?? [])].map(([url, p]) => [url, p.oldestIndexedAt])).toEqual([
      [A, T2],
      [B, T1],
      [C, T1],
    ]);
    const untimed = new MemoryIndex(COLLECTIONS['points without a time or a version'] ?? [], {});
    const read = await readPageVersions(untimed, profiled(4));
    expect(untimed.facets).toHaveLength(3);
    expect(read?.pages.get(B)?.oldestIndexedAt).toBeUndefined();
    expect(read?.pages.get(A)?.oldestIndexedAt).toBe(T2);
  });

  it('gives up (the scroll answers) when a facet reaches its limit: it may have been cut short', async () => {
    const points = [...page(A, 2), ...page(B, 2)];
    const cut = async (limits: { versions: number; times: number }) =>
      readPageVersions(new MemoryIndex(points, {}), profiled(4), limits);
    expect(await cut({ versions: 2, times: 5 })).toBeUndefined();
    expect(await cut({ versions: 3, times: 1 })).toBeUndefined();
    expect((await cut({ versions: 3, times: 2 }))?.pages.size).toBe(2);
  });

  it('reads by facets only with both keyword indexes, else by the scroll', async () => {
    const info = (payloadIndexes: Record<string, string>) => ({
      name: 'book',
      vectorSize: 3,
      distance: 'Cosine',
      pointsCount: 0,
      payloadIndexes,
    });
    expect(hasPageIndexes(info({ page_version: 'keyword', indexed_at: 'keyword' }))).toBe(true);
    expect(hasPageIndexes(info({ page_version: 'keyword', indexed_at: 'datetime' }))).toBe(false);
    expect(hasPageIndexes(info({ page_version: 'keyword' }))).toBe(false);
    expect(hasPageIndexes(info({ indexed_at: 'keyword' }))).toBe(false);
    const { ctx, index, stages } = healthContext({
      points: page(A, 2),
      // The profile's own indexes: it answers by facets, so the inventory scrolls on its own.
      info: { payloadIndexes: { source_url: 'keyword', token_count: 'integer', page_version: 'keyword' } },
    });
    expect((await ctx.input(indexInventory)).source).toBe('scroll');
    expect([index.calls.includes('facet'), stages()]).toEqual([false, ['describe', 'inventory']]);
  });

  it('reads by facets as the step "page_facets", beside the profile, without the inventory scroll', async () => {
    const points = Array.from({ length: 3 }, (_, i) => page(`${BASE}/p${i}`, 1)).flat();
    const { ctx, stages } = healthContext({ points, info: { payloadIndexes: { ...INDEXES } } });
    expect((await ctx.input(indexInventory)).source).toBe('facet');
    expect(stages()).toEqual(['describe', 'page_facets', 'profile']);
  });

  it('falls back to the scroll when a facet answers as many values as it may (cut short)', async () => {
    const { ctx, index, stages } = healthContext({ points: page(A, 2), info: { payloadIndexes: { ...INDEXES } } });
    const facet = index.facet.bind(index);
    index.facet = async (key, limit, filter) =>
      key === 'page_version'
        ? Array.from({ length: limit }, (_, i) => ({ value: `v${i}`, count: 1 }))
        : facet(key, limit, filter);
    const inventory = await ctx.input(indexInventory);
    expect([inventory.source, inventory.pages.size]).toEqual(['scroll', 1]);
    expect(stages()).toEqual(['describe', 'inventory', 'page_facets', 'profile']);
  });

  it('counts points without a readable page_version, and ignores a value it cannot read', async () => {
    const points = [
      ...page(A, 2),
      point('odd', { source_url: B, page_version: 'no count here' }),
      // Not a keyword: an index of another type would answer numbers.
      point('number', { source_url: B, page_version: 7 }),
    ];
    const inventory = await readPageVersions(new MemoryIndex(points, {}), profiled(4));
    expect([inventory?.pages.size, inventory?.pointsWithoutPageHash]).toEqual([1, 2]);
  });
});

describe('the page_version keyword', () => {
  it('names the URL (spaces and all), the page hash and the chunk count, and reads back', () => {
    const key = pageVersionKey(C, 'abc123', 12);
    expect(key).toBe(`${C} abc123 12`);
    // No day: no updatedDay key at all, not one set to undefined.
    expect(parsePageVersion(key)).toStrictEqual({ sourceUrl: C, pageHash: 'abc123', chunks: 12 });
  });

  it('refuses what is not "<url> <hash> <count>"', () => {
    for (const bad of ['', 'abc', 'url hash', 'url hash x', 'url  3', ' hash 3', 'url hash -1', 'url hash 1234567890'])
      expect(parsePageVersion(bad)).toBeUndefined();
  });

  it('keeps the earliest last-update day of a page’s versions', () => {
    expect(earlierDay(undefined, undefined)).toBeUndefined();
    expect(earlierDay(undefined, '2026-11-01')).toBe('2026-11-01');
    expect(earlierDay('2026-11-01', undefined)).toBe('2026-11-01');
    expect(earlierDay('2026-11-01', '2026-10-31')).toBe('2026-10-31');
    expect(earlierDay('2026-10-31', '2026-11-01')).toBe('2026-10-31');
  });

  it('names the page’s last update day after the count when it is known, and reads it back', () => {
    const key = pageVersionKey(C, 'abc123', 12, '2026-11-01');
    expect(key).toBe(`${C} abc123 12 2026-11-01`);
    expect(parsePageVersion(key)).toEqual({ sourceUrl: C, pageHash: 'abc123', chunks: 12, updatedDay: '2026-11-01' });
    // A day alone is not a version, and a day where the count should be is refused.
    for (const bad of ['url hash 2026-11-01', '2026-11-01', 'url hash 3 2026-11-1'])
      expect(parsePageVersion(bad)).toBeUndefined();
    // A URL ending like a day is still the URL when the key has no day.
    expect(parsePageVersion(`${BASE}/2026-11-01 h 3`)).toEqual({
      sourceUrl: `${BASE}/2026-11-01`,
      pageHash: 'h',
      chunks: 3,
    });
  });
});
