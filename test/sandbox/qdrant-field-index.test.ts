import { describe, expect, it } from 'vitest';
import { Collection, type PayloadSchemaType } from '../../sandbox/qdrant/collection.ts';
import { indexedValues } from '../../sandbox/qdrant/field-index.ts';
import { parseFilter } from '../../sandbox/qdrant/filter.ts';
import { matchingSlots } from '../../sandbox/qdrant/filter-slots.ts';
import { countFacet } from '../../sandbox/qdrant/payload-index.ts';
import { type Payload, readValues, splitKey } from '../../sandbox/qdrant/payload-path.ts';

// The stand-in answers facets, payload_schema counts and is_empty / is_null from indexes it maintains on every write
// (sandbox/qdrant/field-index.ts, filter-slots.ts). These tests hold those answers equal to a scan of every payload,
// the stand-in's earlier way, after each of a long random sequence of upserts, deletes and set_payloads, with the
// indexes created before, between and after the writes.

const INDEXES: [string, PayloadSchemaType][] = [
  ['a', 'keyword'],
  ['n', 'integer'],
  ['meta.lang', 'keyword'],
  ['b', 'bool'],
];
const FILTERS: unknown[] = [
  { must_not: ['a', 'n', 'meta.lang', 'u'].flatMap((key) => [{ is_empty: { key } }, { is_null: { key } }]) },
  { should: [{ is_empty: { key: 'a' } }, { is_null: { key: 'a' } }] },
  { should: [{ is_empty: { key: 'u' } }, { is_null: { key: 'u' } }] },
  { should: [] },
  { must: [] },
  {},
  { must: [{ is_empty: { key: 'meta.lang' } }, { key: 'b', match: { value: true } }] },
  { must: { is_null: { key: 'n' } }, must_not: { is_empty: { key: 'u' } } },
  {
    must: [{ should: [{ is_null: { key: 'a' } }, { has_id: [1, 2, 3, 5, 8] }] }],
    must_not: [{ is_empty: { key: 'u' } }],
  },
  { must: [{ must_not: [{ is_empty: { key: 'n' } }] }, {}] },
  {
    min_should: {
      conditions: [{ is_empty: { key: 'a' } }, { is_null: { key: 'n' } }, { is_empty: { key: 'u' } }],
      min_count: 2,
    },
  },
  {
    should: {
      must: [{ is_null: { key: 'b' } }],
      min_should: { conditions: [{ is_empty: { key: 'a' } }], min_count: 1 },
    },
  },
  { must: [{ key: 'a', is_empty: true }] },
];

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function payloadOf(next: () => number): Payload {
  const pick = <T>(options: T[]): T => options[Math.floor(next() * options.length)] as T;
  const payload: Payload = {};
  const set = (key: string, value: unknown) => {
    if (value !== undefined) payload[key] = value;
  };
  set('a', pick([undefined, null, [], 'x', 'y', ['x', 'x', 'z'], [null], ['y', 3], 7, { x: 1 }]));
  set('n', pick([undefined, null, 1, 2, 2.5, [1, 1, 4], [], [null, 2], 'one']));
  set('meta', pick([undefined, null, { lang: 'en' }, { lang: ['en', 'fr'] }, [{ lang: 'de' }, { lang: 'de' }], {}]));
  set('b', pick([undefined, true, false, [true, false], null]));
  set('u', pick([undefined, null, [], 'p', ['q']]));
  return payload;
}

function scanCount(collection: Collection, filter: unknown): number {
  const predicate = parseFilter(filter);
  let count = 0;
  for (let slot = 0; slot < collection.pointsCount; slot++) {
    if (predicate === undefined || predicate(collection.payloadAt(slot), collection.idAt(slot))) count++;
  }
  return count;
}

function scanFacet(collection: Collection, key: string, type: PayloadSchemaType, filter: unknown) {
  const predicate = parseFilter(filter);
  const counts = new Map<string | number | boolean, number>();
  let points = 0;
  for (let slot = 0; slot < collection.pointsCount; slot++) {
    if (predicate !== undefined && !predicate(collection.payloadAt(slot), collection.idAt(slot))) continue;
    const distinct = new Set(indexedValues(readValues(collection.payloadAt(slot), splitKey(key)), type));
    if (distinct.size > 0) points++;
    for (const value of distinct) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  const hits = [...counts].map(([value, count]) => ({ value, count }));
  hits.sort((x, y) => y.count - x.count || (String(x.value) < String(y.value) ? -1 : 1));
  return { hits, points };
}

function expectIndexesMatchScans(collection: Collection, step: string): void {
  for (const [key, type] of INDEXES) {
    if (collection.fieldIndex(key) === undefined) continue;
    const scanned = scanFacet(collection, key, type, undefined);
    expect(collection.fieldIndex(key)?.points, `${step}: points of ${key}`).toBe(scanned.points);
    expect(countFacet(collection, { key, limit: 1000 }), `${step}: facet on ${key}`).toEqual(scanned.hits);
    const filter = FILTERS[0];
    expect(countFacet(collection, { key, limit: 1000, filter }), `${step}: filtered facet on ${key}`).toEqual(
      scanFacet(collection, key, type, filter).hits,
    );
  }
  for (const filter of FILTERS) {
    expect(matchingSlots(collection, filter).count(), `${step}: count ${JSON.stringify(filter)}`).toBe(
      scanCount(collection, filter),
    );
  }
}

describe('Qdrant stand-in: payload indexes maintained on every write', () => {
  it('answers facets, indexed points and counts as a scan does, through upserts, deletes and set_payload', () => {
    const next = random(20);
    const collection = new Collection({ name: 'c', size: 2, distance: 'Cosine' });
    const created: string[] = [];
    let checkedNonTrivial = 0;
    for (let step = 0; step < 240; step++) {
      const op = next();
      const ids = Array.from({ length: 1 + Math.floor(next() * 6) }, () => 1 + Math.floor(next() * 40));
      if (step % 40 === 0 && created.length < INDEXES.length) {
        const [key, type] = INDEXES[created.length] as [string, PayloadSchemaType];
        collection.createIndex(key, { dataType: type });
        created.push(key);
      } else if (op < 0.5) {
        collection.upsert(
          ids.map((id) => ({ id, vector: [next(), next()], payload: payloadOf(next) })),
          step,
        );
      } else if (op < 0.75) {
        collection.delete(ids);
      } else {
        const { a, n, meta } = payloadOf(next);
        collection.setPayload(ids, { a, ...(next() < 0.5 ? { n } : { meta }) }, step);
      }
      expectIndexesMatchScans(collection, `step ${step}`);
      if (collection.pointsCount > 10 && scanCount(collection, FILTERS[0]) > 0) checkedNonTrivial++;
    }
    // The sequence must reach collections where the figures are not all zero, or it proves little.
    expect(created).toHaveLength(INDEXES.length);
    expect(checkedNonTrivial).toBeGreaterThan(100);
  });

  it('builds an index over the points already stored, and rebuilds it when created again with another type', () => {
    const collection = new Collection({ name: 'c', size: 2, distance: 'Cosine' });
    collection.upsert(
      [
        { id: 1, vector: [1, 0], payload: { a: 'x', n: 3 } },
        { id: 2, vector: [0, 1], payload: { a: ['x', 'y'], n: '3' } },
        { id: 3, vector: [1, 1], payload: { n: null } },
      ],
      0,
    );
    collection.createIndex('n', { dataType: 'integer' });
    expect(collection.fieldIndex('n')?.points).toBe(1);
    expect(countFacet(collection, { key: 'n', limit: 10 })).toEqual([{ value: 3, count: 1 }]);
    collection.createIndex('n', { dataType: 'keyword' });
    expect(countFacet(collection, { key: 'n', limit: 10 })).toEqual([{ value: '3', count: 1 }]);
    collection.createIndex('a', { dataType: 'keyword' });
    expect(countFacet(collection, { key: 'a', limit: 10 })).toEqual([
      { value: 'x', count: 2 },
      { value: 'y', count: 1 },
    ]);
    expect(matchingSlots(collection, { must: [{ is_null: { key: 'n' } }] }).count()).toBe(1);
    expect(matchingSlots(collection, { must: [{ is_empty: { key: 'a' } }] }).count()).toBe(1);
  });
});
