/** The book's pages as its sitemap lists them: distinct, normalised, under the path prefix coverage counts. */
import { normaliseUrl, urlPath } from '../book/matching.ts';

/**
 * The sitemap's distinct pages under the path prefix: the pages coverage counts (generated listings and the paths
 * `exclude` names left out).
 */
export function pagesUnderPrefix(
  sitemapUrls: readonly string[],
  pathPrefix: string,
  exclude: readonly string[] = [],
): string[] {
  return distinct(sitemapUrls).filter((url) => {
    const path = urlPath(url);
    return isUnderPrefix(path, pathPrefix) && !isGeneratedListing(path, pathPrefix) && !isExcluded(path, exclude);
  });
}

/**
 * A page COVERAGE_EXCLUDE names: the path itself (trailing slash ignored), or anything under an entry ending in `/**`.
 * Docs served at the site's root (`routeBasePath: '/'`) share the prefix `/` with the site's own pages (the home
 * page, `/markdown-page`, the blog): only their paths tell them apart.
 */
export function isExcluded(path: string, exclude: readonly string[]): boolean {
  // Asked of every sitemap page, mostly with nothing to exclude: then nothing is built.
  if (exclude.length === 0) return false;
  const bare = path.replace(/\/+$/, '');
  return exclude.some((entry) =>
    entry.endsWith('/**') ? isUnderPrefix(path, entry.slice(0, -3) || '/') : bare === entry.replace(/\/+$/, ''),
  );
}

/**
 * A listing Docusaurus generates under the docs route, that no docs file makes and so no indexer can hold: the tags
 * index and each tag's page (`<docs>/tags`, `<docs>/tags/<tag>`), a generated-index category page
 * (`<docs>/category/<slug>`). A book with tags otherwise counts them missing every night (issue 23).
 */
export function isGeneratedListing(path: string, pathPrefix: string): boolean {
  // Every listing's path holds one of these; asked of every sitemap page, most answer here without allocating.
  if (!path.includes('tags') && !path.includes('category/')) return false;
  const base = pathPrefix.replace(/\/+$/, '');
  if (!isUnderPrefix(path, pathPrefix)) return false;
  const rest = path.slice(base.length).replace(/^\/+|\/+$/g, '');
  return /^tags(\/[^/]+)?$/.test(rest) || /^category\/[^/]+$/.test(rest);
}

/** Path-prefix test on segment boundaries: "/docs/" takes "/docs" and "/docs/intro", not "/docsearch". */
export function isUnderPrefix(path: string, prefix: string): boolean {
  const base = prefix.endsWith('/') ? prefix.replace(/\/+$/, '') : prefix;
  return base === '' || path === base || (path.startsWith(base) && path.charCodeAt(base.length) === 47);
}

/** The URLs, blank ones left out, each normalised (book/matching.ts), each once. */
export function distinct(urls: readonly string[]): string[] {
  return [...new Set(urls.filter((url) => url.trim() !== '').map(normaliseUrl))];
}
