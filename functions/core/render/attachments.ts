/**
 * The files written beside every JSON report: the HTML page a person opens and the CSV of per-query rows. Each
 * store (disk, S3) puts them next to the JSON under the same name with their own suffix.
 */

import type { ValidationReport } from '../report/report.ts';
import { renderReportHtml } from './html/render-html.ts';
import { renderQueryRowsCsv } from './report-csv.ts';
import type { TrendPoint } from './trend-point.ts';

export interface ReportAttachment {
  /** Replaces the JSON file's `.json`. */
  suffix: '.html' | '.csv';
  contentType: string;
  body: string;
}

/** The HTML report (with the trend of `history`, when given) and the CSV of per-query rows. */
export function buildReportAttachments(
  report: ValidationReport,
  options: { history?: TrendPoint[]; html?: boolean; csv?: boolean } = {},
): ReportAttachment[] {
  const out: ReportAttachment[] = [];
  if (options.html ?? true)
    out.push({
      suffix: '.html',
      contentType: 'text/html; charset=utf-8',
      body: renderReportHtml(report, options.history ? { history: options.history } : {}),
    });
  if (options.csv ?? true)
    out.push({ suffix: '.csv', contentType: 'text/csv; charset=utf-8', body: renderQueryRowsCsv(report) });
  return out;
}
