/** The sitemap as read: what its source refused (another origin, credentials) or cut short (a cap reached). */
import { defineCheck, verdict } from '../checks/check.ts';
import { sitemapListing } from './inputs.ts';
import { sitemapIssueErrors } from './sitemap-issues.ts';

export const sitemapCheck = defineCheck({
  name: 'sitemap',
  description: 'The sitemap was read whole: no URL refused, no cap reached',
  needs: { sitemap: sitemapListing },
  errorTypes: ['SITEMAP_URL_REFUSED', 'SITEMAP_TRUNCATED'],
  criteria: [],
  metrics: [],
  section: 'coverage_report.notes',
  judge({ sitemap }, ctx) {
    return verdict({ sections: {}, errors: sitemapIssueErrors(sitemap.issues, ctx.runId, ctx.newId) });
  },
});
