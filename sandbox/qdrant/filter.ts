/**
 * Qdrant filters, compiled once per request into a predicate over (payload, id), with Qdrant's semantics taken from
 * its condition checker (lib/segment query_checker.rs and condition_checker.rs):
 * - must: all; should: at least one (an empty `should` matches nothing); must_not: none; min_should: at least n.
 * - A clause is one condition or a list; a condition may itself be a filter.
 * - A field condition holds when any value at the key satisfies it; a value that is an array satisfies `match` and
 *   `range` when any element does. With no value at the key only `is_empty`/`is_null` field forms can hold.
 * - `{ is_empty: { key } }`: true for a missing key, null or []. `{ is_null: { key } }`: true only for an explicit null.
 * - `match.except` is true for values of another type and false for null and for a missing key.
 */

import { isPlainObject, type Payload, readValues, splitKey } from './payload-path.ts';
import { type PointId, parsePointId } from './point-id.ts';
import { formatError, invalidType, unsupported } from './wire-error.ts';

/** Whether a point (its payload and id) satisfies a filter. */
export type PointPredicate = (payload: Payload, id: PointId) => boolean;

type ValueCheck = (value: unknown) => boolean;

/** The keys of a filter object (a condition made only of them is a nested filter). */
export const FILTER_KEYS: ReadonlySet<string> = new Set(['should', 'min_should', 'must', 'must_not']);

/** Compiles a request's `filter`; undefined when there is none (every point matches). */
export function parseFilter(value: unknown): PointPredicate | undefined {
  if (value === undefined || value === null) return undefined;
  return parseFilterObject(value);
}

/** Compiles one filter object (its keys checked); exported for filter-slots.ts, which scans what no index answers. */
export function parseFilterObject(value: unknown): PointPredicate {
  if (!isPlainObject(value)) throw invalidType(value, 'struct Filter');
  for (const key of Object.keys(value)) {
    if (!FILTER_KEYS.has(key)) {
      throw formatError(`unknown field \`${key}\`, expected one of \`should\`, \`min_should\`, \`must\`, \`must_not\``);
    }
  }
  const should = parseClause(value.should);
  const must = parseClause(value.must);
  const mustNot = parseClause(value.must_not);
  const minShould = parseMinShould(value.min_should);
  return (payload, id) => {
    if (should !== undefined && !should.some((check) => check(payload, id))) return false;
    if (minShould !== undefined && !minShould(payload, id)) return false;
    if (must !== undefined && !must.every((check) => check(payload, id))) return false;
    if (mustNot?.some((check) => check(payload, id))) return false;
    return true;
  };
}

function parseClause(value: unknown): PointPredicate[] | undefined {
  if (value === undefined || value === null) return undefined;
  return Array.isArray(value) ? value.map(parseCondition) : [parseCondition(value)];
}

function parseMinShould(value: unknown): PointPredicate | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value) || !Array.isArray(value.conditions)) throw formatError('missing field `conditions`');
  const count = value.min_count;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) throw invalidType(count, 'usize');
  const conditions = value.conditions.map(parseCondition);
  return (payload, id) => conditions.filter((check) => check(payload, id)).length >= count;
}

/** Compiles one condition of a clause; exported for filter-slots.ts, which scans what no index answers. */
export function parseCondition(value: unknown): PointPredicate {
  if (!isPlainObject(value)) throw formatError('data did not match any variant of untagged enum Condition');
  if ('key' in value) return parseFieldCondition(value);
  if ('is_empty' in value) {
    const path = readPayloadField(value.is_empty);
    return (payload) => isEmptyValues(readValues(payload, path));
  }
  if ('is_null' in value) {
    const path = readPayloadField(value.is_null);
    return (payload) => isNullValues(readValues(payload, path));
  }
  if ('has_id' in value) {
    if (!Array.isArray(value.has_id)) throw invalidType(value.has_id, 'a sequence');
    const ids = new Set(value.has_id.map(parsePointId));
    return (_payload, id) => ids.has(id);
  }
  if ('has_vector' in value) {
    // The stand-in's collections have one unnamed vector, whose name is "".
    const present = value.has_vector === '';
    return () => present;
  }
  if ('nested' in value) throw unsupported('nested object filters (`nested`)');
  if (Object.keys(value).every((key) => FILTER_KEYS.has(key))) return parseFilterObject(value);
  throw formatError('data did not match any variant of untagged enum Condition');
}

/** `{ is_empty: { key } }` over the values at the key: none, or only null and []. */
export function isEmptyValues(values: readonly unknown[]): boolean {
  return values.every(isNullOrEmptyArray);
}

/** `{ is_null: { key } }` over the values at the key: an explicit null among them. */
export function isNullValues(values: readonly unknown[]): boolean {
  return values.some((v) => v === null);
}

function readPayloadField(value: unknown): string[] {
  if (!isPlainObject(value) || typeof value.key !== 'string') throw formatError('missing field `key`');
  return splitKey(value.key);
}

function isNullOrEmptyArray(value: unknown): boolean {
  return value === null || (Array.isArray(value) && value.length === 0);
}

function parseFieldCondition(condition: Record<string, unknown>): PointPredicate {
  if (typeof condition.key !== 'string') throw invalidType(condition.key, 'a string');
  const path = splitKey(condition.key);
  for (const geo of ['geo_bounding_box', 'geo_radius', 'geo_polygon']) {
    if (condition[geo] !== undefined && condition[geo] !== null) throw unsupported(`\`${geo}\` conditions`);
  }
  const isEmpty = readOptionalBoolean(condition.is_empty);
  const isNull = readOptionalBoolean(condition.is_null);
  const valuesCount = condition.values_count == null ? undefined : parseCountRange(condition.values_count);
  const checks: ValueCheck[] = [];
  if (condition.match != null) checks.push(parseMatch(condition.match));
  if (condition.range != null) checks.push(parseRange(condition.range));
  if (checks.length === 0 && isEmpty === undefined && isNull === undefined && valuesCount === undefined) {
    throw formatError('At least one field condition must be specified');
  }
  // Qdrant's FieldCondition::check: values_count, else is_empty, else is_null, else match/range on the elements.
  const checkValue: ValueCheck =
    valuesCount !== undefined
      ? (v) => valuesCount(countValues(v))
      : isEmpty !== undefined
        ? (v) => isNullOrEmptyArray(v) === isEmpty
        : isNull !== undefined
          ? (v) => (Array.isArray(v) ? v.some((e) => e === null) : v === null) === isNull
          : (v) => (Array.isArray(v) ? v.some((e) => checks.some((c) => c(e))) : checks.some((c) => c(v)));
  const whenAbsent = isEmpty !== undefined ? isEmpty : isNull !== undefined ? !isNull : false;
  return (payload) => {
    const values = readValues(payload, path);
    return values.length === 0 ? whenAbsent : values.some(checkValue);
  };
}

function readOptionalBoolean(value: unknown): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalidType(value, 'a boolean');
  return value;
}

function countValues(value: unknown): number {
  if (value === null) return 0;
  return Array.isArray(value) ? value.length : 1;
}

function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

function parseMatch(match: unknown): ValueCheck {
  if (!isPlainObject(match)) throw formatError('data did not match any variant of untagged enum Match');
  if ('value' in match) {
    const expected = match.value;
    if (typeof expected === 'string' || typeof expected === 'boolean') return (v) => v === expected;
    if (isInteger(expected)) return (v) => isInteger(v) && v === expected;
    throw formatError('data did not match any variant of untagged enum ValueVariants');
  }
  if ('any' in match) {
    const { strings, set } = parseAnyVariants(match.any);
    return strings ? (v) => typeof v === 'string' && set.has(v) : (v) => isInteger(v) && set.has(v);
  }
  if ('except' in match) {
    const { strings, set } = parseAnyVariants(match.except);
    if (strings) return (v) => (typeof v === 'string' ? !set.has(v) : v !== null);
    return (v) => (isInteger(v) ? !set.has(v) : v !== null);
  }
  for (const kind of ['text', 'phrase'] as const) {
    if (kind in match) {
      const text = match[kind];
      if (typeof text !== 'string') throw invalidType(text, 'a string');
      // Without a full-text index Qdrant falls back to a substring test, which is what this is.
      return (v) => typeof v === 'string' && v.includes(text);
    }
  }
  throw unsupported(`this match form (${Object.keys(match).join(', ')})`);
}

function parseAnyVariants(value: unknown): { strings: boolean; set: Set<unknown> } {
  if (!Array.isArray(value)) throw formatError('data did not match any variant of untagged enum AnyVariants');
  if (value.every((v) => typeof v === 'string')) return { strings: true, set: new Set(value) };
  if (value.every(isInteger)) return { strings: false, set: new Set(value) };
  throw formatError('data did not match any variant of untagged enum AnyVariants');
}

type Bounds = { lt?: number; gt?: number; gte?: number; lte?: number };

function parseRange(range: unknown): ValueCheck {
  if (!isPlainObject(range)) throw formatError('data did not match any variant of untagged enum RangeInterface');
  const raw = [range.lt, range.gt, range.gte, range.lte];
  if (raw.some((v) => typeof v === 'string')) {
    const bounds = readBounds(range, (v) => (typeof v === 'string' ? Date.parse(v) : Number.NaN));
    const inRange = boundsCheck(bounds);
    return (v) => typeof v === 'string' && inRange(Date.parse(v));
  }
  const inRange = boundsCheck(readBounds(range, (v) => (typeof v === 'number' ? v : Number.NaN)));
  return (v) => typeof v === 'number' && inRange(v);
}

function parseCountRange(range: unknown): (count: number) => boolean {
  if (!isPlainObject(range)) throw invalidType(range, 'struct ValuesCount');
  return boundsCheck(readBounds(range, (v) => (isInteger(v) && v >= 0 ? v : Number.NaN)));
}

function readBounds(range: Record<string, unknown>, read: (value: unknown) => number): Bounds {
  const bounds: Bounds = {};
  for (const name of ['lt', 'gt', 'gte', 'lte'] as const) {
    const raw = range[name];
    if (raw === undefined || raw === null) continue;
    const bound = read(raw);
    if (Number.isNaN(bound)) throw formatError('data did not match any variant of untagged enum RangeInterface');
    bounds[name] = bound;
  }
  return bounds;
}

function boundsCheck(b: Bounds): (x: number) => boolean {
  return (x) =>
    !Number.isNaN(x) &&
    (b.lt === undefined || x < b.lt) &&
    (b.gt === undefined || x > b.gt) &&
    (b.lte === undefined || x <= b.lte) &&
    (b.gte === undefined || x >= b.gte);
}
