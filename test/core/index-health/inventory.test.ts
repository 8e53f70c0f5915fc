import { describe, expect, it } from 'vitest';
import { INVENTORY_FIELDS } from '../../../functions/core/book/payload.ts';
import { indexInventory } from '../../../functions/core/index-health/inputs.ts';
import { sampleRank } from '../../../functions/core/index-health/inventory.ts';
import { healthContext, point } from './context.ts';

const A = 'https://book.example.com/docs/a';

describe('the index inventory', () => {
  it('reads every point once, in pages of scrollPageSize, asking for five small fields only', async () => {
    const { ctx, index } = healthContext({
      points: [point('1'), point('2', { chunk_index: 1 }), point('3', { chunk_index: 2 })],
      options: { scrollPageSize: 2 },
    });
    const seen: { payloadFields: string[]; pageSize: number }[] = [];
    const scroll = index.scroll.bind(index);
    index.scroll = (options) => {
      seen.push(options);
      return scroll(options);
    };
    const inventory = await ctx.input(indexInventory);
    expect(inventory.points).toBe(3);
    expect(seen).toEqual([{ payloadFields: INVENTORY_FIELDS, pageSize: 2 }]);
    expect(INVENTORY_FIELDS).toEqual(['source_url', 'page_hash', 'chunk_index', 'model_version', 'indexed_at']);
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
    const [first, second] = await Promise.all([ctx.input(indexInventory), ctx.input(indexInventory)]);
    expect(first).toBe(second);
    expect(sizes).toEqual([1000]);
    expect(stages()).toEqual(['inventory']);
  });

  it('keeps per page its hashes, chunk indexes, repeats and the oldest readable indexed_at', async () => {
    const { ctx } = healthContext({
      points: [
        point('1', { indexed_at: '2026-11-02T00:00:00.000Z' }),
        point('2', { chunk_index: 1, page_hash: 'h2', indexed_at: '2026-11-01T00:00:00.000Z' }),
        point('3', { chunk_index: 1, indexed_at: '2026-11-03T00:00:00.000Z' }),
        point('4', { chunk_index: 'two', page_hash: 7, indexed_at: 'never' }),
      ],
    });
    const page = (await ctx.input(indexInventory)).pages.get(A);
    expect(page).toEqual({
      pageHashes: new Set(['h1', 'h2']),
      chunkIndexes: new Set([0, 1]),
      duplicateChunks: 1,
      oldestIndexedAt: '2026-11-01T00:00:00.000Z',
    });
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
    const inventory = await ctx.input(indexInventory);
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

  it('samples the ids of smallest rank, whatever the scroll order', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `point-${i}`);
    const expected = [...ids].sort((a, b) => sampleRank(a) - sampleRank(b)).slice(0, 8);
    const sample = async (order: string[], canarySample?: number) =>
      (
        await healthContext({
          points: order.map((id) => point(id)),
          ...(canarySample === undefined ? {} : { options: { indexHealth: { canarySample } } }),
        }).ctx.input(indexInventory)
      ).sampleIds;
    expect(await sample(ids)).toEqual(expected);
    expect(await sample([...ids].reverse())).toEqual(expected);
    expect(await sample(ids, 2)).toEqual(expected.slice(0, 2));
    expect(await sample(ids, 0)).toEqual([]);
    expect(await sample(ids.slice(0, 3), 8)).toHaveLength(3);
  });

  it('breaks a tie of ranks (a hash collision) by id, whatever the scroll order', async () => {
    // Two ids with the same FNV-1a hash, found by search.
    expect(sampleRank('c693596')).toBe(sampleRank('c1170850'));
    const sample = async (order: string[]) =>
      (
        await healthContext({
          points: order.map((id) => point(id)),
          options: { indexHealth: { canarySample: 1 } },
        }).ctx.input(indexInventory)
      ).sampleIds;
    expect(await sample(['c693596', 'c1170850'])).toEqual(['c1170850']);
    expect(await sample(['c1170850', 'c693596'])).toEqual(['c1170850']);
  });

  it('ranks ids by their 32-bit FNV-1a hash', () => {
    expect([sampleRank(''), sampleRank('a'), sampleRank('foobar')]).toEqual([0x811c9dc5, 0xe40c292c, 0xbf9cf968]);
  });
});
