/**
 * The nightly stack: the validation Lambda, its schedule, where its report, metrics and alerts go, and the alarms
 * and dashboard ops and engineers look at. Everything the function may touch is granted by name, nothing more.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Arn,
  ArnFormat,
  aws_cloudwatch as cloudwatch,
  aws_cloudwatch_actions as cwActions,
  Duration,
  aws_lambda_destinations as destinations,
  aws_iam as iam,
  aws_kms as kms,
  aws_lambda as lambda,
  aws_logs as logs,
  aws_lambda_nodejs as nodejs,
  RemovalPolicy,
  Stack,
  type StackProps,
  aws_s3 as s3,
  aws_scheduler as scheduler,
  aws_scheduler_targets as schedulerTargets,
  aws_sns as sns,
  aws_sqs as sqs,
  aws_sns_subscriptions as subscriptions,
  TimeZone,
} from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { LAMBDA_NODE_OPTIONS } from './runtime-flags.ts';
import type { StackSettings } from './settings.ts';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPORTS_PREFIX = 'reports';

export interface NightlyStackProps extends StackProps {
  settings: StackSettings;
}

/** Everything the nightly validation needs in one account and region. */
export class NightlyStack extends Stack {
  readonly function: nodejs.NodejsFunction;
  readonly bucket: s3.Bucket;
  readonly topic: sns.Topic;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: NightlyStackProps) {
    super(scope, id, props);
    const { settings } = props;
    const suiteFile = path.resolve(PROJECT_ROOT, settings.suitePath);
    // With SUITE_S3_URI the bundled suite is never read, so it need not exist.
    if (settings.suiteS3Uri === undefined && !existsSync(suiteFile))
      throw new Error(
        `suitePath: ${settings.suitePath} does not exist under ${PROJECT_ROOT} (set -c suitePath=... or -c suiteS3Uri=...)`,
      );

    this.bucket = new s3.Bucket(this, 'Reports', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      versioned: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Reports are the record of every night: deleting the stack must not delete them.
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [
        {
          id: 'expire-old-reports',
          prefix: `${REPORTS_PREFIX}/`,
          expiration: Duration.days(settings.reportRetentionDays),
          // latest.json is rewritten every night, so its old versions pile up; a month of them is plenty.
          noncurrentVersionExpiration: Duration.days(30),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
    });

    // A customer-managed key, because CloudWatch alarms cannot publish to a topic under the AWS-managed SNS key.
    const topicKey = new kms.Key(this, 'AlertsKey', {
      description: 'Encrypts the ragwatch alert topic',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    topicKey.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'AllowCloudWatchAlarmsToPublish',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
      }),
    );
    this.topic = new sns.Topic(this, 'Alerts', {
      displayName: `ragwatch ${settings.environment}`,
      enforceSSL: true,
      masterKey: topicKey,
    });
    for (const email of settings.alertEmails) this.topic.addSubscription(new subscriptions.EmailSubscription(email));

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetters', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });

    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: settings.logRetentionDays as logs.RetentionDays,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description:
        'ragwatch nightly: write its log, the reports prefix, its metrics namespace, the alert topic; read its two secrets',
    });

    this.function = new nodejs.NodejsFunction(this, 'Nightly', {
      entry: path.join(PROJECT_ROOT, 'functions/nightly/handler.ts'),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      // 512 MB: the run holds one page of scrolled payloads and the report (a few MB at most); Lambda's CPU grows
      // with memory, and JSON work plus TLS to three services finish faster here than at 128-256 MB for the same cost.
      memorySize: 512,
      // 10 minutes: a suite of ~100 queries embeds in 2 calls and searches in 1-2, but scrolling a large collection
      // for quality and coverage, plus the SDKs' retries with backoff, need headroom; Scheduler retries cost a re-run.
      timeout: Duration.minutes(10),
      // One run at a time: two overlapping nights would race on latest.json and double the load on Qdrant and Cohere.
      reservedConcurrentExecutions: 1,
      role,
      logGroup,
      // An async invocation that still fails (only an invalid configuration makes the handler throw) lands in the
      // dead-letter queue at once: re-running a broken configuration twice more would change nothing.
      retryAttempts: 0,
      onFailure: new destinations.SqsDestination(this.deadLetterQueue),
      environment: this.#environment(settings),
      bundling: {
        forceDockerBundling: false,
        format: nodejs.OutputFormat.ESM,
        target: 'node24',
        minify: true,
        sourceMap: true,
        // Stack traces need file and line only: without the sources inside, the map is 2.5 MB instead of 7.4 MB,
        // which --enable-source-maps parses at every cold start.
        sourcesContent: false,
        mainFields: ['module', 'main'],
        // Some dependencies still call require() for Node built-ins; ESM bundles need it defined.
        banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (_input: string, outputDir: string) =>
            existsSync(suiteFile) ? [`cp "${suiteFile}" "${path.join(outputDir, 'suite.json')}"`] : [],
        },
      },
    });

    this.#grant(role, logGroup, settings, topicKey);
    this.#schedule(settings);
    const alarms = this.#alarms(settings);
    this.#dashboard(settings, alarms);
  }

  #environment(settings: StackSettings): Record<string, string> {
    const env: Record<string, string> = {
      ENVIRONMENT: settings.environment,
      QDRANT_URL: settings.qdrantUrl,
      QDRANT_COLLECTION: settings.collection,
      DOCUSAURUS_BASE_URL: settings.docusaurusBaseUrl,
      REPORT_BUCKET: this.bucket.bucketName,
      ALERT_TOPIC_ARN: this.topic.topicArn,
      METRIC_NAMESPACE: settings.metricNamespace,
      COHERE_SECRET_ID: settings.cohereSecret,
      MIN_PASS_RATE: String(settings.thresholds.minPassRate),
      MIN_COVERAGE: String(settings.thresholds.minCoverage),
      MIN_COMPLETENESS: String(settings.thresholds.minCompleteness),
      LOG_LEVEL: settings.logLevel,
      POWERTOOLS_LOG_LEVEL: settings.logLevel,
      NODE_OPTIONS: LAMBDA_NODE_OPTIONS,
    };
    if (settings.qdrantSecret !== undefined) env.QDRANT_SECRET_ID = settings.qdrantSecret;
    if (settings.sitemapUrl !== undefined) env.SITEMAP_URL = settings.sitemapUrl;
    if (settings.suiteS3Uri !== undefined) env.SUITE_S3_URI = settings.suiteS3Uri;
    return env;
  }

  #grant(role: iam.Role, logGroup: logs.LogGroup, settings: StackSettings, topicKey: kms.Key): void {
    logGroup.grantWrite(role);
    role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'WriteReports',
        actions: ['s3:PutObject'],
        resources: [this.bucket.arnForObjects(`${REPORTS_PREFIX}/*`)],
      }),
    );
    // Reads what earlier runs left: the last runs' reports (the regression baseline), latest.json and the incident
    // state, all under reports/<collection>/.
    role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'ReadReportHistory',
        actions: ['s3:GetObject'],
        resources: [this.bucket.arnForObjects(`${REPORTS_PREFIX}/*`)],
      }),
    );
    // Without ListBucket, S3 answers a missing latest.json (the first night) with 403 instead of 404.
    role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'TellMissingFromForbidden',
        actions: ['s3:ListBucket'],
        resources: [this.bucket.bucketArn],
      }),
    );
    if (settings.suiteS3Uri !== undefined) {
      const [, bucket, key] = /^s3:\/\/([^/]+)\/(.+)$/.exec(settings.suiteS3Uri) ?? [];
      role.addToPolicy(
        new iam.PolicyStatement({
          sid: 'ReadSuite',
          actions: ['s3:GetObject'],
          resources: [`arn:${this.partition}:s3:::${bucket}/${key}`],
        }),
      );
    }
    role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'PutMetricsInOwnNamespace',
        actions: ['cloudwatch:PutMetricData'],
        // PutMetricData has no resource-level permissions; the namespace condition is what narrows it.
        resources: ['*'],
        conditions: { StringEquals: { 'cloudwatch:namespace': settings.metricNamespace } },
      }),
    );
    role.addToPolicy(
      new iam.PolicyStatement({ sid: 'PublishAlerts', actions: ['sns:Publish'], resources: [this.topic.topicArn] }),
    );
    // Publishing to an encrypted topic needs a data key from its KMS key.
    role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'EncryptAlerts',
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: [topicKey.keyArn],
      }),
    );
    const secrets = [settings.cohereSecret, settings.qdrantSecret].filter((s): s is string => s !== undefined);
    role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'ReadApiKeys',
        actions: ['secretsmanager:GetSecretValue'],
        resources: secrets.map((s) => this.#secretArn(s)),
      }),
    );
  }

  /** A full ARN is used as given; a name gets Secrets Manager's random 6-character suffix as a wildcard. */
  #secretArn(nameOrArn: string): string {
    if (nameOrArn.startsWith('arn:')) return nameOrArn;
    return Arn.format(
      {
        service: 'secretsmanager',
        resource: 'secret',
        resourceName: `${nameOrArn}-??????`,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      },
      this,
    );
  }

  #schedule(settings: StackSettings): void {
    new scheduler.Schedule(this, 'Schedule', {
      description: `ragwatch nightly validation of ${settings.collection} (${settings.environment})`,
      schedule: scheduler.ScheduleExpression.expression(
        settings.scheduleExpression,
        TimeZone.of(settings.scheduleTimeZone),
      ),
      target: new schedulerTargets.LambdaInvoke(this.function, {
        input: scheduler.ScheduleTargetInput.fromObject({ source: 'ragwatch.schedule' }),
        deadLetterQueue: this.deadLetterQueue,
        // A throttled or failed invoke is tried again for up to two hours, then goes to the dead-letter queue.
        retryAttempts: 3,
        maxEventAge: Duration.hours(2),
      }),
    });
  }

  #metric(
    settings: StackSettings,
    metricName: string,
    statistic: string,
    period = Duration.days(1),
  ): cloudwatch.Metric {
    return new cloudwatch.Metric({
      namespace: settings.metricNamespace,
      metricName,
      dimensionsMap: { Collection: settings.collection, Environment: settings.environment },
      statistic,
      period,
    });
  }

  #alarms(settings: StackSettings): cloudwatch.Alarm[] {
    const action = new cwActions.SnsAction(this.topic);
    // One incident reaches a person once: the handler emails quality breaches and run errors itself, once per
    // incident (onset, escalation, recovery), so threshold alarms on PassRate, coverage, completeness or
    // RunSucceeded would repeat those emails. Only what the handler cannot report itself alarms: no run at all
    // (heartbeat), a failed invocation (function errors) and a dead-lettered one. See docs/DEPLOY.md.
    const alarms = [
      new cloudwatch.Alarm(this, 'HeartbeatAlarm', {
        alarmDescription:
          'No RunSucceeded datapoint in 26 hours: the nightly validation did not run or could not report',
        metric: this.#metric(settings, 'RunSucceeded', cloudwatch.Stats.SAMPLE_COUNT, Duration.hours(1)),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
        // 26 one-hour periods, all empty: a night's run lands once a day, so only a missed night (plus 2 h slack) fires.
        evaluationPeriods: 26,
        datapointsToAlarm: 26,
        treatMissingData: cloudwatch.TreatMissingData.BREACHING,
      }),
      new cloudwatch.Alarm(this, 'FunctionErrorsAlarm', {
        alarmDescription:
          'The nightly function failed (invalid configuration): no report, no alert from the run itself',
        metric: this.function.metricErrors({ period: Duration.hours(1), statistic: cloudwatch.Stats.SUM }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      new cloudwatch.Alarm(this, 'DeadLettersAlarm', {
        alarmDescription: 'A scheduled invocation or a failed run landed in the dead-letter queue',
        metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(5),
          statistic: cloudwatch.Stats.MAXIMUM,
        }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    ];
    for (const alarm of alarms) {
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
    }
    return alarms;
  }

  #dashboard(settings: StackSettings, alarms: cloudwatch.Alarm[]): void {
    const m = (name: string, stat: string, label: string) => this.#metric(settings, name, stat).with({ label });
    const percentiles = (name: string, label: string) => ['p50', 'p95', 'p99'].map((p) => m(name, p, `${label} ${p}`));
    const { minPassRate, minCoverage, minCompleteness } = settings.thresholds;
    const dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `ragwatch-${settings.environment}-${settings.collection}`.replace(/[^A-Za-z0-9_-]/g, '-'),
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
  }
}
