/**
 * Freshness: a page whose sitemap lastmod is newer than the oldest indexed_at of its points was edited after it was
 * last indexed, so the index serves its old text. URLs are compared by the key coverage uses (book/matching.ts
 * normaliseUrl: host case, trailing slash, fragment), by path when no URL matches that way (a book that moved host,
 * as coverage does); a Docusaurus sitemap writes the host lower-cased while the indexer keeps the configured case.
 * A date-only lastmod ("2026-03-02", Docusaurus's `lastmod: 'date'`) cannot be compared with a time. It is compared
 * with the day the indexed text was last updated, which the indexer records in page_version (the same date the site
 * wrote when it published that text: front matter, last commit or file time): a later day is an edit the index has
 * not seen, the same day is the indexed text. Comparing it with the day of indexed_at instead (the rule before)
 * flagged an edit made the day of the index, but also every page edited that day for good: a re-index the same day
 * did not clear it (issue 23). Two edits on one day with an index between them are not seen; that is the form's
 * limit. A page indexed by an indexer that recorded no day keeps the older rule: on or after indexed_at's day is
 * possibly stale. Pages without lastmod or without indexed_at are not judged.
 */
import { normaliseUrl, urlPath } from '../book/matching.ts';
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
    const pages = [...inventory.pages];
    // Each URL normalised once: a sitemap of 50,000 long URLs against every indexed page, normalised per pair, kept
    // the Lambda's thread for tens of seconds and its heap full of garbage.
    const indexedUrls = new Set(pages.map(([url]) => normaliseUrl(url)));
    const byUrl = sitemap.entries.some((e) => indexedUrls.has(normaliseUrl(e.url)));
    const key = byUrl ? normaliseUrl : urlPath;
    const indexed = new Map(pages.map(([url, page]) => [key(url), page]));
    let checked = 0;
    const stale: string[] = [];
    for (const entry of sitemap.entries) {
      const page = indexed.get(key(entry.url));
      const indexedAt = page?.oldestIndexedAt;
      const lastmod = entry.lastmod === undefined ? Number.NaN : Date.parse(entry.lastmod);
      if (indexedAt === undefined || Number.isNaN(lastmod)) continue;
      checked += 1;
      if (editedAfter(entry.lastmod ?? '', lastmod, indexedAt, page?.updatedDay)) stale.push(entry.url);
    }
    const note = checked > 0 ? null : notCheckedNote(sitemap.entries, pages.length);
    const block = {
      pages_checked: checked,
      stale_pages: stale.length,
      urls: stale.slice(0, LISTED),
      source: inventory.source,
      ...(note === null ? {} : { note }),
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

/**
 * Why no page was checked, said in the report, the HTML and the summary (issue 23: Docusaurus's default sitemap has
 * no <lastmod>, and freshness then checked nothing without a word). Null when the index or the sitemap is empty:
 * other findings say so.
 */
function notCheckedNote(entries: readonly { lastmod?: string | undefined }[], indexedPages: number): string | null {
  if (entries.length === 0 || indexedPages === 0) return null;
  if (entries.every((e) => e.lastmod === undefined || e.lastmod.trim() === ''))
    return `freshness not checked: the sitemap gives no <lastmod> for any of its ${entries.length} pages, so an edit made after the index was built cannot be seen. Docusaurus writes one when the sitemap plugin's \`lastmod\` option is set ('date' or 'datetime') and docs carry their last update time (\`showLastUpdateTime: true\` in the docs options)`;
  return 'freshness not checked: no page the index holds has both a readable sitemap <lastmod> and a readable indexed_at';
}

const DATE_ONLY = /^\s*\d{4}-\d{2}-\d{2}\s*$/;

/**
 * lastmod after indexed_at. A date-only lastmod: after the day the indexed text was last updated when the indexer
 * recorded it, else (an index without that day) on or after indexed_at's day (UTC), since its time is unknown.
 */
function editedAfter(raw: string, lastmod: number, indexedAt: string, updatedDay: string | undefined): boolean {
  if (!DATE_ONLY.test(raw)) return lastmod > Date.parse(indexedAt);
  return updatedDay === undefined ? raw.trim() >= indexedAt.slice(0, 10) : raw.trim() > updatedDay;
}
