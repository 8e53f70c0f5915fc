import { describe, expect, it } from 'vitest';
import { INVENTORY_FIELDS } from '../../../functions/core/book/payload.ts';
import { embeddingModels, indexInventory, scrolledInventory } from '../../../functions/core/index-health/inputs.ts';
import type { ScrollOptions } from '../../../functions/core/ports.ts';
import { collectionProfile } from '../../../functions/core/quality/inputs.ts';
import { ChunkBits } from '../../../functions/core/quality/page-inventory.ts';
import { healthContext, point } from './context.ts';

const A = 'https://book.example.com/docs/a';

describe('the index inventory', () => {
  it('reads every point once, in pages of scrollPageSize, asking for six small fields only, in 8 parts sized by the described count', async () => {
    const { ctx, index } = healthContext({
      points: [point('1'), point('2', { chunk_index: 1 }), point('3', { chunk_index: 2 })],
      options: { scrollPageSize: 2 },
    });
    const seen: ScrollOptions[] = [];
    const scroll = index.scroll.bind(index);
    index.scroll = (options) => {
      seen.push(options);
      return scroll(options);
    };
    const inventory = await ctx.input(scrolledInventory);
    expect(inventory.points).toBe(3);
    expect(seen).toEqual([
      { payloadFields: INVENTORY_FIELDS, pageSize: 2, parallel: { partitions: 8, expectedPoints: 3 } },
    ]);
    expect(INVENTORY_FIELDS).toEqual([
      'source_url',
      'page_hash',
      'page_version',
      'chunk_index',
      'model_version',
      'indexed_at',
    ]);
    expect(index.calls.filter((c) => c === 'scroll')).toHaveLength(2);
  });

  it('scrolls in pages of 1000 by default, once however many checks ask, as the step "inventory"', async () => {
    const { ctx, index, stages } = healthContext({ points: [point('1')] });
    const sizes: number[] = [];
    const scroll = index.scroll.bind(index);
    index.scroll = (options) => {
      sizes.push(options.pageSize);
      return scroll(options);
    };
    const [first, second, scrolled] = await Promise.all([
      ctx.input(indexInventory),
      ctx.input(indexInventory),
      ctx.input(scrolledInventory),
    ]);
    expect(first).toBe(second);
    expect(first).toBe(scrolled);
    expect(first.source).toBe('scroll');
    expect(sizes).toEqual([1000]);
    expect(stages()).toEqual(['describe', 'inventory']);
  });

  it('rides the profile’s one scroll when both must read every point: the union of the fields, no step of its own', async () => {
    const { ctx, index, stages } = healthContext({
      points: [point('1'), point('2', { chunk_index: 1 }), point('3', { chunk_index: 1 })],
      info: { payloadIndexes: {} },
      options: { scrollPageSize: 2 },
    });
    const seen: ScrollOptions[] = [];
    const scroll = index.scroll.bind(index);
    index.scroll = (options) => {
      seen.push(options);
      return scroll(options);
    };
    const [inventory, models, profile] = await Promise.all([
      ctx.input(indexInventory),
      ctx.input(embeddingModels),
      ctx.input(collectionProfile),
    ]);
    expect(seen).toEqual([
      {
        payloadFields: ['source_url', 'token_count', ...INVENTORY_FIELDS.filter((f) => f !== 'source_url')],
        pageSize: 2,
        parallel: { partitions: 8, expectedPoints: 3 },
      },
    ]);
    expect(index.calls.filter((c) => c === 'scroll')).toHaveLength(2);
    expect(stages()).toEqual(['describe', 'profile']);
    expect(inventory).toBe(profile.inventory);
    expect(inventory.source).toBe('scroll');
    expect(inventory.pages.get(A)?.duplicateChunks).toBe(1);
    expect(models).toEqual({ models: new Map([['embed-english-v3.0', 3]]), source: 'scroll' });
    expect(profile.pointsScanned).toBe(3);
  });

  it('scrolls on its own where the profile answers by facets, and not at all where the page facets answer', async () => {
    const own = healthContext({ points: [point('1')] });
    await Promise.all([own.ctx.input(indexInventory), own.ctx.input(collectionProfile)]);
    expect(own.stages()).toEqual(['describe', 'inventory', 'profile']);
    expect((await own.ctx.input(collectionProfile)).inventory).toBeUndefined();

    // The profile scrolls (no source_url index) but the inventory has its facets: the profile's scroll stays small.
    const faceted = healthContext({
      points: [point('1')],
      info: { payloadIndexes: { page_version: 'keyword', indexed_at: 'keyword' } },
    });
    const fields: string[][] = [];
    const scroll = faceted.index.scroll.bind(faceted.index);
    faceted.index.scroll = (options) => {
      fields.push(options.payloadFields);
      return scroll(options);
    };
    const [inventory, profile] = await Promise.all([
      faceted.ctx.input(indexInventory),
      faceted.ctx.input(collectionProfile),
    ]);
    expect(inventory.source).toBe('facet');
    expect(profile.inventory).toBeUndefined();
    expect(fields).toEqual([['source_url', 'token_count']]);
  });

  it('fails with the profile when it rides its scroll: one outage, reported once, by the profile', async () => {
    const { ctx, index } = healthContext({ points: [point('1')], info: { payloadIndexes: {} } });
    index.failWith.scroll = new Error('scroll refused');
    await expect(ctx.input(collectionProfile)).rejects.toThrow('scroll refused');
    await expect(ctx.input(scrolledInventory)).rejects.toThrow('scroll refused');
    expect(index.calls.filter((c) => c === 'scroll')).toHaveLength(1);
  });

  it('keeps per page its hashes, the chunks a version repeats and the oldest readable indexed_at', async () => {
    const { ctx } = healthContext({
      points: [
        point('1', { indexed_at: '2026-11-02T00:00:00.000Z' }),
        point('2', { chunk_index: 1, page_hash: 'h2', indexed_at: '2026-11-01T00:00:00.000Z' }),
        point('3', { chunk_index: 1, indexed_at: '2026-11-03T00:00:00.000Z' }),
        point('4', { chunk_index: 1, indexed_at: '2026-11-03T00:00:00.000Z' }),
        point('5', { chunk_index: 'two', page_hash: 7, indexed_at: 'never' }),
      ],
    });
    const page = (await ctx.input(indexInventory)).pages.get(A);
    // Chunk 1 of version h1 twice is a duplicate; chunk 1 of h2 is the stale version's, not a duplicate.
    expect(page).toEqual({
      pageHashes: new Set(['h1', 'h2']),
      duplicateChunks: 1,
      missingChunks: 0,
      declaresChunks: false,
      oldestIndexedAt: '2026-11-01T00:00:00.000Z',
    });
  });

  it('counts a chunk repeated among points without a page hash, and never a point without a chunk index', async () => {
    const { ctx } = healthContext({
      points: [
        point('1', { page_hash: undefined, chunk_index: 3 }),
        point('2', { page_hash: undefined, chunk_index: 3 }),
        point('3', { chunk_index: undefined }),
        point('4', { chunk_index: undefined }),
        point('5', { chunk_index: 'x' }),
        point('6', { chunk_index: 'x' }),
      ],
    });
    const inventory = await ctx.input(indexInventory);
    expect([inventory.pages.get(A)?.duplicateChunks, inventory.pointsWithoutPageHash]).toEqual([1, 2]);
  });

  it('reads a page_version it cannot parse as declaring no count, without failing', async () => {
    const { ctx } = healthContext({
      points: [point('1', { page_version: 'not a version' }), point('2', { chunk_index: 1, page_version: 7 })],
    });
    const inventory = await ctx.input(indexInventory);
    expect(inventory.pages.get(A)).toMatchObject({ declaresChunks: false, missingChunks: 0, duplicateChunks: 0 });
  });

  it('finds a repeat at any chunk index: bitmap edges, a grown bitmap, past its limit, negative and fractional', async () => {
    const indexes = [0, 1, 31, 32, 63, 64, 1_000, 65_535, 65_536, 2 ** 31, -1, 1.5];
    const once = indexes.map((chunk_index, i) => point(`a${i}`, { chunk_index }));
    const twice = indexes.map((chunk_index, i) => point(`b${i}`, { chunk_index }));
    // The same indexes under another version and another page: no repeat within a version there.
    const elsewhere = indexes.flatMap((chunk_index, i) => [
      point(`c${i}`, { chunk_index, page_hash: 'h2' }),
      point(`d${i}`, { chunk_index, source_url: `${A}/other` }),
    ]);
    const { ctx } = healthContext({ points: [...once, ...elsewhere, ...twice] });
    const inventory = await ctx.input(indexInventory);
    expect(inventory.pages.get(A)?.duplicateChunks).toBe(indexes.length);
    expect(inventory.pages.get(`${A}/other`)?.duplicateChunks).toBe(0);
    const first = healthContext({ points: [...once, ...elsewhere] });
    expect((await first.ctx.input(indexInventory)).pages.get(A)?.duplicateChunks).toBe(0);
  });

  it('keeps chunk indexes below 65,536 as bits, growing by doubling, and any other index in a set', () => {
    const bits = new ChunkBits();
    expect(bits.size).toEqual({ words: 2, others: 0 });
    expect([bits.mark(63), bits.mark(63)]).toEqual([false, true]);
    expect(bits.size).toEqual({ words: 2, others: 0 });
    bits.mark(64);
    expect(bits.size).toEqual({ words: 4, others: 0 });
    bits.mark(1_000);
    expect(bits.size).toEqual({ words: 32, others: 0 });
    bits.mark(65_535);
    expect(bits.size).toEqual({ words: 2_048, others: 0 });
    // Past the bitmap, negative or fractional: a set, however large the index (no array sized by a hostile payload).
    for (const index of [65_536, 2 ** 31, -1, 1.5, 0.5])
      expect([bits.mark(index), bits.mark(index)]).toEqual([false, true]);
    expect(bits.size).toEqual({ words: 2_048, others: 5 });
    // Each distinct index counted once, whichever store holds it (63, 64, 1,000, 65,535 and the five above).
    expect(bits.distinct).toBe(9);
    expect([bits.mark(0), bits.mark(1)]).toEqual([false, false]);
    expect(bits.distinct).toBe(11);
    // Index 0 is the bitmap's first bit, not the set's.
    expect(bits.size).toEqual({ words: 2_048, others: 5 });
  });

  it('scrolls one page after the other, in pages of scrollPageSize, when the collection cannot be described', async () => {
    const { ctx, index } = healthContext({ points: [point('1')], options: { scrollPageSize: 2 } });
    index.failWith.describe = new Error('describe refused');
    const seen: ScrollOptions[] = [];
    const scroll = index.scroll.bind(index);
    index.scroll = (options) => {
      seen.push(options);
      return scroll(options);
    };
    expect((await ctx.input(scrolledInventory)).points).toBe(1);
    expect(seen).toEqual([{ payloadFields: INVENTORY_FIELDS, pageSize: 2 }]);
  });

  it('keeps the first of two ways of writing the same oldest instant', async () => {
    const { ctx } = healthContext({
      points: [
        point('1', { indexed_at: '2026-11-01T00:00:00Z' }),
        point('2', { indexed_at: '2026-11-01T00:00:00.000Z' }),
      ],
    });
    expect((await ctx.input(indexInventory)).pages.get(A)?.oldestIndexedAt).toBe('2026-11-01T00:00:00Z');
  });

  it('leaves a page without a readable indexed_at undated', async () => {
    const { ctx } = healthContext({ points: [point('1', { indexed_at: undefined }), point('2', { indexed_at: 'x' })] });
    expect((await ctx.input(indexInventory)).pages.get(A)?.oldestIndexedAt).toBeUndefined();
  });

  it('counts models (a point without a string model_version as "(none)") and points without a page hash', async () => {
    const { ctx } = healthContext({
      points: [
        point('1'),
        point('2', { model_version: 'v2', page_hash: undefined }),
        point('3', { model_version: 3, source_url: undefined, page_hash: undefined }),
      ],
    });
    const inventory = await ctx.input(scrolledInventory);
    expect(inventory.models).toEqual(
      new Map([
        ['embed-english-v3.0', 1],
        ['v2', 1],
        ['(none)', 1],
      ]),
    );
    // A point without a source URL belongs to no page, and is not counted as lacking a page hash.
    expect([inventory.points, inventory.pages.size, inventory.pointsWithoutPageHash]).toEqual([3, 1, 1]);
  });
});
