/** Coverage: the sitemap's pages under the path prefix that the collection holds. */
import { type CriterionDeclaration, defineCheck, verdict } from '../checks/check.ts';
import { collectionProfile } from '../quality/inputs.ts';
import { sitemapListing } from '../sitemap/inputs.ts';
import { sitemapIssueNotes } from '../sitemap/sitemap-issues.ts';
import { computeCoverage, coverageErrors } from './coverage.ts';

/** Seed 001: coverage = 100 by default. */
const COVERAGE: CriterionDeclaration = {
  name: 'coverage',
  description: 'Sitemap pages under the path prefix that are indexed (%)',
  threshold: 'min_coverage',
  comparator: '>=',
  decimals: 2,
  unit: '%',
  severity: (v) => (v === null || v < 90 ? 'HIGH' : 'MEDIUM'),
  judgedWhenSkipped: true,
};

export const coverageCheck = defineCheck({
  name: 'coverage',
  description: 'Every sitemap page under the path prefix is indexed, and nothing indexed is outside the sitemap',
  needs: { sitemap: sitemapListing, profile: collectionProfile },
  errorTypes: ['COVERAGE_GAP', 'ORPHAN_URLS'],
  criteria: [COVERAGE],
  metrics: ['CoveragePercent', 'MissingUrls', 'OrphanUrls'],
  section: 'coverage_report',
  judge({ sitemap, profile }, ctx) {
    const coverage = computeCoverage({
      sitemapUrls: sitemap.entries.map((e) => e.url),
      indexedUrls: [...profile.distinctUrls],
      pathPrefix: ctx.options.coveragePathPrefix,
      ...(ctx.options.coverageExclude === undefined ? {} : { exclude: ctx.options.coverageExclude }),
      sitemapUrl: ctx.sitemapUrl,
      source: profile.sources.urls,
      timestamp: ctx.now,
    });
    coverage.notes.push(...sitemapIssueNotes(sitemap.issues));
    return verdict({
      sections: { coverage_report: coverage },
      errors: coverageErrors(coverage, ctx.runId, ctx.newId),
      criteria: [ctx.criterion(COVERAGE, coverage.coverage_percentage)],
    });
  },
});
