/**
 * SUITE_STALE: golden-set rot. A query's expected source or relevant URL that no longer names any page of the
 * book's sitemap (a page renamed or removed) makes the query fail however well retrieval works: the suite is
 * wrong, not the index. Low severity, addressed to whoever maintains the suite; the query is set aside so its
 * failure is not counted as a retrieval failure. Needs no history: the sitemap of this run is the evidence.
 */

import { matchesSource } from '../book/matching.ts';
import { expectationsOf } from '../history/run-digest.ts';
import { finding, type RegressionFinding } from '../report/regression-report.ts';
import type { ValidationReport } from '../report/report.ts';

/** The stale expectations of each query, given the run's sitemap (none when the sitemap could not be read). */
export function detectSuiteStale(report: ValidationReport): { stale: Set<string>; findings: RegressionFinding[] } {
  const coverage = report.coverage_report;
  if (!coverage || coverage.total_sitemap_urls === 0) return { stale: new Set(), findings: [] };
  const sitemap = [...coverage.indexed_urls, ...coverage.missing_urls];
  const stale = new Set<string>();
  const findings = report.query_results.flatMap((q) => {
    const gone = expectationsOf(q.query).filter((e) => !sitemap.some((url) => matchesSource(e, url)));
    if (gone.length === 0) return [];
    stale.add(q.id);
    return [
      finding({
        kind: 'SUITE_STALE',
        severity: 'LOW',
        addressed_to: 'suite maintainer',
        message: `query ${q.id} expects ${gone.join(', ')}, no longer in the book's sitemap: update the suite (the query is not counted as a retrieval failure)`,
        query_id: q.id,
        urls: gone,
      }),
    ];
  });
  return { stale, findings };
}
