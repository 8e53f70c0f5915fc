/** The files written beside each JSON report: the HTML page and the per-query CSV. */
import { describe, expect, it } from 'vitest';
import { buildReportAttachments } from '../../../functions/core/render/attachments.ts';
import { renderReportHtml } from '../../../functions/core/render/html/render-html.ts';
import { renderQueryRowsCsv } from '../../../functions/core/render/report-csv.ts';
import { buildTrendPoint } from '../../../functions/core/render/trend-point.ts';
import { buildFailedReport, buildPassedReport } from '../../nightly/fixtures/reports.ts';

describe('buildReportAttachments', () => {
  it('gives the HTML page and the CSV by default, each with its suffix and content type', () => {
    const report = buildFailedReport();
    expect(buildReportAttachments(report)).toEqual([
      { suffix: '.html', contentType: 'text/html; charset=utf-8', body: renderReportHtml(report) },
      { suffix: '.csv', contentType: 'text/csv; charset=utf-8', body: renderQueryRowsCsv(report) },
    ]);
  });

  it('draws the trend of the history it is given in the HTML page', () => {
    const earlier = { ...buildTrendPoint(buildPassedReport()), run_id: 'r-0', timestamp: '2026-03-13T02:00:00.000Z' };
    const [page] = buildReportAttachments(buildFailedReport(), { history: [earlier] });
    expect(page?.body).toContain('<h2>Trend over the last 2 runs</h2>');
  });

  it('leaves out the HTML page or the CSV when told to', () => {
    const report = buildFailedReport();
    expect(buildReportAttachments(report, { html: false }).map((a) => a.suffix)).toEqual(['.csv']);
    expect(buildReportAttachments(report, { csv: false }).map((a) => a.suffix)).toEqual(['.html']);
    expect(buildReportAttachments(report, { html: false, csv: false })).toEqual([]);
  });
});
