/**
 * The files written beside every JSON report: the HTML page a person opens and the CSV of per-query rows. Each
 * store (disk, S3) puts them next to the JSON under the same name with their own suffix.
 */

import type { ValidationReport } from '../report/report.ts';
import { renderReportHtml } from './html/render-html.ts';
import { renderQueryRowsCsv } from './report-csv.ts';
import type { TrendPoint } from './trend-point.ts';

export type ReportAttachment = TextAttachment | StreamedAttachment;

/** A file held whole: the HTML and the CSV (a few hundred KB at most, the URL lists being cut). */
export interface TextAttachment {
  /** Replaces the JSON file's `.json`. */
  suffix: '.html' | '.csv';
  contentType: string;
  body: string;
}

/** A file too large to hold whole (the full URL lists): its text in pieces, which the store gzips as a stream. */
export interface StreamedAttachment {
  /** Replaces the JSON file's `.json`; the store writes the gzip of the pieces under it. */
  suffix: '.urls.json.gz';
  contentType: 'application/gzip';
  /** A fresh iterator of the text each call (a retry starts again). */
  pieces: () => Iterable<string>;
}

/** The HTML report (with the trend of `history`, when given) and the CSV of per-query rows. */
export function buildReportAttachments(
  report: ValidationReport,
  options: { history?: TrendPoint[]; html?: boolean; csv?: boolean; docsRoot?: string } = {},
): TextAttachment[] {
  const out: TextAttachment[] = [];
  if (options.html ?? true)
    out.push({
      suffix: '.html',
      contentType: 'text/html; charset=utf-8',
      body: renderReportHtml(report, {
        ...(options.history ? { history: options.history } : {}),
        ...(options.docsRoot === undefined ? {} : { docsRoot: options.docsRoot }),
      }),
    });
  if (options.csv ?? true)
    out.push({ suffix: '.csv', contentType: 'text/csv; charset=utf-8', body: renderQueryRowsCsv(report) });
  return out;
}
