/** The sitemap's inputs: the sitemap, read once per run as the step `sitemap`, and the golden queries it made stale. */
import type { Input } from '../checks/input.ts';
import { outcome } from '../checks/input.ts';
import type { SitemapListing } from '../ports.ts';
import { pagesUnderPrefix } from './pages.ts';
import { staleExpectations } from './stale-expectations.ts';

/** The sitemap's pages (with their lastmod when given) and what the source refused or cut on the way. */
export const sitemapListing: Input<SitemapListing> = {
  name: 'sitemap',
  steps: ['sitemap'],
  resolve: (ctx) => ctx.step('sitemap', () => ctx.deps.sitemap.list(ctx.signal ? { signal: ctx.signal } : {})),
  failure: {
    label: 'sitemap',
    finding: {
      type: 'SITEMAP_FAILED',
      severity: 'HIGH',
      message: (reason, ctx) => `could not read the sitemap ${ctx.deps.sitemap.location}: ${reason}`,
      details: (ctx) => ({ sitemap_url: ctx.deps.sitemap.location }),
    },
  },
};

/** The golden queries whose expectations left the sitemap; no I/O: the sitemap's pages against the suite. */
export interface StaleQueries {
  /** Sitemap pages under the coverage prefix: 0 when the sitemap listed none, or could not be read. */
  pages: number;
  /** Each stale query's id, with the expectations no page of the sitemap answers any more, in suite order. */
  stale: Map<string, string[]>;
}

/** Never fails: without a sitemap, no query is judged stale (the sitemap's failure is reported there). */
export const staleQueries: Input<StaleQueries> = {
  name: 'stale queries',
  steps: [],
  resolve: async (ctx) => {
    const sitemap = await outcome(ctx.input(sitemapListing));
    if (!sitemap.ok) return { pages: 0, stale: new Map() };
    const pages = pagesUnderPrefix(
      sitemap.value.entries.map((e) => e.url),
      ctx.options.coveragePathPrefix,
      ctx.options.coverageExclude,
    );
    return { pages: pages.length, stale: staleExpectations(ctx.queries, pages) };
  },
};
