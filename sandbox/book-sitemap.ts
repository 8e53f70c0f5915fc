/**
 * A sitemap for a book that has none at hand: what a Docusaurus build would publish for its docs, the site's home
 * page and every page URL the indexer derives (read-docs.ts), so coverage on the sandbox compares like with like.
 */
import { XMLBuilder } from 'fast-xml-parser';
import type { DocPage } from '../functions/indexer/read-docs.ts';

/**
 * The sitemap XML of the home page (the base URL) and each page, in page order; with `lastmod`, each page carries
 * its `<lastmod>` (a Docusaurus site's with the sitemap plugin's `lastmod` option and `showLastUpdateTime`).
 */
export function sitemapOfPages(
  baseUrl: string,
  pages: readonly DocPage[],
  lastmod?: ReadonlyMap<string, string>,
): string {
  const home = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  const urls = [
    { loc: home },
    ...pages.map((page) => {
      const at = lastmod?.get(page.file);
      return at === undefined ? { loc: page.sourceUrl } : { loc: page.sourceUrl, lastmod: at };
    }),
  ];
  const builder = new XMLBuilder({ ignoreAttributes: false, format: true });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({
    urlset: { '@_xmlns': 'http://www.sitemaps.org/schemas/sitemap/0.9', url: urls },
  })}`;
}
