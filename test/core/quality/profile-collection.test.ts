import { describe, expect, it } from 'vitest';
import type { Payload } from '../../../functions/core/ports.ts';
import { isPresent, profileCollection, profileScrolls } from '../../../functions/core/quality/profile-collection.ts';
import { IndexError } from '../../../functions/core/shared/errors.ts';
import { MemoryIndex, type MemoryPoint } from '../../fakes/memory-index.ts';

const FIELDS = ['source_url', 'chapter_id', 'token_count', 'heading_hierarchy'];

function point(i: number, payload: Record<string, unknown>): MemoryPoint {
  return { id: String(i), payload };
}

/** Five points: two URLs; one point lacks chapter_id, one has an empty heading_hierarchy, one a null token_count. */
const POINTS = [
  point(1, { source_url: 'https://b/docs/a', chapter_id: 'a', token_count: 100, heading_hierarchy: ['A'] }),
  point(2, { source_url: 'https://b/docs/a', chapter_id: 'a', token_count: 300, heading_hierarchy: ['A', 'x'] }),
  point(3, { source_url: 'https://b/docs/b', token_count: 300, heading_hierarchy: ['B'] }),
  point(4, { source_url: 'https://b/docs/b', chapter_id: 'b', token_count: 200, heading_hierarchy: [] }),
  point(5, { source_url: 'https://b/docs/b', chapter_id: 'b', token_count: null, heading_hierarchy: ['B'] }),
];

const EXPECTED_FIELDS = [
  { field: 'source_url', present: 5, missing: 0, completeness_rate: 100 },
  { field: 'chapter_id', present: 4, missing: 1, completeness_rate: 80 },
  { field: 'token_count', present: 4, missing: 1, completeness_rate: 80 },
  { field: 'heading_hierarchy', present: 4, missing: 1, completeness_rate: 80 },
];

describe('profileCollection', () => {
  it('uses facets and counts when source_url and token_count are indexed, scanning nothing', async () => {
    // Prepare
    const index = new MemoryIndex(POINTS, { payloadIndexes: { source_url: 'keyword', token_count: 'integer' } });

    // Act
    const profile = await profileCollection({ index, info: index.info, requiredFields: FIELDS });

    // Assess
    expect(profile).toEqual({
      totalPoints: 5,
      completePoints: 2,
      fieldCompleteness: EXPECTED_FIELDS,
      distinctUrls: new Set(['https://b/docs/a', 'https://b/docs/b']),
      tokenHistogram: new Map([
        [300, 2],
        [100, 1],
        [200, 1],
      ]),
      sources: { urls: 'facet', completeness: 'count', tokens: 'facet' },
      pointsScanned: 0,
      notes: [],
    });
    // total + complete + one per field; two facets; no scroll.
    expect(index.calls.filter((c) => c === 'count')).toHaveLength(2 + FIELDS.length);
    expect(index.calls.filter((c) => c === 'facet')).toHaveLength(2);
    expect(index.calls).not.toContain('scroll');
  });

  it('reads URLs and tokens in one scroll when no payload index exists, and says so', async () => {
    // Prepare
    const index = new MemoryIndex(POINTS);

    // Act
    const profile = await profileCollection({ index, info: index.info, requiredFields: FIELDS, pageSize: 2 });

    // Assess
    expect(profile.distinctUrls).toEqual(new Set(['https://b/docs/a', 'https://b/docs/b']));
    expect(profile.tokenHistogram).toEqual(
      new Map([
        [100, 1],
        [300, 2],
        [200, 1],
      ]),
    );
    expect(profile.sources).toEqual({ urls: 'scroll', completeness: 'count', tokens: 'scroll' });
    expect(profile.pointsScanned).toBe(5);
    expect(index.calls.filter((c) => c === 'scroll')).toHaveLength(3); // pages of 2, 2 and 1
    expect(profile.notes).toEqual([
      'no keyword payload index on source_url: read by scroll (create one to let Qdrant aggregate it)',
      'no integer payload index on token_count: read by scroll (create one to let Qdrant aggregate it)',
    ]);
  });

  it('hands every point to a rider in its one scroll, reading the union of both field lists', async () => {
    // Prepare
    const index = new MemoryIndex(POINTS);
    const scrolled: string[][] = [];
    const scroll = index.scroll.bind(index);
    index.scroll = (options) => {
      scrolled.push(options.payloadFields);
      return scroll(options);
    };
    const seen: Payload[] = [];
    const rider = { fields: ['source_url', 'chapter_id'], add: (payload: Payload) => seen.push(payload) };

    // Act
    const profile = await profileCollection({ index, info: index.info, requiredFields: FIELDS, pageSize: 2, rider });

    // Assess: one scroll (3 pages of 2), each point to both, the rider's fields after the profile's, none twice.
    expect(scrolled).toEqual([['source_url', 'token_count', 'chapter_id']]);
    expect(index.calls.filter((c) => c === 'scroll')).toHaveLength(3);
    expect(seen.map((p) => p.chapter_id)).toEqual(['a', 'a', undefined, 'b', 'b']);
    expect(profile.pointsScanned).toBe(5);
    expect(profile.tokenHistogram.get(300)).toBe(2);
  });

  it('hands a rider nothing when facets and counts answer everything (no scroll)', async () => {
    // Prepare
    const index = new MemoryIndex(POINTS, { payloadIndexes: { source_url: 'keyword', token_count: 'integer' } });
    const seen: Payload[] = [];

    // Act
    const profile = await profileCollection({
      index,
      info: index.info,
      requiredFields: FIELDS,
      rider: { fields: ['chapter_id'], add: (payload) => seen.push(payload) },
    });

    // Assess
    expect(seen).toEqual([]);
    expect(index.calls).not.toContain('scroll');
    expect(profile.sources).toEqual({ urls: 'facet', completeness: 'count', tokens: 'facet' });
  });

  it('knows from the description alone that it will scroll: a field it aggregates lacks its kind of index', () => {
    const info = (payloadIndexes: Record<string, string>) => ({ ...new MemoryIndex([]).info, payloadIndexes });
    expect(profileScrolls(info({ source_url: 'keyword', token_count: 'integer' }))).toBe(false);
    expect(profileScrolls(info({ source_url: 'keyword' }))).toBe(true);
    expect(profileScrolls(info({ token_count: 'integer' }))).toBe(true);
    expect(profileScrolls(info({ source_url: 'text', token_count: 'integer' }))).toBe(true);
    expect(profileScrolls(info({ source_url: 'keyword', token_count: 'float' }))).toBe(true);
    expect(profileScrolls(info({}))).toBe(true);
    // Other field names, as profileCollection takes them.
    const fields = { urlField: 'chapter_id', tokenField: 'chunk_index' } as const;
    expect(profileScrolls(info({ chapter_id: 'keyword', chunk_index: 'integer' }), fields)).toBe(false);
    expect(profileScrolls(info({ source_url: 'keyword', token_count: 'integer' }), fields)).toBe(true);
  });

  it('falls back to the scroll when a facet returns as many values as its limit', async () => {
    // Prepare
    const index = new MemoryIndex(POINTS, { payloadIndexes: { source_url: 'keyword', token_count: 'integer' } });

    // Act
    const profile = await profileCollection({ index, info: index.info, requiredFields: FIELDS, facetLimit: 2 });

    // Assess: two URLs fill a limit of 2, so they might be cut short; three token values certainly are.
    expect(profile.sources).toEqual({ urls: 'scroll', completeness: 'count', tokens: 'scroll' });
    expect(profile.tokenHistogram.get(300)).toBe(2);
    expect(profile.notes[0]).toBe(
      'facet on source_url returned 2 values, the limit; read by scroll instead so none is missed',
    );
  });

  it('computes completeness by scroll when a strict-mode Qdrant refuses count filters', async () => {
    // Prepare
    const index = new MemoryIndex(POINTS, { payloadIndexes: { source_url: 'keyword', token_count: 'integer' } });
    index.failWith.count = new IndexError('Qdrant count failed with 400: Bad request: Index required', 'bad_request');

    // Act
    const profile = await profileCollection({ index, info: index.info, requiredFields: FIELDS });

    // Assess
    expect(profile.sources).toEqual({ urls: 'facet', completeness: 'scroll', tokens: 'facet' });
    expect(profile.fieldCompleteness).toEqual(EXPECTED_FIELDS);
    expect(profile.completePoints).toBe(2);
  });

  it('scrolls only for the figure a facet could not give, reading only that field', async () => {
    // Prepare: source_url is indexed, token_count is not.
    const index = new MemoryIndex(POINTS, { payloadIndexes: { source_url: 'keyword' } });
    const scrolled: string[][] = [];
    const scroll = index.scroll.bind(index);
    index.scroll = (options) => {
      scrolled.push(options.payloadFields);
      return scroll(options);
    };

    // Act
    const profile = await profileCollection({ index, info: index.info, requiredFields: FIELDS });

    // Assess
    expect(scrolled).toEqual([['token_count']]);
    expect(profile).toMatchObject({
      sources: { urls: 'facet', completeness: 'count', tokens: 'scroll' },
      distinctUrls: new Set(['https://b/docs/a', 'https://b/docs/b']),
      completePoints: 2,
      fieldCompleteness: EXPECTED_FIELDS,
      pointsScanned: 5,
    });
    expect(profile.tokenHistogram.get(300)).toBe(2);
  });

  it('scrolls for completeness only, with the required fields, when counts are refused', async () => {
    // Prepare
    const index = new MemoryIndex(POINTS, { payloadIndexes: { source_url: 'keyword', token_count: 'integer' } });
    index.failWith.count = new IndexError('Qdrant count failed with 400: Bad request: Index required', 'bad_request');
    const scrolled: string[][] = [];
    const scroll = index.scroll.bind(index);
    index.scroll = (options) => {
      scrolled.push(options.payloadFields);
      return scroll(options);
    };

    // Act
    const profile = await profileCollection({ index, info: index.info, requiredFields: FIELDS });

    // Assess
    expect(scrolled).toEqual([FIELDS]);
    expect(profile.notes).toEqual([
      'completeness by count was refused (Qdrant count failed with 400: Bad request: Index required); computed by scroll instead',
    ]);
    expect(profile.totalPoints).toBe(5);
  });

  it('lets an unavailable index fail the profile rather than guess', async () => {
    const index = new MemoryIndex(POINTS);
    index.failWith.count = new IndexError('Qdrant count is unreachable (ECONNREFUSED)', 'unavailable');

    await expect(profileCollection({ index, info: index.info, requiredFields: FIELDS })).rejects.toThrow(
      /ECONNREFUSED/,
    );
  });

  it('reports an empty collection as zero points with 0% completeness', async () => {
    const index = new MemoryIndex([]);

    const profile = await profileCollection({ index, info: index.info, requiredFields: ['source_url'] });

    expect(profile.totalPoints).toBe(0);
    expect(profile.fieldCompleteness).toEqual([{ field: 'source_url', present: 0, missing: 0, completeness_rate: 0 }]);
  });
});

describe('isPresent', () => {
  it('treats missing, null and [] as absent, like Qdrant is_empty, and everything else as present', () => {
    expect([undefined, null, [], '', 0, false, ['a']].map(isPresent)).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
      true,
    ]);
  });
});
