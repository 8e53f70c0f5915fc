/**
 * Payload indexes and facets. An index is kept up to date on every write (field-index.ts); it answers what the
 * collection reports (`payload_schema`, with the number of points it covers), facets (which Qdrant only serves from
 * an index) and, in counts and facets, `is_empty` / `is_null` on its key. Other conditions, and every filter of a
 * search or scroll, are checked against the payloads whether or not the key is indexed (as Qdrant may without
 * strict mode), with the same answers.
 *
 * Facet, following Qdrant's FacetIndex (lib/segment facet_index.rs): the key needs a keyword, integer (with lookup,
 * the default), bool or uuid index, else 400. Each point counts once per distinct value it holds; hits are sorted by
 * count descending, then value ascending; `limit` defaults to 10. Counts are always exact here (`exact` is accepted).
 */
import type { Collection, PayloadIndex, PayloadSchemaType } from './collection.ts';
import type { IndexValue } from './field-index.ts';
import { matchingSlots } from './filter-slots.ts';
import { isPlainObject } from './payload-path.ts';
import { facetIndexMissing, formatError } from './wire-error.ts';

const SCHEMA_TYPES: readonly PayloadSchemaType[] = [
  'keyword',
  'integer',
  'float',
  'geo',
  'text',
  'bool',
  'datetime',
  'uuid',
];
const FACET_TYPES: ReadonlySet<PayloadSchemaType> = new Set(['keyword', 'integer', 'bool', 'uuid']);

/** Reads `field_schema`: a type name, or an object `{ type, ...params }`. */
export function parseFieldSchema(value: unknown): PayloadIndex {
  if (typeof value === 'string') return { dataType: readSchemaType(value) };
  if (isPlainObject(value) && typeof value.type === 'string') {
    return { dataType: readSchemaType(value.type), params: { ...value } };
  }
  throw formatError('data did not match any variant of untagged enum PayloadFieldSchema');
}

function readSchemaType(name: string): PayloadSchemaType {
  const found = SCHEMA_TYPES.find((type) => type === name);
  if (found === undefined) {
    throw formatError(`unknown variant \`${name}\`, expected one of ${SCHEMA_TYPES.map((t) => `\`${t}\``).join(', ')}`);
  }
  return found;
}

/** One facet hit as Qdrant returns it. */
export interface FacetHit {
  value: string | number | boolean;
  count: number;
}

/**
 * Counts points per distinct value of `key` among those matching `filter`, as Qdrant's facet does: from the
 * index's counts when there is no filter, else over the filter's points (filter-slots.ts), each point's values
 * read as the index reads them.
 */
export function countFacet(
  collection: Collection,
  options: { key: string; limit: number; filter?: unknown },
): FacetHit[] {
  const index = collection.indexes.get(options.key);
  const field = collection.fieldIndex(options.key);
  const usable = index !== undefined && FACET_TYPES.has(index.dataType) && index.params?.lookup !== false;
  if (!usable || field === undefined) throw facetIndexMissing(options.key);
  let counts: ReadonlyMap<IndexValue, number> = field.counts;
  if (options.filter !== undefined && options.filter !== null) {
    const slots = matchingSlots(collection, options.filter);
    const filtered = new Map<IndexValue, number>();
    for (let slot = 0; slot < slots.size; slot++) {
      if (!slots.has(slot)) continue;
      for (const value of field.distinctValues(collection.payloadAt(slot)))
        filtered.set(value, (filtered.get(value) ?? 0) + 1);
    }
    counts = filtered;
  }
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || compareFacetValues(a.value, b.value))
    .slice(0, options.limit);
}

function compareFacetValues(a: string | number | boolean, b: string | number | boolean): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
