/**
 * Coverage news: sitemap URLs missing from the index now that the baseline had indexed (COVERAGE_NEWLY_MISSING),
 * and indexed URLs no longer in the sitemap now that were not orphans before (COVERAGE_NEWLY_ORPHANED). A gap
 * that has been there for most of the baseline is the usual state, reported by the coverage criterion alone.
 * Stored reports keep the first URLs of each list (sorted): past the last URL a cut baseline list holds, the
 * baseline says nothing, so no URL sorting after it is news. A finding lists its first URL_LIST_LIMIT URLs.
 */

import { URL_LIST_LIMIT } from '../report/coverage-report.ts';
import { finding } from '../report/regression-report.ts';
import type { Detector } from './detector.ts';

export const detectCoverageChanges: Detector = ({ current, baseline }) => {
  if (!current.coverage || !baseline.coverage) return [];
  const usualMissing = new Set(baseline.coverage.missing);
  const usualOrphans = new Set(baseline.coverage.orphans);
  const known = (upTo: string | undefined) => (u: string) => upTo === undefined || u <= upTo;
  const missing = current.coverage.missing
    .filter(known(baseline.coverage.missingUpTo))
    .filter((u) => !usualMissing.has(u));
  const orphans = current.coverage.orphans
    .filter(known(baseline.coverage.orphansUpTo))
    .filter((u) => !usualOrphans.has(u));
  return [
    ...(missing.length === 0
      ? []
      : [
          finding({
            kind: 'COVERAGE_NEWLY_MISSING',
            severity: 'MEDIUM',
            message: `${missing.length} sitemap URL(s) no longer (or never) indexed since the baseline`,
            value: missing.length,
            baseline: 0,
            urls: missing.slice(0, URL_LIST_LIMIT),
          }),
        ]),
    ...(orphans.length === 0
      ? []
      : [
          finding({
            kind: 'COVERAGE_NEWLY_ORPHANED',
            severity: 'LOW',
            message: `${orphans.length} indexed URL(s) newly absent from the sitemap (stale chunks of a removed page?)`,
            value: orphans.length,
            baseline: 0,
            urls: orphans.slice(0, URL_LIST_LIMIT),
          }),
        ]),
  ];
};
