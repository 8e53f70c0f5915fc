/**
 * Golden-set rot: a query's expected source or relevant URL that no longer names any page of the book's sitemap (a
 * page renamed or removed) makes the query fail however well retrieval works: the suite is wrong, not the index.
 */
import { matchesSource, normaliseUrl, urlPath } from '../book/matching.ts';
import { expectationsOf } from '../history/run-digest.ts';
import type { ResolvedQuery } from '../suite/suite.ts';

/**
 * Each query whose expectations name no page of the sitemap any more, with those expectations (none without pages).
 * Full URLs are compared as coverage compares them (book/matching.ts normaliseUrl), and by path when none of them
 * names a sitemap page by URL: a book that moved host, or a sandbox's, would otherwise make every query stale.
 */
export function staleExpectations(queries: readonly ResolvedQuery[], pages: readonly string[]): Map<string, string[]> {
  const stale = new Map<string, string[]>();
  if (pages.length === 0) return stale;
  const urls = queries.flatMap(expectationsOf).filter(isFullUrl);
  const keys = new Set(pages.map(normaliseUrl));
  const byPath = urls.length > 0 && !urls.some((e) => keys.has(normaliseUrl(e)));
  const paths = new Set(pages.map(urlPath));
  const names = (e: string) =>
    byPath && isFullUrl(e) ? paths.has(urlPath(e)) : pages.some((url) => matchesSource(e, url));
  for (const query of queries) {
    const gone = expectationsOf(query).filter((e) => !names(e));
    if (gone.length > 0) stale.set(query.id, gone);
  }
  return stale;
}

function isFullUrl(expectation: string): boolean {
  return /^https?:\/\//i.test(expectation.trim());
}
