/**
 * Point ids as Qdrant has them (`ExtendedPointId`): an unsigned integer or a UUID. UUIDs are kept in their canonical
 * lowercase hyphenated form, so the same point written as `ABC…` or `abc…` is one point, as in Qdrant.
 */
import { formatError } from './wire-error.ts';

/** An unsigned integer id or a canonical UUID string. */
export type PointId = number | string;

const HYPHENATED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SIMPLE = /^[0-9a-f]{32}$/i;

/** Reads a point id from a request body the way Qdrant's deserializer does, or throws its format error. */
export function parsePointId(value: unknown): PointId {
  if (typeof value === 'number') {
    // Above 2^53 JSON.parse has already lost digits: refusing is more honest than answering for another point.
    if (Number.isSafeInteger(value) && value >= 0) return value;
    throw formatError('data did not match any variant of untagged enum ExtendedPointId');
  }
  if (typeof value === 'string') {
    const uuid = canonicalUuid(value);
    if (uuid !== undefined) return uuid;
    throw formatError(`Unable to parse UUID: ${value}`);
  }
  throw formatError('data did not match any variant of untagged enum ExtendedPointId');
}

/** The canonical lowercase hyphenated form of a UUID string, or undefined when it is not one. */
export function canonicalUuid(text: string): string | undefined {
  const trimmed = text.startsWith('urn:uuid:') ? text.slice(9) : text.replace(/^\{(.*)\}$/, '$1');
  if (HYPHENATED.test(trimmed)) return trimmed.toLowerCase();
  if (SIMPLE.test(trimmed)) {
    const t = trimmed.toLowerCase();
    return `${t.slice(0, 8)}-${t.slice(8, 12)}-${t.slice(12, 16)}-${t.slice(16, 20)}-${t.slice(20)}`;
  }
  return undefined;
}

/** Qdrant's id order: every integer id before every UUID; integers numerically, UUIDs as 128-bit numbers. */
export function comparePointIds(a: PointId, b: PointId): number {
  if (typeof a === 'number') {
    if (typeof b === 'number') return a - b;
    return -1;
  }
  if (typeof b === 'number') return 1;
  // Canonical lowercase hex with hyphens at fixed places: string order is numeric order.
  return a < b ? -1 : a > b ? 1 : 0;
}
