/**
 * Reading payload values by key as Qdrant does: a key with dots walks into nested objects (`meta.lang`), and an
 * array met on the way is flattened (`chunks.lang` over `[{lang}, {lang}]`); an array at the end of the path stays
 * one value, so `is_empty` can tell `[]` from `[null]`.
 */
import { formatError, invalidType } from './wire-error.ts';

/** A point's payload: a JSON object. */
export type Payload = Record<string, unknown>;

const NO_VALUES: readonly unknown[] = Object.freeze([]);

/** Splits a payload key into path segments (Qdrant's JSON path without the `[]` and quoting forms). */
export function splitKey(key: string): string[] {
  return key.split('.');
}

/** The values found at `path` in `payload`: none when the key is absent, one per object reached otherwise. */
export function readValues(payload: Payload, path: readonly string[]): readonly unknown[] {
  const first = path[0] as string;
  if (path.length === 1) {
    return Object.hasOwn(payload, first) ? [payload[first]] : NO_VALUES;
  }
  let current: unknown[] = [payload];
  for (const segment of path) {
    const next: unknown[] = [];
    for (const value of current) collectChild(value, segment, next);
    if (next.length === 0) return NO_VALUES;
    current = next;
  }
  return current;
}

function collectChild(value: unknown, segment: string, into: unknown[]): void {
  if (Array.isArray(value)) {
    for (const element of value) collectChild(element, segment, into);
    return;
  }
  if (isPlainObject(value) && Object.hasOwn(value, segment)) into.push(value[segment]);
}

/** True for a JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Which payload to return with a point: all, none, only some keys, or all but some keys. */
export type PayloadSelector =
  | { kind: 'all' }
  | { kind: 'none' }
  | { kind: 'include'; paths: string[][] }
  | { kind: 'exclude'; paths: string[][] };

/** Reads `with_payload` (bool, list of keys, {include} or {exclude}); `fallback` when absent or null. */
export function parsePayloadSelector(value: unknown, fallback: PayloadSelector): PayloadSelector {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value ? { kind: 'all' } : { kind: 'none' };
  if (Array.isArray(value)) return { kind: 'include', paths: readPaths(value) };
  if (isPlainObject(value)) {
    if (Array.isArray(value.include) && Object.keys(value).length === 1) {
      return { kind: 'include', paths: readPaths(value.include) };
    }
    if (Array.isArray(value.exclude) && Object.keys(value).length === 1) {
      return { kind: 'exclude', paths: readPaths(value.exclude) };
    }
  }
  throw formatError('data did not match any variant of untagged enum WithPayloadInterface');
}

function readPaths(list: unknown[]): string[][] {
  return list.map((key) => {
    if (typeof key !== 'string') throw invalidType(key, 'a string');
    return splitKey(key);
  });
}

/** The payload a response carries for `selector`, or undefined when none is asked for. Never mutates `payload`. */
export function selectPayload(payload: Payload, selector: PayloadSelector): Payload | undefined {
  switch (selector.kind) {
    case 'none':
      return undefined;
    case 'all':
      return payload;
    case 'include': {
      const out: Payload = {};
      for (const path of selector.paths) copyPath(payload, out, path);
      return out;
    }
    case 'exclude': {
      let out: Payload = payload;
      for (const path of selector.paths) out = withoutPath(out, path);
      return out;
    }
  }
}

function copyPath(from: Payload, to: Payload, path: string[]): void {
  const head = path[0] as string;
  if (!Object.hasOwn(from, head)) return;
  const value = from[head];
  if (path.length === 1) {
    to[head] = value;
    return;
  }
  const rest = path.slice(1);
  if (!isPlainObject(value)) return;
  const existing = to[head];
  const target: Payload = isPlainObject(existing) ? existing : {};
  copyPath(value, target, rest);
  if (Object.keys(target).length > 0) to[head] = target;
}

function withoutPath(from: Payload, path: string[]): Payload {
  const [head, ...rest] = path as [string, ...string[]];
  if (!Object.hasOwn(from, head)) return from;
  const copy: Payload = { ...from };
  if (rest.length === 0) {
    delete copy[head];
    return copy;
  }
  const value = from[head];
  if (isPlainObject(value)) copy[head] = withoutPath(value, rest);
  return copy;
}
