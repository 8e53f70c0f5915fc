import { describe, expect, it } from 'vitest';
import { buildMetricData } from '../../../functions/core/delivery/metric-data.ts';
import { finding } from '../../../functions/core/report/regression-report.ts';
import { buildPassedReport, buildRegression } from '../../nightly/fixtures/reports.ts';

const regressions = (report: ReturnType<typeof buildPassedReport>) =>
  buildMetricData(report).filter((d) => d.MetricName === 'Regressions');

describe('the Regressions metric', () => {
  it('counts the findings against the baseline that ops act on, leaving latency and golden-set rot out', () => {
    const report = buildPassedReport();
    report.regression = buildRegression({
      findings: [
        finding({ kind: 'QUERY_REGRESSED', severity: 'MEDIUM', message: 'q1' }),
        finding({ kind: 'SCORE_SHIFT', severity: 'HIGH', message: 'shift' }),
        finding({ kind: 'SUITE_STALE', severity: 'LOW', message: 'stale', addressed_to: 'suite maintainer' }),
        finding({ kind: 'METRIC_DROPPED', severity: 'LOW', message: 'p95', metric: 'p95_latency_ms' }),
      ],
    });
    expect(regressions(report).map((d) => [d.Value, d.Unit, d.Dimensions.length])).toEqual([[2, 'Count', 2]]);
  });

  it('sends 0 for a compared run with nothing new, and nothing for a run that was not compared', () => {
    const report = buildPassedReport();
    const section = buildRegression();
    expect(regressions({ ...report, regression: section }).map((d) => d.Value)).toEqual([0]);
    expect(regressions({ ...report, regression: { ...section, compared: false } })).toEqual([]);
  });
});
