import { describe, expect, it } from 'vitest';
import { alertsOperations, finding } from '../../../functions/core/report/regression-report.ts';

describe('regression findings', () => {
  it('leaves every field that does not apply empty, addressed to operations', () => {
    expect(finding({ kind: 'QUERY_REGRESSED', severity: 'MEDIUM', message: 'q1 fails' })).toEqual({
      kind: 'QUERY_REGRESSED',
      severity: 'MEDIUM',
      message: 'q1 fails',
      addressed_to: 'operations',
      query_id: null,
      metric: null,
      value: null,
      baseline: null,
      band: null,
      urls: [],
    });
  });

  it('alerts operations for every finding addressed to them except a latency percentile drop', () => {
    expect(
      alertsOperations(finding({ kind: 'METRIC_DROPPED', severity: 'LOW', message: '', metric: 'p95_latency_ms' })),
    ).toBe(false);
    expect(alertsOperations(finding({ kind: 'METRIC_DROPPED', severity: 'MEDIUM', message: '', metric: 'mrr' }))).toBe(
      true,
    );
    expect(alertsOperations(finding({ kind: 'METRIC_DROPPED', severity: 'MEDIUM', message: '' }))).toBe(true);
    expect(alertsOperations(finding({ kind: 'SCORE_SHIFT', severity: 'HIGH', message: '', metric: 'shift_ms' }))).toBe(
      true,
    );
    expect(
      alertsOperations(
        finding({ kind: 'SUITE_STALE', severity: 'LOW', message: '', addressed_to: 'suite maintainer' }),
      ),
    ).toBe(false);
  });
});
