/**
 * A filter evaluated over the whole collection at once, as the set of slots it matches, the way Qdrant's count and
 * facet plan a filter: `is_empty` and `is_null` on an indexed key come from that index's null flags
 * (field-index.ts), with no payload read; every other condition is checked against the payloads, one pass per
 * clause for all of them together. The clauses combine as filter.ts's predicate does (should: any, must: all,
 * must_not: none, an empty should matches nothing), so the set is exactly the points that predicate accepts.
 * The filter must have been checked by parseFilter first (this reads it as valid).
 */
import type { Collection } from './collection.ts';
import { FILTER_KEYS, type PointPredicate, parseCondition, parseFilterObject } from './filter.ts';
import { isPlainObject } from './payload-path.ts';

/** A set of slots, one bit each. */
export class SlotSet {
  readonly size: number;
  readonly #words: Uint32Array;

  constructor(size: number, all: boolean) {
    this.size = size;
    this.#words = new Uint32Array(Math.ceil(size / 32));
    if (all) {
      this.#words.fill(0xffffffff);
      this.#clearTail();
    }
  }

  has(slot: number): boolean {
    return (((this.#words[slot >>> 5] as number) >>> (slot & 31)) & 1) === 1;
  }

  add(slot: number): void {
    this.#words[slot >>> 5] = (this.#words[slot >>> 5] as number) | (1 << (slot & 31));
  }

  /** Keeps only the slots also in `other`. */
  and(other: SlotSet): void {
    for (let i = 0; i < this.#words.length; i++) this.#words[i] = (this.#words[i] as number) & other.#word(i);
  }

  /** Adds the slots of `other`. */
  or(other: SlotSet): void {
    for (let i = 0; i < this.#words.length; i++) this.#words[i] = (this.#words[i] as number) | other.#word(i);
  }

  /** Keeps only the slots not in `other`. */
  andNot(other: SlotSet): void {
    for (let i = 0; i < this.#words.length; i++) this.#words[i] = (this.#words[i] as number) & ~other.#word(i);
  }

  /** How many slots are in the set. */
  count(): number {
    let total = 0;
    for (const word of this.#words) {
      let w = word - ((word >>> 1) & 0x55555555);
      w = (w & 0x33333333) + ((w >>> 2) & 0x33333333);
      total += (Math.imul((w + (w >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
    }
    return total;
  }

  #word(i: number): number {
    return this.#words[i] as number;
  }

  #clearTail(): void {
    const extra = this.#words.length * 32 - this.size;
    if (extra > 0) this.#words[this.#words.length - 1] = 0xffffffff >>> extra;
  }
}

/** The slots of `collection` whose points satisfy `filter` (a checked filter object). */
export function matchingSlots(collection: Collection, filter: unknown): SlotSet {
  return filterObjectSlots(collection, filter as Record<string, unknown>);
}

function filterObjectSlots(collection: Collection, filter: Record<string, unknown>): SlotSet {
  // min_should counts conditions per point; it is rare enough to be checked point by point, as a whole.
  if (filter.min_should !== undefined && filter.min_should !== null) {
    return scanSlots(collection, parseFilterObject(filter));
  }
  const result = new SlotSet(collection.pointsCount, true);
  const should = clause(filter.should);
  const must = clause(filter.must);
  const mustNot = clause(filter.must_not);
  if (should !== undefined) result.and(anyOf(collection, should));
  if (must !== undefined) {
    for (const conditionSlots of indexedSlots(collection, must)) result.and(conditionSlots);
    const rest = must.filter((condition) => indexAnswer(collection, condition) === undefined);
    if (rest.length > 0) {
      const checks = rest.map(parseCondition);
      result.and(scanSlots(collection, (payload, id) => checks.every((check) => check(payload, id))));
    }
  }
  if (mustNot !== undefined) result.andNot(anyOf(collection, mustNot));
  return result;
}

/** The slots satisfying at least one of `conditions` (none for an empty list). */
function anyOf(collection: Collection, conditions: unknown[]): SlotSet {
  const result = new SlotSet(collection.pointsCount, false);
  for (const conditionSlots of indexedSlots(collection, conditions)) result.or(conditionSlots);
  const rest = conditions.filter((condition) => indexAnswer(collection, condition) === undefined);
  if (rest.length > 0) {
    const checks = rest.map(parseCondition);
    result.or(scanSlots(collection, (payload, id) => checks.some((check) => check(payload, id))));
  }
  return result;
}

/** The slot sets of the conditions an index (or a nested filter) answers. */
function* indexedSlots(collection: Collection, conditions: unknown[]): Generator<SlotSet> {
  for (const condition of conditions) {
    const answer = indexAnswer(collection, condition);
    if (answer !== undefined) yield answer();
  }
}

/**
 * How to answer a condition without a pass of its own over the payloads: from a null index (is_empty / is_null on
 * an indexed key) or, for a nested filter, recursively. Undefined: the condition is checked against payloads.
 * The order of the tests is parseCondition's, so a condition is read as the predicate reads it.
 */
function indexAnswer(collection: Collection, condition: unknown): (() => SlotSet) | undefined {
  if (!isPlainObject(condition) || 'key' in condition) return undefined;
  for (const kind of ['is_empty', 'is_null'] as const) {
    if (!(kind in condition)) continue;
    const field = condition[kind];
    const index = isPlainObject(field) && typeof field.key === 'string' ? collection.fieldIndex(field.key) : undefined;
    if (index === undefined) return undefined;
    return () => {
      const slots = new SlotSet(collection.pointsCount, false);
      for (let slot = 0; slot < slots.size; slot++) {
        if (kind === 'is_empty' ? index.isEmpty(slot) : index.isNull(slot)) slots.add(slot);
      }
      return slots;
    };
  }
  if (['has_id', 'has_vector', 'nested'].some((kind) => kind in condition)) return undefined;
  if (Object.keys(condition).every((key) => FILTER_KEYS.has(key))) {
    return () => filterObjectSlots(collection, condition);
  }
  return undefined;
}

function clause(value: unknown): unknown[] | undefined {
  if (value === undefined || value === null) return undefined;
  return Array.isArray(value) ? value : [value];
}

function scanSlots(collection: Collection, predicate: PointPredicate): SlotSet {
  const slots = new SlotSet(collection.pointsCount, false);
  for (let slot = 0; slot < slots.size; slot++) {
    if (predicate(collection.payloadAt(slot), collection.idAt(slot))) slots.add(slot);
  }
  return slots;
}
