import { describe, expect, it } from 'vitest';
import { observeRun } from '../../../functions/core/incident/observe-run.ts';
import { finding } from '../../../functions/core/regression/regression-report.ts';
import { buildErrorReport, buildFailedReport, buildPassedReport } from '../../nightly/fixtures/reports.ts';

describe('observeRun', () => {
  it('sees nothing in a clean, stored run', () => {
    expect(observeRun(buildPassedReport(), true)).toEqual({ infrastructure: [], quality: [], suite: [] });
  });

  it('makes each breached criterion a quality breach at its severity, with value and threshold', () => {
    const observed = observeRun(buildFailedReport(), true);
    expect(observed.quality).toContainEqual({
      kind: 'criterion:pass_rate',
      severity: 'CRITICAL',
      summary: 'pass rate 40% < 90%',
    });
    expect(observed.infrastructure).toEqual([]);
  });

  it('makes an ERROR run an infrastructure breach and judges neither quality nor the suite', () => {
    expect(observeRun(buildErrorReport(), true)).toEqual({
      infrastructure: [expect.objectContaining({ kind: 'RUN_ERROR', severity: 'CRITICAL' })],
      quality: null,
      suite: null,
    });
  });

  it('makes an unstored report an infrastructure breach', () => {
    expect(observeRun(buildPassedReport(), false).infrastructure).toEqual([
      expect.objectContaining({ kind: 'REPORT_NOT_STORED', severity: 'HIGH' }),
    ]);
  });

  it('sends SUITE_STALE to the suite track and other regressions to quality, one breach per kind, latency left out', () => {
    const report = buildPassedReport();
    report.regression = {
      compared: true,
      note: '',
      baseline_runs: [],
      findings: [
        finding({ kind: 'SUITE_STALE', severity: 'LOW', message: 'q1 stale' }),
        finding({ kind: 'QUERY_REGRESSED', severity: 'MEDIUM', message: 'q2 fails' }),
        finding({ kind: 'QUERY_REGRESSED', severity: 'MEDIUM', message: 'q3 fails' }),
        finding({ kind: 'METRIC_DROPPED', severity: 'MEDIUM', message: 'mrr', metric: 'mrr' }),
        finding({ kind: 'METRIC_DROPPED', severity: 'LOW', message: 'p95', metric: 'p95_latency_ms' }),
      ],
      recovered_queries: [],
      stale_queries: ['q1'],
      score_shift: null,
    };
    const observed = observeRun(report, true);
    expect(observed.suite?.map((b) => b.kind)).toEqual(['SUITE_STALE']);
    expect(observed.quality?.map((b) => b.kind)).toEqual(['QUERY_REGRESSED', 'METRIC_DROPPED:mrr']);
  });
});
