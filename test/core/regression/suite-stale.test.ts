/** The comparison with history keeps the run's own SUITE_STALE verdict (coverage/suite-stale-check.ts). */
import { describe, expect, it } from 'vitest';
import { compareWithHistory } from '../../../functions/core/regression/compare-with-history.ts';
import { finding } from '../../../functions/core/report/regression-report.ts';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import { BOOK, buildReport, historyOf, hit, query } from './reports.ts';

const STALE = finding({
  kind: 'SUITE_STALE',
  severity: 'LOW',
  addressed_to: 'suite maintainer',
  message: "query q1 expects /docs/old-name, no longer in the book's sitemap",
  query_id: 'q1',
  urls: ['/docs/old-name'],
});

/** q1 expects a page the book renamed: the run named it stale, and it fails. */
function renamedPage(): ValidationReport {
  const report = buildReport();
  const q1 = query(report, 'q1');
  q1.query = { id: 'q1', expected_sources: ['/docs/old-name'] };
  q1.status = 'FAIL';
  q1.passed = false;
  q1.top_results = [hit(1, `${BOOK}/docs/new-name`)];
  report.regression = {
    compared: false,
    note: 'not compared with the history of earlier runs',
    baseline_runs: [],
    findings: [STALE],
    recovered_queries: [],
    stale_queries: ['q1'],
    score_shift: null,
  };
  return report;
}

describe('SUITE_STALE after the run', () => {
  it('keeps the run’s stale queries and their findings when there is no baseline yet', () => {
    expect(compareWithHistory(renamedPage(), []).regression).toMatchObject({
      compared: false,
      stale_queries: ['q1'],
      findings: [STALE],
    });
  });

  it('keeps them after the detectors’ findings, and sets the stale query aside from the detectors', () => {
    const report = compareWithHistory(renamedPage(), historyOf(7));
    expect(report.regression?.compared).toBe(true);
    expect(report.regression?.stale_queries).toEqual(['q1']);
    // q1 passed in every baseline run and fails now: stale, so not a QUERY_REGRESSED.
    expect(report.regression?.findings.map((f) => f.kind)).toEqual(['SUITE_STALE']);
  });

  it('leaves the verdict as the run made it: the comparison judges no criterion and no status again', () => {
    const input = renamedPage();
    const report = compareWithHistory(input, historyOf(7));
    expect([report.status, report.status_reason, report.success_criteria, report.errors]).toEqual([
      input.status,
      input.status_reason,
      input.success_criteria,
      input.errors,
    ]);
  });

  it('has no stale query when the run named none', () => {
    expect(compareWithHistory(buildReport(), []).regression).toMatchObject({ stale_queries: [], findings: [] });
  });

  it('names no stale query for a run that could not complete', () => {
    const report = { ...renamedPage(), status: 'ERROR' as const };
    expect(compareWithHistory(report, historyOf(7)).regression).toMatchObject({
      note: 'not compared: the run could not complete, so its figures say nothing about quality',
      stale_queries: [],
      findings: [],
    });
  });
});
