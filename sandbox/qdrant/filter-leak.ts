/**
 * The filter-leak fault (a broken payload index), scoped: on for every filtered approximate search, or only for
 * those whose filter names one key and value, so the demo can break one query's filter and leave the rest of the
 * suite's filtered queries correct.
 */
import { isPlainObject } from './payload-path.ts';

/** Which filtered approximate searches leak: all (`true`), none (`false`), or those naming `key` = `value`. */
export type FilterLeak = boolean | { key: string; value: string | number | boolean };

/** Whether a search sent with the filter `filter` (the request's JSON) leaks under `scope`. */
export function leaks(scope: FilterLeak | undefined, filter: unknown): boolean {
  if (scope === undefined || typeof scope === 'boolean') return scope === true;
  return names(filter, scope.key, scope.value);
}

/** A field condition `{ key, match: { value } }` (or `match.any` holding the value) anywhere in the filter. */
function names(node: unknown, key: string, value: string | number | boolean): boolean {
  if (Array.isArray(node)) return node.some((n) => names(n, key, value));
  if (!isPlainObject(node)) return false;
  const match = node.match;
  if (node.key === key && isPlainObject(match)) {
    if (match.value === value) return true;
    if (Array.isArray(match.any) && match.any.includes(value)) return true;
  }
  // A condition may itself be a filter; must_not names the value too (a leak there is as broken).
  return [node.must, node.should, node.must_not].some((clause) => names(clause, key, value));
}
