/**
 * The report as it is stored: each coverage URL list cut to its first URL_LIST_LIMIT URLs (the lists are sorted, and
 * the report's counts stay whole), and, when a list was cut, every list in full as an attachment the store writes
 * as a gzip stream. A protocol-maximal sitemap (50,000 URLs of up to 2 KB) made a 100 MB report whose serialising
 * and double upload took the Lambda's process past its 512 MB; the cut report is a few hundred KB whatever the
 * sitemap, and the full lists are never held as one string.
 */
import { FULL_URL_LISTS_SUFFIX, URL_LIST_LIMIT } from '../report/coverage-report.ts';
import type { ValidationReport } from '../report/report.ts';
import type { StreamedAttachment } from './attachments.ts';

const LISTS = ['indexed_urls', 'missing_urls', 'extra_urls'] as const;

/** The report to store, and the attachment of the full lists when a list was cut (else null). */
export function cutUrlLists(
  report: ValidationReport,
  limit = URL_LIST_LIMIT,
): { report: ValidationReport; fullLists: StreamedAttachment | null } {
  const coverage = report.coverage_report;
  if (coverage === null || LISTS.every((list) => coverage[list].length <= limit))
    return { report: withLimit(report, limit), fullLists: null };
  const full = {
    indexed_urls: coverage.indexed_urls,
    missing_urls: coverage.missing_urls,
    extra_urls: coverage.extra_urls,
  };
  return {
    report: {
      ...report,
      coverage_report: {
        ...coverage,
        indexed_urls: coverage.indexed_urls.slice(0, limit),
        missing_urls: coverage.missing_urls.slice(0, limit),
        extra_urls: coverage.extra_urls.slice(0, limit),
        urls_listed_max: limit,
        full_url_lists: FULL_URL_LISTS_SUFFIX,
      },
    },
    fullLists: {
      suffix: FULL_URL_LISTS_SUFFIX,
      contentType: 'application/gzip',
      pieces: () => fullListPieces(full),
    },
  };
}

function withLimit(report: ValidationReport, limit: number): ValidationReport {
  const coverage = report.coverage_report;
  if (coverage === null || (coverage.urls_listed_max === limit && coverage.full_url_lists === null)) return report;
  return { ...report, coverage_report: { ...coverage, urls_listed_max: limit, full_url_lists: null } };
}

/** The full lists as JSON text, one URL a line, in pieces of about 64 KB: never one string of the whole. */
function* fullListPieces(lists: Record<(typeof LISTS)[number], readonly string[]>): Generator<string> {
  const PIECE = 64 * 1024;
  let piece = '{';
  for (const [i, list] of LISTS.entries()) {
    piece += `${i === 0 ? '' : ','}\n${JSON.stringify(list)}: [`;
    for (const [j, url] of lists[list].entries()) {
      piece += `${j === 0 ? '' : ','}\n  ${JSON.stringify(url)}`;
      if (piece.length >= PIECE) {
        yield piece;
        piece = '';
      }
    }
    piece += lists[list].length === 0 ? ']' : '\n]';
  }
  yield `${piece}\n}\n`;
}
