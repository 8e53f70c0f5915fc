/** The dashboard ops and engineers open: one page per deployment, named like its alarms. */
import { aws_cloudwatch as cloudwatch, Duration } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { deploymentPrefix } from './names.ts';
import type { StackSettings } from './settings.ts';

export interface DashboardSources {
  settings: StackSettings;
  alarms: cloudwatch.IAlarm[];
  metric: (metricName: string, statistic: string, period?: Duration) => cloudwatch.Metric;
}

/** The dashboard's name: ragwatch-<env>-<collection>. */
export function dashboardName(settings: StackSettings): string {
  return deploymentPrefix(settings);
}

/** Creates the dashboard. */
export function addDashboard(scope: Construct, { settings, alarms, metric }: DashboardSources): cloudwatch.Dashboard {
  const m = (name: string, stat: string, label: string) => metric(name, stat).with({ label });
  const percentiles = (name: string, label: string) => ['p50', 'p95', 'p99'].map((p) => m(name, p, `${label} ${p}`));
  const { minPassRate, minCoverage, minCompleteness } = settings.thresholds;
  const dashboard = new cloudwatch.Dashboard(scope, 'Dashboard', {
    dashboardName: dashboardName(settings),
    defaultInterval: Duration.days(42),
  });
  dashboard.addWidgets(new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms, width: 24, height: 3 }));
  dashboard.addWidgets(
    new cloudwatch.GraphWidget({
      title: 'Pass rate (%)',
      left: [m('PassRate', 'Minimum', 'pass rate')],
      leftAnnotations: [{ value: minPassRate, label: `threshold ${minPassRate}%` }],
      leftYAxis: { min: 0, max: 100 },
      width: 8,
    }),
    new cloudwatch.GraphWidget({
      title: 'Sitemap coverage (%)',
      left: [m('CoveragePercent', 'Minimum', 'coverage')],
      leftAnnotations: [{ value: minCoverage, label: `threshold ${minCoverage}%` }],
      leftYAxis: { min: 0, max: 100 },
      width: 8,
    }),
    new cloudwatch.GraphWidget({
      title: 'Metadata completeness (%)',
      left: [m('MetadataCompletenessPercent', 'Minimum', 'completeness')],
      leftAnnotations: [{ value: minCompleteness, label: `threshold ${minCompleteness}%` }],
      leftYAxis: { min: 0, max: 100 },
      width: 8,
    }),
  );
  dashboard.addWidgets(
    new cloudwatch.GraphWidget({
      title: 'Query latency p50 / p95 / p99 (ms)',
      left: percentiles('QueryLatency', 'total'),
      width: 12,
    }),
    new cloudwatch.GraphWidget({
      title: 'Embedding and search latency p50 / p95 / p99 (ms)',
      left: [...percentiles('EmbeddingLatency', 'embedding'), ...percentiles('SearchLatency', 'search')],
      width: 12,
    }),
  );
  dashboard.addWidgets(
    new cloudwatch.GraphWidget({
      title: 'Failed queries and query errors',
      left: [m('QueriesFailed', 'Maximum', 'failed'), m('QueryErrors', 'Maximum', 'errors')],
      width: 8,
    }),
    new cloudwatch.GraphWidget({
      title: 'Run duration (s)',
      left: [m('RunDurationSeconds', 'Maximum', 'duration')],
      width: 8,
    }),
    new cloudwatch.GraphWidget({
      title: 'Retrieval quality (MRR, recall@k, nDCG@k)',
      left: [m('MRR', 'Average', 'MRR'), m('RecallAtK', 'Average', 'recall@k'), m('NdcgAtK', 'Average', 'nDCG@k')],
      leftYAxis: { min: 0, max: 1 },
      width: 8,
    }),
  );
  return dashboard;
}
