/**
 * Golden-set rot: a query's expected source or relevant URL that no longer names any page of the book's sitemap (a
 * page renamed or removed) makes the query fail however well retrieval works: the suite is wrong, not the index.
 */
import { matchesPrepared, prepareExpected, prepareSource } from '../book/matching.ts';
import { expectationsOf } from '../history/run-digest.ts';
import type { ResolvedQuery } from '../suite/suite.ts';

/** Each query whose expectations name no page of the sitemap any more, with those expectations (none without pages). */
export function staleExpectations(queries: readonly ResolvedQuery[], pages: readonly string[]): Map<string, string[]> {
  const stale = new Map<string, string[]>();
  if (pages.length === 0) return stale;
  // One pass over the pages, each normalised once, against every expectation not yet found: per query and per
  // expectation, 50,000 pages of 2 KB were normalised 40 times over (over a minute of the Lambda's thread).
  const unfound = new Map<string, ReturnType<typeof prepareExpected>>();
  for (const query of queries) for (const e of expectationsOf(query)) unfound.set(e, prepareExpected(e));
  for (const url of pages) {
    if (unfound.size === 0) break;
    const source = prepareSource(url);
    for (const [e, expected] of unfound) if (matchesPrepared(expected, source)) unfound.delete(e);
  }
  for (const query of queries) {
    const gone = expectationsOf(query).filter((e) => unfound.has(e));
    if (gone.length > 0) stale.set(query.id, gone);
  }
  return stale;
}
