/** The terminal summary of a report: what a developer reads after `ragwatch run`. */
import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../functions/cli/format-summary.ts';
import type { CriterionResult } from '../../functions/core/report/findings.ts';
import { buildErrorReport, buildFailedReport } from '../nightly/fixtures/reports.ts';

function criterion(overrides: Partial<CriterionResult>): CriterionResult {
  return {
    name: 'pass_rate',
    description: '',
    value: 0,
    threshold: 90,
    comparator: '>=',
    passed: false,
    severity: 'CRITICAL',
    ...overrides,
  };
}

describe('formatSummary: a run that could not complete', () => {
  it('shows a pass rate of 0 with every query errored as not evaluated, never as 0 (CRITICAL)', () => {
    const report = {
      ...buildErrorReport(),
      success_criteria: [criterion({}), criterion({ name: 'coverage', value: null, severity: 'HIGH' })],
    };
    const summary = formatSummary(report);
    expect(summary).toContain('– pass_rate                not evaluated (no query completed; >= 90 wanted)');
    expect(summary).toContain('– coverage                 not evaluated (its input could not be read; >= 90 wanted)');
    expect(summary).not.toMatch(/pass_rate.*CRITICAL|coverage.*HIGH|✘/);
  });

  it('says no query completed rather than "0/2 passed (0%)"', () => {
    const summary = formatSummary(buildErrorReport());
    expect(summary).toContain('Queries  none completed, 2 errored');
    expect(summary).not.toContain('0/2 passed');
  });

  it('still shows a measured 0 as a breach with its severity once a query was judged', () => {
    const report = { ...buildFailedReport(), success_criteria: [criterion({})] };
    expect(formatSummary(report)).toContain('✘ pass_rate                       0 >= 90  (CRITICAL)');
  });
});
