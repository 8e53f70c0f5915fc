/** The book's pages as its sitemap lists them: distinct, normalised, under the path prefix coverage counts. */
import { normaliseUrl, urlPath } from '../book/matching.ts';

/** The sitemap's distinct pages under the path prefix: the pages coverage counts. */
export function pagesUnderPrefix(sitemapUrls: readonly string[], pathPrefix: string): string[] {
  return distinct(sitemapUrls).filter((url) => isUnderPrefix(urlPath(url), pathPrefix));
}

/** Path-prefix test on segment boundaries: "/docs/" takes "/docs" and "/docs/intro", not "/docsearch". */
export function isUnderPrefix(path: string, prefix: string): boolean {
  const base = prefix.replace(/\/+$/, '');
  return base === '' || path === base || path.startsWith(`${base}/`);
}

/** The URLs, blank ones left out, each normalised (book/matching.ts), each once. */
export function distinct(urls: readonly string[]): string[] {
  return [...new Set(urls.filter((url) => url.trim() !== '').map(normaliseUrl))];
}
