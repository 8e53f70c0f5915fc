/** Coverage: the sitemap's pages under the path prefix that the collection holds. */
import type { Check } from '../checks/check.ts';
import { failureType, outcome } from '../checks/run-context.ts';
import { collectionProfile } from '../quality/inputs.ts';
import { describeError } from '../shared/errors.ts';
import { computeCoverage, coverageErrors } from './coverage.ts';
import { sitemapListing } from './inputs.ts';
import { sitemapIssueErrors, sitemapIssueNotes } from './sitemap-issues.ts';

export const coverageCheck: Check = {
  name: 'coverage',
  async run(ctx) {
    const [sitemap, profile] = await Promise.all([outcome(sitemapListing(ctx)), outcome(collectionProfile(ctx))]);
    const location = ctx.deps.sitemap.location;
    if (!sitemap.ok) {
      const reason = describeError(sitemap.error);
      return {
        sections: { coverage_report: null },
        errors: [
          ctx.error(
            failureType(sitemap.error, 'SITEMAP_FAILED'),
            'HIGH',
            `could not read the sitemap ${location}: ${reason}`,
            { sitemap_url: location },
          ),
        ],
        failures: [`sitemap: ${reason}`],
        criteria: { coverage: null },
      };
    }
    const issues = sitemapIssueErrors(sitemap.value.issues, ctx.runId, ctx.deps.newId);
    // An unreadable collection is reported once, by the collection check.
    if (!profile.ok) return { sections: { coverage_report: null }, errors: issues, criteria: { coverage: null } };
    const coverage = computeCoverage({
      sitemapUrls: sitemap.value.entries.map((e) => e.url),
      indexedUrls: [...profile.value.distinctUrls],
      pathPrefix: ctx.options.coveragePathPrefix,
      sitemapUrl: location,
      source: profile.value.sources.urls,
      timestamp: ctx.deps.clock.now().toISOString(),
    });
    coverage.notes.push(...sitemapIssueNotes(sitemap.value.issues));
    return {
      sections: { coverage_report: coverage },
      errors: [...issues, ...coverageErrors(coverage, ctx.runId, ctx.deps.newId)],
      criteria: { coverage: coverage.coverage_percentage },
    };
  },
};
