/**
 * Freshness: a page whose sitemap lastmod is newer than the oldest indexed_at of its points was edited after it was
 * last indexed, so the index serves its old text. URLs are compared without a trailing slash; pages without lastmod
 * or without indexed_at are not judged.
 */
import { type CriterionDeclaration, defineCheck, verdict } from '../checks/check.ts';
import { sitemapListing } from '../sitemap/inputs.ts';
import { indexInventory } from './inputs.ts';

const LISTED = 10;

const STALE_PAGES: CriterionDeclaration = {
  name: 'stale_pages',
  description: 'Pages edited after they were last indexed (sitemap lastmod > indexed_at)',
  threshold: 'max_stale_pages',
  comparator: '<=',
  decimals: 0,
  unit: '',
  severity: () => 'MEDIUM',
};

export const freshnessCheck = defineCheck({
  name: 'freshness',
  description: 'No page was edited after it was last indexed',
  needs: { inventory: indexInventory, sitemap: sitemapListing },
  errorTypes: ['STALE_PAGES'],
  criteria: [STALE_PAGES],
  metrics: ['StalePages'],
  section: 'index_health.freshness',
  judge({ inventory, sitemap }, ctx) {
    const indexed = new Map([...inventory.pages].map(([url, page]) => [trim(url), page.oldestIndexedAt]));
    let checked = 0;
    const stale: string[] = [];
    for (const entry of sitemap.entries) {
      const indexedAt = indexed.get(trim(entry.url));
      const lastmod = entry.lastmod === undefined ? Number.NaN : Date.parse(entry.lastmod);
      if (indexedAt === undefined || Number.isNaN(lastmod)) continue;
      checked += 1;
      if (lastmod > Date.parse(indexedAt)) stale.push(entry.url);
    }
    const block = {
      pages_checked: checked,
      stale_pages: stale.length,
      urls: stale.slice(0, LISTED),
      source: inventory.source,
    };
    return verdict({
      sections: { index_health: { freshness: block } },
      errors:
        stale.length === 0
          ? []
          : [
              ctx.error(
                'STALE_PAGES',
                'MEDIUM',
                `${stale.length} page(s) changed after they were indexed (sitemap lastmod newer than indexed_at): ${block.urls.join(', ')}`,
                { ...block },
              ),
            ],
      criteria: checked === 0 ? [] : [ctx.criterion(STALE_PAGES, stale.length)],
      // No page with both a lastmod and an indexed_at: nothing to judge.
      applicable: checked > 0,
    });
  },
});

function trim(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}
