/**
 * Coverage (seed 001): the book's sitemap pages under a path prefix against the distinct source_url values in the
 * index. Both sides are normalised (matching.ts). When no page matches by full URL but some match by path, the book
 * has moved host (or is served from a sandbox): pages are then matched by path, and the report says so.
 * Orphans (extra_urls) are indexed URLs with no page anywhere in the sitemap, whatever their path: an indexed page
 * outside the prefix that the sitemap lists is not an orphan, it is simply not counted.
 */

import { urlPath } from '../book/matching.ts';
import { type CoverageReport, URL_LIST_LIMIT } from '../report/coverage-report.ts';
import type { ValidationError } from '../report/findings.ts';
import { roundTo } from '../shared/statistics.ts';
import { distinct, isExcluded, isGeneratedListing, isUnderPrefix, pagesUnderPrefix } from '../sitemap/pages.ts';

const LISTED_IN_DETAILS = 20;

/** Compares sitemap pages under the prefix with the indexed URLs; never reports 100% of nothing. */
export function computeCoverage(options: {
  sitemapUrls: readonly string[];
  indexedUrls: readonly string[];
  pathPrefix: string;
  /** COVERAGE_EXCLUDE: sitemap paths under the prefix that are not docs (sitemap/pages.ts isExcluded). */
  exclude?: readonly string[];
  sitemapUrl: string;
  source: CoverageReport['source'];
  timestamp: string;
}): CoverageReport {
  const { pathPrefix } = options;
  const sitemap = distinct(options.sitemapUrls);
  const indexed = distinct(options.indexedUrls);
  const exclude = options.exclude ?? [];
  const pages = pagesUnderPrefix(sitemap, pathPrefix, exclude);
  const notes: string[] = [];
  const listings = sitemap.filter((url) => isGeneratedListing(urlPath(url), pathPrefix));
  if (listings.length > 0)
    notes.push(
      `${listings.length} generated listing page(s) under ${pathPrefix} not counted (tags, generated-index categories: no docs file makes them), e.g. ${listings[0]}`,
    );
  const excluded = sitemap.filter(
    (url) =>
      isUnderPrefix(urlPath(url), pathPrefix) &&
      !isGeneratedListing(urlPath(url), pathPrefix) &&
      isExcluded(urlPath(url), exclude),
  );
  if (excluded.length > 0)
    notes.push(`${excluded.length} sitemap page(s) left out by COVERAGE_EXCLUDE (not docs), e.g. ${excluded[0]}`);

  const indexedSet = new Set(indexed);
  const byUrl = pages.some((url) => indexedSet.has(url));
  const indexedPaths = new Set(indexed.map(urlPath));
  const byPath = !byUrl && pages.some((url) => indexedPaths.has(urlPath(url)));
  const key = byPath ? urlPath : (url: string) => url;
  if (byPath) {
    notes.push(
      `No indexed URL matched a sitemap URL exactly, so pages were matched by path alone (sitemap hosts: ${hostsOf(pages)}; indexed hosts: ${hostsOf(indexed)})`,
    );
  }

  const indexedKeys = new Set(indexed.map(key));
  const sitemapKeys = new Set(sitemap.map(key));
  const found = pages.filter((url) => indexedKeys.has(key(url)));
  const missing = pages.filter((url) => !indexedKeys.has(key(url)));
  const extra = indexed.filter((url) => !sitemapKeys.has(key(url)));

  const suggested = pages.length === 0 ? suggestPrefix(sitemap, indexed) : null;
  if (sitemap.length === 0) notes.push('The sitemap lists no URL: coverage is 0%');
  else if (pages.length === 0)
    notes.push(
      `None of the sitemap's ${sitemap.length} URLs is under ${pathPrefix}: coverage is 0%` +
        (suggested === null ? '' : `; set COVERAGE_PATH_PREFIX=${suggested} to count the pages under it`),
    );
  if (indexed.length === 0) notes.push('The index holds no source_url');

  return {
    sitemap_url: options.sitemapUrl,
    path_prefix: pathPrefix,
    outside_prefix_urls: sitemap.length - pages.length - listings.length - excluded.length,
    suggested_prefix: suggested,
    total_sitemap_urls: pages.length,
    indexed_urls: found.sort(),
    missing_urls: missing.sort(),
    extra_urls: extra.sort(),
    indexed_count: found.length,
    missing_count: missing.length,
    extra_count: extra.length,
    // The engine's report holds every URL; the post-run step cuts the lists for storage (render/url-lists.ts).
    urls_listed_max: URL_LIST_LIMIT,
    full_url_lists: null,
    distinct_indexed_urls: indexed.length,
    coverage_percentage: pages.length === 0 ? 0 : roundTo((found.length / pages.length) * 100, 2),
    matched_by: byPath ? 'path' : 'url',
    source: options.source,
    notes,
    timestamp: options.timestamp,
  };
}

/** COVERAGE_GAP (HIGH under 90%, else MEDIUM) when pages are missing or none is under the prefix; ORPHAN_URLS (LOW) for extras. */
export function coverageErrors(report: CoverageReport, runId: string, newId: () => string): ValidationError[] {
  const errors: ValidationError[] = [];
  const missing = report.missing_urls;
  const missingCount = report.missing_count;
  if (missingCount > 0 || report.total_sitemap_urls === 0) {
    const what =
      report.total_sitemap_urls === 0
        ? `No sitemap URL under ${report.path_prefix} in ${report.sitemap_url}` +
          (report.suggested_prefix === null
            ? ''
            : ` (${report.outside_prefix_urls} outside it; COVERAGE_PATH_PREFIX=${report.suggested_prefix} would match)`)
        : `${missingCount} of ${report.total_sitemap_urls} sitemap pages under ${report.path_prefix} ${missingCount === 1 ? 'is' : 'are'} not indexed`;
    errors.push({
      id: newId(),
      validation_id: runId,
      error_type: 'COVERAGE_GAP',
      message: `${what} (coverage ${report.coverage_percentage}%)${missing[0] === undefined ? '' : `; first missing: ${missing[0]}`}`,
      severity: report.coverage_percentage < 90 ? 'HIGH' : 'MEDIUM',
      details: {
        coverage_percentage: report.coverage_percentage,
        total_sitemap_urls: report.total_sitemap_urls,
        missing_count: missingCount,
        missing_urls: missing.slice(0, LISTED_IN_DETAILS),
        matched_by: report.matched_by,
        path_prefix: report.path_prefix,
        outside_prefix_urls: report.outside_prefix_urls,
        suggested_prefix: report.suggested_prefix,
      },
    });
  }
  if (report.extra_count > 0) {
    errors.push({
      id: newId(),
      validation_id: runId,
      error_type: 'ORPHAN_URLS',
      message: `${report.extra_count} indexed ${report.extra_count === 1 ? 'URL has' : 'URLs have'} no page in the sitemap; first: ${report.extra_urls[0]}`,
      severity: 'LOW',
      details: { extra_count: report.extra_count, extra_urls: report.extra_urls.slice(0, LISTED_IN_DETAILS) },
    });
  }
  return errors;
}

/**
 * A prefix that would have counted some sitemap pages: the folder the indexed pages share when sitemap URLs live
 * under it (the book's docs as the indexer wrote them), else the first `.../docs/` folder in the sitemap's paths.
 */
function suggestPrefix(sitemap: readonly string[], indexed: readonly string[]): string | null {
  const shared = commonFolder(indexed.map(urlPath));
  if (shared !== null && shared !== '/' && sitemap.some((url) => isUnderPrefix(urlPath(url), shared))) return shared;
  for (const url of sitemap) {
    const match = /^(.*?\/docs)(?:\/|$)/.exec(urlPath(url));
    if (match?.[1] !== undefined) return `${match[1]}/`;
  }
  return null;
}

/** The deepest folder (ending in "/") that holds every path; null for no paths. */
function commonFolder(paths: readonly string[]): string | null {
  const [first, ...rest] = paths.map((p) => p.split('/').slice(0, -1));
  if (first === undefined) return null;
  let length = first.length;
  for (const segments of rest) {
    let i = 0;
    while (i < length && segments[i] === first[i]) i += 1;
    length = i;
  }
  return `${first.slice(0, length).join('/')}/`;
}

function hostsOf(urls: readonly string[]): string {
  const hosts = new Set(urls.map((url) => /^https?:\/\/([^/]+)/.exec(url)?.[1] ?? '(no host)'));
  return [...hosts].sort().join(', ');
}
