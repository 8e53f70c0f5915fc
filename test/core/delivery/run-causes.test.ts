/** The email's second line (the likeliest cause) and the grouping of failing queries by reason. */
import { describe, expect, it } from 'vitest';
import { causeLine, groupByReason, noQueryCompleted } from '../../../functions/core/delivery/run-causes.ts';
import {
  buildErrorReport,
  buildFailedReport,
  buildMrrDrop,
  buildPassedReport,
  buildRegression,
} from '../../nightly/fixtures/reports.ts';

const STORED = { stored: true };

/** A FAILED report with no failing query: what breaks is elsewhere. */
function failedWithoutQueries() {
  const report = buildFailedReport();
  report.query_results = report.query_results.filter((q) => q.status === 'PASS');
  return report;
}

describe('groupByReason', () => {
  it('groups items by their exact reason, the largest group first, ties in the order first seen', () => {
    const items = [
      { id: 'a', reason: 'x' },
      { id: 'b', reason: 'y' },
      { id: 'c', reason: 'y' },
      { id: 'd', reason: 'z' },
      { id: 'e', reason: 'x ' },
    ];
    expect(groupByReason(items)).toEqual([
      { reason: 'y', ids: ['b', 'c'] },
      { reason: 'x', ids: ['a'] },
      { reason: 'z', ids: ['d'] },
      { reason: 'x ', ids: ['e'] },
    ]);
  });
});

describe('noQueryCompleted', () => {
  it('is true only when no query passed or failed', () => {
    const none = { ...buildFailedReport(), passed_queries: 0, failed_queries: 0 };
    expect(noQueryCompleted(none)).toBe(true);
    expect(noQueryCompleted({ ...none, failed_queries: 1 })).toBe(false);
    expect(noQueryCompleted({ ...none, passed_queries: 1 })).toBe(false);
  });
});

describe('causeLine', () => {
  it('names an ERROR run’s reason without its "could not complete" preamble', () => {
    const report = buildErrorReport();
    report.status_reason = 'the run could not complete: Qdrant refused the key';
    expect(causeLine(report, STORED)).toBe('Cause: Qdrant refused the key');
  });

  it('names the largest group of failing queries, errors before failures however many fail', () => {
    const report = buildFailedReport();
    const [errored] = report.query_results.filter((q) => q.status === 'FAIL');
    if (!errored) throw new Error('the fixture has failing queries');
    errored.status = 'ERROR';
    errored.fail_reason = 'Qdrant search failed with 503';
    expect(causeLine(report, STORED)).toBe('Cause: 1 of 20 queries errored: Qdrant search failed with 503');
    expect(causeLine(buildFailedReport(), STORED)).toBe(
      'Cause: 12 of 20 queries failed: best similarity 0.41 is under min_similarity 0.70',
    );
  });

  it('names the first regression when no query failed, else the missing pages', () => {
    const regressed = failedWithoutQueries();
    regressed.regression = buildRegression({ findings: [buildMrrDrop({ message: 'MRR 0.61, usually 0.90' })] });
    expect(causeLine(regressed, STORED)).toBe('Cause: MRR 0.61, usually 0.90');
    expect(causeLine(failedWithoutQueries(), STORED)).toBe(
      'Cause: 25 page(s) of the sitemap are not in the index (listed below)',
    );
  });

  it('names a report S3 refused, and where its only copy is, before a failed sink', () => {
    const context = {
      stored: false,
      notStored: { reason: 'AccessDenied', fallback: 'the log' },
      failedSinks: [{ sink: 'CloudWatch metrics', reason: '400' }],
    };
    expect(causeLine(buildPassedReport(), context)).toBe(
      'Cause: S3 would not take the report (AccessDenied); its only copy is in the log',
    );
    expect(causeLine(buildPassedReport(), { stored: true, failedSinks: context.failedSinks })).toBe(
      'Cause: CloudWatch metrics: 400',
    );
  });

  it('puts a quality cause before a delivery one on a FAILED run', () => {
    const context = { stored: true, failedSinks: [{ sink: 'CloudWatch metrics', reason: '400' }] };
    expect(causeLine(buildFailedReport(), context)).toMatch(/^Cause: 12 of 20 queries failed: /);
  });

  it('points at the list below when nothing names a cause', () => {
    const report = failedWithoutQueries();
    if (report.coverage_report) report.coverage_report.missing_urls = [];
    expect(causeLine(report, STORED)).toBe('Cause: see WHAT BROKE below; the report (first link) has every figure');
  });
});
