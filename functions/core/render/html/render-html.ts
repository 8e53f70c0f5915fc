/**
 * Report -> one self-contained HTML page: inline CSS and SVG, no script, no external resource, so it opens offline,
 * from a mail attachment or from an S3 presigned URL alike. A Content-Security-Policy forbids any request anyway:
 * should a value ever escape its escaping, the page still cannot load or send anything. Pure: no clock, no I/O.
 */
import type { ValidationReport } from '../../report/report.ts';
import { buildTrendPoint, orderTrend, type TrendPoint } from '../trend-point.ts';
import { renderActFirst } from './act-first-section.ts';
import { html, Markup } from './escape.ts';
import { renderOptionalSection, renderTrend } from './extra-sections.ts';
import { renderGrounding } from './grounding-section.ts';
import { renderIndex } from './index-section.ts';
import { renderQueries } from './queries-section.ts';
import { renderRegression } from './regression-section.ts';
import { REPORT_CSS } from './style.ts';
import { renderErrors, renderSummary } from './summary-section.ts';

export interface HtmlReportOptions {
  /** Headline figures of earlier runs, any order; the current run is added and the last 14 are drawn. */
  history?: TrendPoint[];
  /**
   * Where README.md and docs/ are, as a URL (the repository's web view, or file: for a local checkout): "Act on this
   * first" links each finding's docs section under it. Without it the section's path is shown as text.
   */
  docsRoot?: string;
}

/** A section another part of ragwatch adds to the report (index health); absent from older reports. */

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'";

/** The whole page as a string. */
export function renderReportHtml(report: ValidationReport, options: HtmlReportOptions = {}): string {
  const extra = report;
  const thresholds = Object.fromEntries(report.success_criteria.map((c) => [c.name, c.threshold]));
  const trend = orderTrend(options.history ?? [], buildTrendPoint(report));
  const page: Markup = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${report.status} · ragwatch ${report.environment}/${report.collection} · ${report.timestamp}</title>
<style>${new Markup(REPORT_CSS)}</style></head>
<body><main>
${renderSummary(report, renderActFirst(report, options.docsRoot))}
<nav><a href="#criteria">criteria</a>${extra.regression ? html`<a href="#regression">changes</a>` : ''}<a href="#trend">trend</a><a href="#queries">queries</a><a href="#coverage">coverage</a><a href="#quality">quality</a>${extra.index_health ? html`<a href="#index-health">index health</a>` : ''}${report.grounding_report ? html`<a href="#grounding">grounded answers</a>` : ''}<a href="#errors">findings</a></nav>
${renderRegression(report.regression)}
${renderTrend(trend, thresholds)}
${renderQueries(report)}
${renderIndex(report)}
${renderOptionalSection('index-health', 'Index health', extra.index_health)}
${renderGrounding(report)}
${renderErrors(report)}
<footer>ragwatch report · schema ${report.schema_version} · run ${report.run_id} · finished ${report.finished_at} · the JSON report beside this file is the record</footer>
</main></body></html>
`;
  return page.value;
}
