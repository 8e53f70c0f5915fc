/**
 * Freshness: a page whose sitemap lastmod is newer than the oldest indexed_at of its points was edited after it was
 * last indexed, so the index serves its old text. URLs are compared without a trailing slash; pages without lastmod
 * or without indexed_at are not judged.
 */
import type { Check } from '../checks/check.ts';
import { outcome } from '../checks/run-context.ts';
import { sitemapListing } from '../coverage/inputs.ts';
import { judgeCriterion } from '../criteria/criteria.ts';
import { inventoryFailures } from './inputs.ts';
import { indexInventory } from './inventory.ts';

const LISTED = 10;

export const freshnessCheck: Check = {
  name: 'freshness',
  async run(ctx) {
    const [inventory, sitemap] = await Promise.all([outcome(indexInventory(ctx)), outcome(sitemapListing(ctx))]);
    if (!inventory.ok)
      return { errors: [], failures: await inventoryFailures(ctx, 'index inventory', inventory.error) };
    // An unreadable sitemap is reported by the coverage check.
    if (!sitemap.ok) return { errors: [] };
    const indexed = new Map([...inventory.value.pages].map(([url, page]) => [trim(url), page.oldestIndexedAt]));
    let checked = 0;
    const stale: string[] = [];
    for (const entry of sitemap.value.entries) {
      const indexedAt = indexed.get(trim(entry.url));
      const lastmod = entry.lastmod === undefined ? Number.NaN : Date.parse(entry.lastmod);
      if (indexedAt === undefined || Number.isNaN(lastmod)) continue;
      checked += 1;
      if (lastmod > Date.parse(indexedAt)) stale.push(entry.url);
    }
    const block = { pages_checked: checked, stale_pages: stale.length, urls: stale.slice(0, LISTED) };
    return {
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
      verdicts:
        checked === 0
          ? []
          : [
              judgeCriterion({
                name: 'stale_pages',
                description: 'Pages edited after they were last indexed (sitemap lastmod > indexed_at)',
                decimals: 0,
                value: stale.length,
                threshold: ctx.criteria.max_stale_pages,
                comparator: '<=',
                severity: () => 'MEDIUM',
              }),
            ],
    };
  },
};

function trim(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}
