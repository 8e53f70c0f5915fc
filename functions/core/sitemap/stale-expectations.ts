/**
 * Golden-set rot: a query's expected source or relevant URL that no longer names any page of the book's sitemap (a
 * page renamed or removed) makes the query fail however well retrieval works: the suite is wrong, not the index.
 */
import { matchesSource } from '../book/matching.ts';
import { expectationsOf } from '../history/run-digest.ts';
import type { ResolvedQuery } from '../suite/suite.ts';

/** Each query whose expectations name no page of the sitemap any more, with those expectations (none without pages). */
export function staleExpectations(queries: readonly ResolvedQuery[], pages: readonly string[]): Map<string, string[]> {
  const stale = new Map<string, string[]>();
  if (pages.length === 0) return stale;
  for (const query of queries) {
    const gone = expectationsOf(query).filter((e) => !pages.some((url) => matchesSource(e, url)));
    if (gone.length > 0) stale.set(query.id, gone);
  }
  return stale;
}
