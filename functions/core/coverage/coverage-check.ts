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

/**
 * Issue 23 §6: an indexed URL with no page anywhere in the sitemap is a page deleted (or moved) on the site that
 * readers are still served answers from. Default 0: a book indexed from what it publishes has none, so the first
 * one is a fault worth a person's look; `index --prune` clears it, and a collection that holds other pages on
 * purpose raises the threshold. Not judged when the sitemap lists nothing (every indexed URL would count, and the
 * coverage criterion already fails) nor when the check could not run (the sitemap's failure is reported there).
 */
const ORPHAN_URLS: CriterionDeclaration = {
  name: 'orphan_urls',
  description: 'Indexed URLs with no page in the sitemap (deleted or moved pages still served)',
  threshold: 'max_orphan_urls',
  comparator: '<=',
  decimals: 0,
  unit: '',
  severity: () => 'MEDIUM',
  judgedWhenSkipped: false,
};

export const coverageCheck = defineCheck({
  name: 'coverage',
  description: 'Every sitemap page under the path prefix is indexed, and nothing indexed is outside the sitemap',
  needs: { sitemap: sitemapListing, profile: collectionProfile },
  errorTypes: ['COVERAGE_GAP', 'ORPHAN_URLS'],
  criteria: [COVERAGE, ORPHAN_URLS],
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
      criteria: [
        ctx.criterion(COVERAGE, coverage.coverage_percentage),
        sitemap.entries.length === 0 ? null : ctx.criterion(ORPHAN_URLS, coverage.extra_count),
      ],
    });
  },
});
