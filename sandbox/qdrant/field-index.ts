/**
 * One payload index, kept up to date as points are written, as Qdrant keeps its field indexes: for each value the
 * number of points holding it (what a facet without a filter returns), how many points hold any value (the
 * `points` of `payload_schema`), and per point whether the key is empty or null (Qdrant's null index, the
 * satellite of every field index that answers `is_empty` and `is_null` without reading payloads).
 *
 * Why: a real Qdrant answers facets, `payload_schema` and these conditions from its indexes, on its own machine.
 * Answering them by scanning every payload in the bench's process made the stand-in spend the monitor's CPU on
 * work the real database does not do (docs/PERFORMANCE.md, "The stand-ins' CPU"). The answers are the scans':
 * every figure here is computed from a point's payload with the same functions the scans use (readValues,
 * indexedValues, isEmptyValues, isNullValues), when the point is written, instead of when it is asked for.
 */
import { isEmptyValues, isNullValues } from './filter.ts';
import { isPlainObject, type Payload, readValues, splitKey } from './payload-path.ts';
import { canonicalUuid } from './point-id.ts';

/** Qdrant's payload index types. */
export type PayloadSchemaType = 'keyword' | 'integer' | 'float' | 'geo' | 'text' | 'bool' | 'datetime' | 'uuid';

/** A value a payload index holds. */
export type IndexValue = string | number | boolean;

const EMPTY = 1;
const NULL = 2;

/** The per-value counts and per-point null flags of one indexed key. */
export class FieldIndex {
  readonly dataType: PayloadSchemaType;
  readonly #path: string[];
  readonly #counts = new Map<IndexValue, number>();
  #points = 0;
  #flags = new Uint8Array(1024);

  constructor(key: string, dataType: PayloadSchemaType) {
    this.dataType = dataType;
    this.#path = splitKey(key);
  }

  /** How many points hold at least one value the index covers. */
  get points(): number {
    return this.#points;
  }

  /** Each value and how many points hold it (a point counts once per distinct value). */
  get counts(): ReadonlyMap<IndexValue, number> {
    return this.#counts;
  }

  /** The distinct indexed values of one payload, as a facet counts them. */
  distinctValues(payload: Payload): readonly IndexValue[] {
    const values = readValues(payload, this.#path);
    const single = values.length === 1 && !Array.isArray(values[0]) ? indexValue(values[0], this.dataType) : undefined;
    // The common case (one scalar) needs no de-duplication; lists count each distinct value once per point.
    return single !== undefined ? [single] : [...new Set(indexedValues(values, this.dataType))];
  }

  /** The point in `slot` now holds `payload` (call `remove` with its previous payload first). */
  add(slot: number, payload: Payload): void {
    const distinct = this.distinctValues(payload);
    if (distinct.length > 0) this.#points++;
    for (const value of distinct) this.#counts.set(value, (this.#counts.get(value) ?? 0) + 1);
    const values = readValues(payload, this.#path);
    if (slot >= this.#flags.length) this.#growTo(slot);
    this.#flags[slot] = (isEmptyValues(values) ? EMPTY : 0) | (isNullValues(values) ? NULL : 0);
  }

  /** A point that held `payload` is gone or about to be rewritten. */
  remove(payload: Payload): void {
    const distinct = this.distinctValues(payload);
    if (distinct.length > 0) this.#points--;
    for (const value of distinct) {
      const left = (this.#counts.get(value) ?? 0) - 1;
      if (left > 0) this.#counts.set(value, left);
      else this.#counts.delete(value);
    }
  }

  /** The point in slot `from` moved to slot `to` (the collection keeps its slots dense). */
  move(from: number, to: number): void {
    this.#flags[to] = this.#flags[from] as number;
  }

  /** `{ is_empty: { key } }` for the point in `slot`. */
  isEmpty(slot: number): boolean {
    return ((this.#flags[slot] as number) & EMPTY) !== 0;
  }

  /** `{ is_null: { key } }` for the point in `slot`. */
  isNull(slot: number): boolean {
    return ((this.#flags[slot] as number) & NULL) !== 0;
  }

  #growTo(slot: number): void {
    let length = this.#flags.length;
    while (length <= slot) length *= 2;
    const flags = new Uint8Array(length);
    flags.set(this.#flags);
    this.#flags = flags;
  }
}

/** The values an index of `type` would hold for these payload values (arrays flattened, other types dropped). */
export function indexedValues(values: readonly unknown[], type: PayloadSchemaType): IndexValue[] {
  const out: IndexValue[] = [];
  for (const value of values) collectIndexed(value, type, out);
  return out;
}

function collectIndexed(value: unknown, type: PayloadSchemaType, into: IndexValue[]): void {
  if (Array.isArray(value)) {
    for (const element of value) collectIndexed(element, type, into);
    return;
  }
  const indexed = indexValue(value, type);
  if (indexed !== undefined) into.push(indexed);
}

function indexValue(value: unknown, type: PayloadSchemaType): IndexValue | undefined {
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
