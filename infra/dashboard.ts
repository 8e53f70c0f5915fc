/**
 * The dashboard: one page per deployment, named like its alarms, each widget titled with the question it answers
 * (is it running, is retrieval as good as usual, is the index whole and healthy, are answers grounded, how fast, what
 * changed).
 * Every metric it graphs is one the handler sends (functions/core/delivery/metric-data.ts): a test holds the two
 * together, so a renamed metric cannot leave an empty graph.
 */
import { aws_cloudwatch as cloudwatch, Duration } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { dimensionValue } from '../functions/core/delivery/dimension-value.ts';
import { buildRecentLogsUrl } from '../functions/core/delivery/links.ts';
import { METRIC_NAMES as M } from '../functions/core/delivery/metric-data.ts';
import { deploymentPrefix } from './names.ts';
import type { StackSettings } from './settings.ts';

/** Thresholds the suite sets beyond the stack's three (read from the bundled suite at synth; absent otherwise). */
export interface SuiteThresholds {
  minMrr?: number;
  maxP95LatencyMs?: number;
  minGroundedRate?: number;
}

export interface DashboardSources {
  settings: StackSettings;
  alarms: cloudwatch.IAlarm[];
  metric: (metricName: string, statistic: string, period?: Duration) => cloudwatch.Metric;
  suiteThresholds: SuiteThresholds;
  /** Where the reports and the log lines are, for the links at the top (names may be CloudFormation references). */
  places: { region: string; bucketName: string; reportPrefix: string; logGroupName: string };
}

/** The query behind the dashboard's logs link: the last day's warnings and errors, newest first. */
const RECENT_PROBLEMS_QUERY =
  'fields @timestamp, level, message, reason, run_id\n| filter level in ["WARN", "ERROR"] or @message like /Task timed out/\n| sort @timestamp desc\n| limit 100';

/** The dashboard's name: ragwatch-<env>-<collection>. */
export function dashboardName(settings: StackSettings): string {
  return deploymentPrefix(settings);
}

const line = (value: number | undefined, label: string): cloudwatch.HorizontalAnnotation[] =>
  value === undefined ? [] : [{ value, label, color: '#d62728' }];

/** Creates the dashboard. */
export function addDashboard(scope: Construct, sources: DashboardSources): cloudwatch.Dashboard {
  const { settings, alarms, metric, suiteThresholds: suite } = sources;
  const m = (name: string, stat: string, label: string) => metric(name, stat).with({ label });
  const percentiles = (name: string, label: string) => ['p50', 'p95', 'p99'].map((p) => m(name, p, `${label} ${p}`));
  const { minPassRate, minCoverage, minCompleteness } = settings.thresholds;
  const percent = { min: 0, max: 100, showUnits: false };
  const graph = (title: string, props: Omit<cloudwatch.GraphWidgetProps, 'title'>) =>
    new cloudwatch.GraphWidget({ title, width: 8, height: 6, ...props });
  const dashboard = new cloudwatch.Dashboard(scope, 'Dashboard', {
    dashboardName: dashboardName(settings),
    defaultInterval: Duration.days(42),
  });
  dashboard.addWidgets(whereToLook(settings, sources.places));
  dashboard.addWidgets(
    new cloudwatch.AlarmStatusWidget({ title: 'Is anything alarming right now?', alarms, width: 12, height: 4 }),
    new cloudwatch.SingleValueWidget({
      title: 'Did the last run complete? (1 = yes)',
      metrics: [m(M.runSucceeded, 'Minimum', 'last run completed')],
      width: 6,
      height: 4,
    }),
    // A planned maintenance window holds every email (docs/DEPLOY.md): the nights it silenced, over the six weeks.
    graph('Were alerts held for maintenance? (1 = that night’s emails held)', {
      left: [m(M.alertsHeld, 'Maximum', 'alerts held')],
      leftYAxis: { min: 0, max: 1, showUnits: false },
      width: 6,
      height: 4,
    }),
  );
  dashboard.addWidgets(
    graph('Is it running? Runs per day (heartbeat) and how many completed', {
      left: [m(M.runSucceeded, 'SampleCount', 'runs'), m(M.runSucceeded, 'Sum', 'completed')],
      leftYAxis: { min: 0, showUnits: false },
    }),
    graph('Is retrieval as good as usual? Pass rate per query category (%)', {
      left: [perCategoryPassRate(settings)],
      leftAnnotations: line(minPassRate, `threshold ${minPassRate}%`),
      leftYAxis: percent,
    }),
    graph('Is retrieval as good as usual? Overall pass rate (%)', {
      left: [m(M.passRate, 'Minimum', 'pass rate')],
      leftAnnotations: line(minPassRate, `threshold ${minPassRate}%`),
      leftYAxis: percent,
    }),
  );
  dashboard.addWidgets(
    graph('Are the right chunks ranked first? MRR and nDCG@k', {
      left: [m(M.mrr, 'Average', 'MRR'), m(M.ndcg, 'Average', 'nDCG@k')],
      leftAnnotations: line(suite.minMrr, `MRR threshold ${suite.minMrr}`),
      leftYAxis: { min: 0, max: 1, showUnits: false },
    }),
    graph('Are the right chunks found at all? recall@k, precision@k, hit rate, mean similarity', {
      left: [
        m(M.recall, 'Average', 'recall@k'),
        m(M.precision, 'Average', 'precision@k'),
        m(M.hitRate, 'Average', 'hit rate'),
        m(M.avgSimilarity, 'Average', 'mean similarity'),
      ],
      leftYAxis: { min: 0, max: 1, showUnits: false },
    }),
    graph('What changed since the baseline? Regressions, failed and errored queries per run', {
      left: [
        m(M.regressions, 'Maximum', 'regressions (for ops)'),
        m(M.queriesFailed, 'Maximum', 'failed queries'),
        m(M.queryErrors, 'Maximum', 'errored queries'),
        m(M.queriesTotal, 'Maximum', 'queries run'),
      ],
      leftYAxis: { min: 0, showUnits: false },
    }),
  );
  dashboard.addWidgets(
    graph('Is the index whole? Sitemap coverage and metadata completeness (%)', {
      left: [m(M.coverage, 'Minimum', 'coverage'), m(M.completeness, 'Minimum', 'completeness')],
      leftAnnotations: [
        ...line(minCoverage, `coverage threshold ${minCoverage}%`),
        ...(minCompleteness === minCoverage ? [] : line(minCompleteness, `completeness threshold ${minCompleteness}%`)),
      ],
      leftYAxis: percent,
    }),
    graph('Is the index whole? Pages missing from the index, and orphans no longer in the book', {
      left: [m(M.missingUrls, 'Maximum', 'missing pages'), m(M.orphanUrls, 'Maximum', 'orphan pages')],
      leftYAxis: { min: 0, showUnits: false },
    }),
    graph('Are answers grounded? Grounded rate (%)', {
      left: [m(M.groundedRate, 'Minimum', 'grounded rate')],
      leftAnnotations: line(suite.minGroundedRate, `threshold ${suite.minGroundedRate}%`),
      leftYAxis: percent,
    }),
  );
  // Index health (core/index-health): the rot coverage and completeness cannot see.
  dashboard.addWidgets(
    graph('Does the index still answer in its own space? ANN recall and worst canary cosine', {
      left: [m(M.annRecall, 'Minimum', 'ANN recall@k'), m(M.canaryMinCosine, 'Minimum', 'worst canary cosine')],
      leftYAxis: { min: 0, max: 1, showUnits: false },
    }),
    graph('Is the index current? Stale pages, pages with stale chunks, embedding models', {
      left: [
        m(M.stalePages, 'Maximum', 'pages edited since indexed'),
        m(M.staleChunkPages, 'Maximum', 'pages with stale chunks'),
        m(M.missingChunkPages, 'Maximum', 'pages missing chunks'),
        m(M.embeddingModels, 'Maximum', 'embedding models'),
      ],
      leftYAxis: { min: 0, showUnits: false },
    }),
    graph('Do filters hold? Hits outside their query’s filter', {
      left: [m(M.filterViolations, 'Maximum', 'filter violations')],
      leftYAxis: { min: 0, showUnits: false },
    }),
  );
  dashboard.addWidgets(
    graph('How fast? Query latency p50 / p95 / p99 (ms)', {
      left: percentiles(M.queryLatency, 'total'),
      leftAnnotations: line(suite.maxP95LatencyMs, `p95 limit ${suite.maxP95LatencyMs} ms`),
      leftYAxis: { min: 0, showUnits: false },
      width: 12,
    }),
    graph('Where does the time go? Embedding and search p50 / p95 / p99 (ms), run duration (s)', {
      left: [...percentiles(M.embeddingLatency, 'embedding'), ...percentiles(M.searchLatency, 'search')],
      right: [m(M.runDuration, 'Maximum', 'run duration (s)')],
      leftYAxis: { min: 0, showUnits: false },
      rightYAxis: { min: 0, showUnits: false },
      width: 12,
    }),
  );
  return dashboard;
}

/** The links row: the reports in S3 and the last day's problems in Logs Insights, one click each. */
function whereToLook(settings: StackSettings, places: DashboardSources['places']): cloudwatch.TextWidget {
  const { region, bucketName, reportPrefix, logGroupName } = places;
  const console = `https://${region}.console.aws.amazon.com`;
  const reports = `https://s3.console.aws.amazon.com/s3/buckets/${bucketName}?region=${region}&bucketType=general&prefix=${encodeURIComponent(reportPrefix)}&showversions=false`;
  const latest = `${console}/s3/object/${bucketName}?region=${region}&bucketType=general&prefix=${encodeURIComponent(`${reportPrefix}latest.json`)}`;
  const runsPage = `${console}/s3/object/${bucketName}?region=${region}&bucketType=general&prefix=${encodeURIComponent(`${reportPrefix}index.html`)}`;
  const logs = buildRecentLogsUrl(region, logGroupName, RECENT_PROBLEMS_QUERY, 86_400);
  return new cloudwatch.TextWidget({
    markdown: [
      `### Where to look (${settings.environment}/${settings.collection})`,
      `[Past runs and open incidents](${runsPage}) (index.html: the last runs, each linked) · [Reports in S3](${reports}) (each run's JSON, HTML and CSV under its date; ${'`'}latest.json${'`'} is the last run: [open it](${latest})) · [Warnings and errors of the last 24 h](${logs}) (Logs Insights on the function's log group, "Task timed out" included) · each email's LINKS open that run's report and log lines`,
    ].join('\n\n'),
    width: 24,
    height: 3,
  });
}

/** One line per QueryCategory, whatever the suite's categories are: a SEARCH over the per-category datums, with the
 * dimension values mapped as the function maps them. */
function perCategoryPassRate(settings: StackSettings): cloudwatch.MathExpression {
  const q = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;
  return new cloudwatch.MathExpression({
    expression: `SEARCH('{${settings.metricNamespace},Collection,Environment,QueryCategory} MetricName=${q(M.passRate)} Collection=${q(dimensionValue(settings.collection))} Environment=${q(dimensionValue(settings.environment))}', 'Minimum', 86400)`,
    usingMetrics: {},
    label: '',
    period: Duration.days(1),
  });
}
