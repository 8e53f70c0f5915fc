/** The benchmark's synthetic book: deterministic, the shape of the indexer's payload, and its drift on purpose. */
import { describe, expect, it } from 'vitest';
import {
  generateSuite,
  pageUrl,
  SYNTHETIC_PAGES,
  syntheticPoints,
  syntheticSitemapXml,
} from '../../bench/synthetic-book.ts';
import { parseSuite } from '../../functions/core/suite/suite.ts';

describe('syntheticPoints', () => {
  it('yields ids 1..P in batches, with vectors of the asked size and the indexer’s eleven payload fields', () => {
    const batches = [...syntheticPoints({ total: 25, dimensions: 8, batchSize: 10 })];

    expect(batches.map((b) => b.length)).toEqual([10, 10, 5]);
    const points = batches.flat();
    expect(points.map((p) => p.id)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(points.every((p) => p.vector.length === 8)).toBe(true);
    expect(Object.keys(points[0]?.payload ?? {}).sort()).toEqual([
      'chapter_id',
      'chunk_index',
      'chunk_text',
      'heading_hierarchy',
      'indexed_at',
      'model_version',
      'module_name',
      'page_hash',
      'page_version',
      'source_url',
      'token_count',
    ]);
  });

  it('declares in each page_version the number of chunks its page holds: every version whole', () => {
    const points = [...syntheticPoints({ total: SYNTHETIC_PAGES + 3, dimensions: 2 })].flat();
    const held = new Map<unknown, number>();
    for (const p of points) held.set(p.payload?.page_version, (held.get(p.payload?.page_version) ?? 0) + 1);
    for (const [version, count] of held) expect(String(version).endsWith(` ${count}`)).toBe(true);
    expect(held.get(points[0]?.payload?.page_version)).toBe(2);
    expect(held.get(points[3]?.payload?.page_version)).toBe(1);
  });

  it('builds the same points for the same size', () => {
    const first = [...syntheticPoints({ total: 50, dimensions: 4 })].flat();
    const second = [...syntheticPoints({ total: 50, dimensions: 4 })].flat();

    expect(second.map((p) => [Array.from(p.vector), p.payload])).toEqual(
      first.map((p) => [Array.from(p.vector), p.payload]),
    );
  });

  it('leaves chapter_id out of one point in 997, as an older ingestion would', () => {
    const points = [...syntheticPoints({ total: 2_000, dimensions: 2 })].flat();

    expect(points.filter((p) => p.payload?.chapter_id === undefined).map((p) => p.id)).toEqual([997, 1_994]);
  });

  it('spreads the points over the pages round-robin, so every page exists once P reaches the page count', () => {
    const points = [...syntheticPoints({ total: SYNTHETIC_PAGES, dimensions: 2 })].flat();

    expect(new Set(points.map((p) => p.payload?.source_url)).size).toBe(SYNTHETIC_PAGES);
  });
});

describe('syntheticSitemapXml', () => {
  it('lists every page but one in 500', () => {
    const xml = syntheticSitemapXml(1_000);

    expect(xml.match(/<loc>/g)).toHaveLength(998);
    expect(xml).toContain(`<loc>${pageUrl(0)}</loc>`);
    expect(xml).not.toContain(`<loc>${pageUrl(499)}</loc>`);
  });
});

describe('generateSuite', () => {
  it('writes a valid suite of the asked size, with distinct ids, from the sample book’s words', () => {
    const suite = parseSuite(JSON.stringify(generateSuite(200)), 'generated.json');

    expect(suite.queries).toHaveLength(200);
    expect(new Set(suite.queries.map((q) => q.id)).size).toBe(200);
    expect(suite.queries.every((q) => !q.agent)).toBe(true);
  });
});
