import { describe, expect, it } from 'vitest';
import { discountStaleQueries } from '../../../functions/core/regression/discount-stale.ts';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import { buildReport, query } from './reports.ts';

const ids = () => {
  let n = 0;
  return () => `id-${++n}`;
};

/** The report with `failing` queries FAIL, and the pass-rate criterion and its finding as the engine wrote them. */
function failing(ids: string[], threshold = 90): ValidationReport {
  const report = buildReport();
  for (const id of ids) query(report, id).status = 'FAIL';
  const value = ((10 - ids.length) / 10) * 100;
  report.success_criteria = report.success_criteria.map((c) =>
    c.name === 'pass_rate' ? { ...c, value, threshold, passed: value >= threshold } : c,
  );
  const breach = (criterion: string) => ({
    id: `e-${criterion}`,
    validation_id: report.run_id,
    error_type: 'CRITERION_BREACHED' as const,
    severity: 'HIGH' as const,
    message: `${criterion} breached`,
    details: { criterion },
  });
  report.errors = [breach('pass_rate'), breach('coverage')];
  report.status = 'FAILED';
  return report;
}

const passRate = (report: ValidationReport) => report.success_criteria.find((c) => c.name === 'pass_rate');

describe('discountStaleQueries', () => {
  it('judges the pass rate again over the other queries, saying how many were set aside', () => {
    const input = failing(['q1', 'q2']);
    const description = passRate(input)?.description;
    const report = discountStaleQueries(input, new Set(['q1']), ids());
    expect(passRate(report)).toMatchObject({
      value: 88.89,
      passed: false,
      description: `${description}; 1 stale query set aside (regression.stale_queries)`,
    });
    expect(report.status).toBe('FAILED');
    expect(report.errors.map((e) => [e.error_type, e.details.criterion, e.id])).toEqual([
      ['CRITERION_BREACHED', 'coverage', 'e-coverage'],
      ['CRITERION_BREACHED', 'pass_rate', 'id-1'],
    ]);
  });

  it('passes a pass rate exactly at its threshold once the stale queries are set aside', () => {
    const report = discountStaleQueries(failing(['q1', 'q2'], 88.89), new Set(['q1']), ids());
    expect(passRate(report)).toMatchObject({ value: 88.89, passed: true });
    expect(report.errors.map((e) => e.details.criterion)).toEqual(['coverage']);
  });

  it('passes the run when every failing query was stale, naming them in the plural', () => {
    const report = discountStaleQueries(failing(['q1', 'q2']), new Set(['q1', 'q2']), ids());
    expect(passRate(report)?.description).toMatch(/; 2 stale queries set aside \(regression.stale_queries\)$/);
    expect(passRate(report)).toMatchObject({ value: 100, passed: true });
    expect(report.status).toBe('PASSED');
  });

  it('gives no pass rate when every query was stale, and does not pass it even against a threshold of 0', () => {
    const all = buildReport().query_results.map((q) => q.id);
    const report = discountStaleQueries(failing(all, 0), new Set(all), ids());
    expect(passRate(report)).toMatchObject({ value: null, passed: false });
  });

  it('leaves the other criteria as they were', () => {
    const input = failing(['q1']);
    const report = discountStaleQueries(input, new Set(['q1']), ids());
    expect(report.success_criteria.filter((c) => c.name !== 'pass_rate')).toEqual(
      input.success_criteria.filter((c) => c.name !== 'pass_rate'),
    );
  });

  it('leaves the report as it is when no stale query failed, the run could not complete, or there is no pass-rate criterion', () => {
    const passing = failing(['q2']);
    expect(discountStaleQueries(passing, new Set(['q1']), ids())).toBe(passing);
    const errored = { ...failing(['q1']), status: 'ERROR' as const };
    expect(discountStaleQueries(errored, new Set(['q1']), ids())).toBe(errored);
    const without = failing(['q1']);
    without.success_criteria = without.success_criteria.filter((c) => c.name !== 'pass_rate');
    expect(discountStaleQueries(without, new Set(['q1']), ids())).toBe(without);
  });
});
