/**
 * Payload indexes and facets. The stand-in filters by scanning whether or not a field is indexed (as Qdrant does
 * without strict mode); an index matters for what the collection reports (`payload_schema`, with the number of points
 * it covers) and for facets, which Qdrant only serves from an index.
 *
 * Facet, following Qdrant's FacetIndex (lib/segment facet_index.rs): the key needs a keyword, integer (with lookup,
 * the default), bool or uuid index, else 400. Each point counts once per distinct value it holds; hits are sorted by
 * count descending, then value ascending; `limit` defaults to 10. Counts are always exact here (`exact` is accepted).
 */
import type { Collection, PayloadIndex, PayloadSchemaType } from './collection.ts';
import type { PointPredicate } from './filter.ts';
import { isPlainObject, readValues, splitKey } from './payload-path.ts';
import { canonicalUuid } from './point-id.ts';
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

/** The values an index of `type` would hold for these payload values (arrays flattened, other types dropped). */
function indexedValues(values: readonly unknown[], type: PayloadSchemaType): (string | number | boolean)[] {
  const out: (string | number | boolean)[] = [];
  for (const value of values) collectIndexed(value, type, out);
  return out;
}

function collectIndexed(value: unknown, type: PayloadSchemaType, into: (string | number | boolean)[]): void {
  if (Array.isArray(value)) {
    for (const element of value) collectIndexed(element, type, into);
    return;
  }
  const indexed = indexValue(value, type);
  if (indexed !== undefined) into.push(indexed);
}

function indexValue(value: unknown, type: PayloadSchemaType): string | number | boolean | undefined {
  switch (type) {
    case 'keyword':
    case 'text':
      return typeof value === 'string' ? value : undefined;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
    case 'float':
      return typeof value === 'number' ? value : undefined;
    case 'bool':
      return typeof value === 'boolean' ? value : undefined;
    case 'uuid':
      return typeof value === 'string' ? canonicalUuid(value) : undefined;
    case 'datetime':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : undefined;
    case 'geo':
      return isPlainObject(value) && typeof value.lat === 'number' && typeof value.lon === 'number' ? 'geo' : undefined;
  }
}

/** How many points hold at least one value the index covers (`payload_schema.<key>.points`). */
export function countIndexedPoints(collection: Collection, key: string, index: PayloadIndex): number {
  const path = splitKey(key);
  let points = 0;
  for (let slot = 0; slot < collection.pointsCount; slot++) {
    if (indexedValues(readValues(collection.payloadAt(slot), path), index.dataType).length > 0) points++;
  }
  return points;
}

/** One facet hit as Qdrant returns it. */
export interface FacetHit {
  value: string | number | boolean;
  count: number;
}

/** Counts points per distinct value of `key` among those matching `filter`, as Qdrant's facet does. */
export function countFacet(
  collection: Collection,
  options: { key: string; limit: number; filter?: PointPredicate | undefined },
): FacetHit[] {
  const index = collection.indexes.get(options.key);
  const usable = index !== undefined && FACET_TYPES.has(index.dataType) && index.params?.lookup !== false;
  if (!usable) throw facetIndexMissing(options.key);
  const path = splitKey(options.key);
  const counts = new Map<string | number | boolean, number>();
  for (let slot = 0; slot < collection.pointsCount; slot++) {
    const payload = collection.payloadAt(slot);
    if (options.filter !== undefined && !options.filter(payload, collection.idAt(slot))) continue;
    const values = readValues(payload, path);
    const single = values.length === 1 && !Array.isArray(values[0]) ? indexValue(values[0], index.dataType) : undefined;
    // The common case (one scalar) needs no de-duplication; lists count each distinct value once per point.
    const distinct = single !== undefined ? [single] : new Set(indexedValues(values, index.dataType));
    for (const value of distinct) counts.set(value, (counts.get(value) ?? 0) + 1);
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
