import { describe, expect, it } from 'vitest';
import { staleChunksCheck } from '../../../functions/core/index-health/stale-chunks-check.ts';
import { runCheck } from '../../fakes/run-context.ts';
import { healthContext, point } from './context.ts';

const A = 'https://book.example.com/docs/a';
const B = 'https://book.example.com/docs/b';

describe('the stale-chunks check', () => {
  it('finds nothing in pages with one page hash and distinct chunk indexes, and passes its criterion', async () => {
    const { ctx } = healthContext({
      points: [point('1', { chunk_index: 0 }), point('2', { chunk_index: 1 }), point('3', { source_url: B })],
    });
    const result = await runCheck(staleChunksCheck, ctx);
    expect(result.sections?.index_health?.stale_chunks).toEqual({
      urls_checked: 2,
      stale_pages: 0,
      urls_with_several_page_hashes: 0,
      duplicate_chunks: 0,
      points_without_page_hash: 0,
      urls: [],
      source: 'scroll',
    });
    expect(result.errors).toEqual([]);
    expect(result.verdicts).toEqual([
      {
        name: 'stale_chunk_pages',
        description: 'Pages holding stale or duplicate chunks',
        value: 0,
        threshold: 0,
        comparator: '<=',
        passed: true,
        severity: 'HIGH',
      },
    ]);
  });

  it('reports a page whose points carry two page hashes as STALE_CHUNKS, high, naming it', async () => {
    const { ctx } = healthContext({
      points: [point('1'), point('2', { chunk_index: 1, page_hash: 'h0' }), point('3', { source_url: B })],
    });
    const result = await runCheck(staleChunksCheck, ctx);
    expect(result.sections?.index_health?.stale_chunks).toMatchObject({
      urls_checked: 2,
      stale_pages: 1,
      urls_with_several_page_hashes: 1,
      duplicate_chunks: 0,
      urls: [A],
    });
    expect(result.errors).toEqual([
      {
        id: 'id-1',
        validation_id: 'run-1',
        error_type: 'STALE_CHUNKS',
        severity: 'HIGH',
        message: `1 page(s) hold stale or duplicate chunks (1 with several page hashes, 0 repeated chunk indexes), e.g. ${A}`,
        details: result.sections?.index_health?.stale_chunks,
      },
    ]);
    expect(result.verdicts?.[0]).toMatchObject({ value: 1, passed: false });
  });

  it('reports a repeated chunk index of a page, counting each repeat', async () => {
    const { ctx } = healthContext({
      points: [point('1'), point('2'), point('3'), point('4', { source_url: B, chunk_index: 1 })],
    });
    const result = await runCheck(staleChunksCheck, ctx);
    expect(result.sections?.index_health?.stale_chunks).toMatchObject({
      stale_pages: 1,
      urls_with_several_page_hashes: 0,
      duplicate_chunks: 2,
      urls: [A],
    });
    expect(result.errors[0]?.message).toBe(
      `1 page(s) hold stale or duplicate chunks (0 with several page hashes, 2 repeated chunk indexes), e.g. ${A}`,
    );
  });

  it('counts points without a page hash without calling their page stale', async () => {
    const { ctx } = healthContext({ points: [point('1', { page_hash: undefined }), point('2', { chunk_index: 1 })] });
    const result = await runCheck(staleChunksCheck, ctx);
    expect(result.sections?.index_health?.stale_chunks).toMatchObject({
      points_without_page_hash: 1,
      stale_pages: 0,
    });
    expect(result.errors).toEqual([]);
  });

  it('lists at most 10 stale pages, in scroll order, and counts them all', async () => {
    const points = Array.from({ length: 11 }, (_, i) => [
      point(`${i}a`, { source_url: `${A}${i}` }),
      point(`${i}b`, { source_url: `${A}${i}`, chunk_index: 1, page_hash: 'old' }),
    ]).flat();
    const result = await runCheck(staleChunksCheck, healthContext({ points }).ctx);
    const block = result.sections?.index_health?.stale_chunks;
    expect(block?.stale_pages).toBe(11);
    expect(block?.urls).toEqual(Array.from({ length: 10 }, (_, i) => `${A}${i}`));
    expect(result.errors[0]?.message).toContain('11 page(s)');
  });

  it('judges the stale pages against max_stale_chunk_pages on both sides of equality', async () => {
    const points = [point('1'), point('2', { page_hash: 'h0', chunk_index: 1 })];
    const at = await runCheck(staleChunksCheck, healthContext({ points, criteria: { max_stale_chunk_pages: 1 } }).ctx);
    expect(at.verdicts?.[0]).toMatchObject({ value: 1, threshold: 1, passed: true });
    const under = await runCheck(
      staleChunksCheck,
      healthContext({ points, criteria: { max_stale_chunk_pages: 0 } }).ctx,
    );
    expect(under.verdicts?.[0]).toMatchObject({ value: 1, threshold: 0, passed: false });
  });

  it('says the inventory could not be read when the scroll fails but the collection is readable', async () => {
    const { ctx, index } = healthContext({ points: [point('1')] });
    index.failWith.scroll = new Error('scroll refused');
    const result = await runCheck(staleChunksCheck, ctx);
    expect(result).toMatchObject({ status: null, errors: [], failures: ['index inventory: scroll refused'] });
  });

  it('says nothing of the inventory when the collection itself cannot be read: that is reported once, as the profile', async () => {
    const { ctx, index } = healthContext({ points: [point('1')] });
    index.failWith.scroll = new Error('down');
    index.failWith.count = new Error('down');
    expect(await runCheck(staleChunksCheck, ctx)).toMatchObject({
      status: null,
      errors: [{ error_type: 'RETRIEVAL_FAILED', message: 'could not read the collection: down' }],
      failures: ['index profile: down'],
    });
  });
});
