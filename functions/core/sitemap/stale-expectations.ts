/**
 * Golden-set rot: a query's expected source or relevant URL that no longer names any page of the book's sitemap (a
 * page renamed or removed) makes the query fail however well retrieval works: the suite is wrong, not the index.
 */
import { matchesPrepared, prepareExpected, prepareSource, urlPath } from '../book/matching.ts';
import { expectationsOf } from '../history/run-digest.ts';
import type { ResolvedQuery } from '../suite/suite.ts';

/**
 * Each query whose expectations name no page of the sitemap any more, with those expectations (none without pages).
 * Full URLs are compared as coverage compares them (book/matching.ts normaliseUrl), and by path when none of them
 * names a sitemap page by URL: a book that moved host, or a sandbox's, would otherwise make every query stale.
 * One pass over the pages, each normalised once, against every expectation: per expectation and per page, 50,000
 * pages of 2 KB were normalised 40 times over (over a minute of the Lambda's thread, and its heap full of copies).
 */
export function staleExpectations(queries: readonly ResolvedQuery[], pages: readonly string[]): Map<string, string[]> {
  const stale = new Map<string, string[]>();
  if (pages.length === 0) return stale;
  const expectations = [...new Set(queries.flatMap(expectationsOf))];
  const prepared = new Map(expectations.map((e) => [e, prepareExpected(e)]));
  const urlPaths = new Map(expectations.filter(isFullUrl).map((e) => [e, urlPath(e)]));
  const named = new Set<string>();
  const namedByPath = new Set<string>();
  for (const url of pages) {
    const source = prepareSource(url);
    for (const [e, expected] of prepared) if (!named.has(e) && matchesPrepared(expected, source)) named.add(e);
    for (const [e, path] of urlPaths) if (path === source.path) namedByPath.add(e);
  }
  const byPath = urlPaths.size > 0 && ![...urlPaths.keys()].some((e) => named.has(e));
  const names = (e: string) => (byPath && urlPaths.has(e) ? namedByPath.has(e) : named.has(e));
  for (const query of queries) {
    const gone = expectationsOf(query).filter((e) => !names(e));
    if (gone.length > 0) stale.set(query.id, gone);
  }
  return stale;
}

function isFullUrl(expectation: string): boolean {
  return /^https?:\/\//i.test(expectation.trim());
}
