/** The coverage concern's shared input: the sitemap, read once per run as the step `sitemap`. */
import type { RunContext } from '../checks/check.ts';
import type { SitemapListing } from '../ports.ts';

/** The sitemap's pages (with their lastmod when given) and what the source refused or cut on the way. */
export const sitemapListing = (ctx: RunContext): Promise<SitemapListing> =>
  ctx.step('sitemap', () => ctx.deps.sitemap.list(ctx.signal ? { signal: ctx.signal } : {}));
