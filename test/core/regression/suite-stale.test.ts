import { describe, expect, it } from 'vitest';
import { compareWithHistory } from '../../../functions/core/regression/compare-with-history.ts';
import { BOOK, buildReport, historyOf, hit, query } from './reports.ts';

/** q1 expects a page the book renamed: gone from the sitemap, so it fails, and pass rate falls to 90%. */
function renamedPage(threshold = 95) {
  const report = buildReport();
  const q1 = query(report, 'q1');
  q1.query = { id: 'q1', expected_sources: ['/docs/old-name'] };
  q1.status = 'FAIL';
  q1.passed = false;
  q1.top_results = [hit(1, `${BOOK}/docs/new-name`)];
  report.pass_rate = 90;
  report.status = 'FAILED';
  report.success_criteria = report.success_criteria.map((c) =>
    c.name === 'pass_rate' ? { ...c, value: 90, threshold, passed: 90 >= threshold } : c,
  );
  report.errors = [
    {
      id: 'e1',
      validation_id: report.run_id,
      error_type: 'CRITERION_BREACHED',
      message: 'pass_rate is 90%',
      severity: 'HIGH',
      details: { criterion: 'pass_rate' },
    },
  ];
  return report;
}

let n = 0;
const newId = () => `id-${++n}`;

describe('SUITE_STALE', () => {
  it('names the expectation no longer in the sitemap, at LOW severity, for the suite maintainer', () => {
    const regression = compareWithHistory(renamedPage(), [], newId).regression;
    expect(regression?.stale_queries).toEqual(['q1']);
    expect(regression?.findings).toEqual([
      expect.objectContaining({
        kind: 'SUITE_STALE',
        severity: 'LOW',
        addressed_to: 'suite maintainer',
        query_id: 'q1',
        urls: ['/docs/old-name'],
      }),
    ]);
  });

  it('does not count the stale query as a retrieval failure: pass rate is judged without it', () => {
    const report = compareWithHistory(renamedPage(), historyOf(7), newId);
    expect(report.status).toBe('PASSED');
    expect(report.success_criteria.find((c) => c.name === 'pass_rate')).toMatchObject({ value: 100, passed: true });
    expect(report.errors.filter((e) => e.error_type === 'CRITERION_BREACHED')).toEqual([]);
    expect(report.regression?.findings.map((f) => f.kind)).toEqual(['SUITE_STALE']);
  });

  it('still fails a run whose other queries breach the pass rate', () => {
    const report = renamedPage();
    query(report, 'q2').status = 'FAIL';
    query(report, 'q2').passed = false;
    const judged = compareWithHistory(report, [], newId);
    expect(judged.status).toBe('FAILED');
    expect(judged.success_criteria.find((c) => c.name === 'pass_rate')).toMatchObject({ value: 88.89, passed: false });
  });

  it('leaves a query whose expectations are all in the sitemap alone', () => {
    const report = buildReport();
    expect(compareWithHistory(report, [], newId).regression?.stale_queries).toEqual([]);
  });

  it('names every expectation gone from the sitemap in its message', () => {
    const report = renamedPage();
    query(report, 'q1').query = { id: 'q1', expected_sources: ['/docs/old-name', '/docs/older-name', '/docs/intro'] };
    expect(compareWithHistory(report, [], newId).regression?.findings[0]?.message).toBe(
      "query q1 expects /docs/old-name, /docs/older-name, no longer in the book's sitemap: update the suite (the query is not counted as a retrieval failure)",
    );
  });

  it('judges no expectation stale when the sitemap listed no page, or the run has no coverage', () => {
    const empty = renamedPage();
    if (empty.coverage_report) {
      empty.coverage_report.total_sitemap_urls = 0;
      empty.coverage_report.indexed_urls = [];
      empty.coverage_report.missing_urls = [];
    }
    expect(compareWithHistory(empty, [], newId).regression?.stale_queries).toEqual([]);
    const none = { ...renamedPage(), coverage_report: null };
    expect(compareWithHistory(none, [], newId).regression).toMatchObject({ stale_queries: [], findings: [] });
  });

  it('looks for no stale expectation in a run that could not complete', () => {
    const report = { ...renamedPage(), status: 'ERROR' as const };
    expect(compareWithHistory(report, historyOf(7), newId).regression).toMatchObject({
      note: 'not compared: the run could not complete, so its figures say nothing about quality',
      stale_queries: [],
      findings: [],
    });
  });
});
