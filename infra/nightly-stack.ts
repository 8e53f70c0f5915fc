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
  CfnOutput,
  aws_chatbot as chatbot,
  aws_cloudwatch as cloudwatch,
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
import { dimensionValue } from '../functions/core/delivery/dimension-value.ts';
import { addAlarms } from './alarms.ts';
import { addDashboard, dashboardName } from './dashboard.ts';
import { addDeliveryAlarms } from './delivery-alarms.ts';
import { deploymentPrefix, functionName } from './names.ts';
import { LAMBDA_NODE_OPTIONS } from './runtime-flags.ts';
import { ContextError, type StackSettings } from './settings.ts';
import { readSuiteThresholds } from './suite-thresholds.ts';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** WordNet 3.0's licence notice for the data tables derived from it (functions/core/grounding/*.json). */
const WORDNET_NOTICE = path.join(PROJECT_ROOT, 'functions/core/grounding/irregular-forms.NOTICE.md');
const REPORTS_PREFIX = 'reports';

/** Where this collection's reports are, as the function writes them. */
function reportPrefix(settings: StackSettings): string {
  return `${REPORTS_PREFIX}/${settings.collection.replace(/[^A-Za-z0-9._-]/g, '_')}/`;
}

export interface NightlyStackProps extends StackProps {
  settings: StackSettings;
}

/** Everything the nightly validation needs in one account and region. */
export class NightlyStack extends Stack {
  readonly function: nodejs.NodejsFunction;
  readonly bucket: s3.Bucket;
  readonly topic: sns.Topic;
  /** HIGH and CRITICAL alerts and the not-running alarm, for a pager and/or Slack; none without either. */
  readonly pageTopic: sns.Topic | undefined;
  /** Where the alarms on a failed alert publish or metric write go: not `topic`, which may be the fault. */
  readonly fallbackTopic: sns.Topic;
  readonly deadLetterQueue: sqs.Queue;
  /** The policies holding the role's statements that need a resource or action wildcard, one statement each. */
  readonly scopedPolicies: {
    writeReports: iam.Policy;
    readHistory: iam.Policy;
    putMetrics: iam.Policy;
    encryptAlerts: iam.Policy;
  };

  constructor(scope: Construct, id: string, props: NightlyStackProps) {
    super(scope, id, props);
    const { settings } = props;
    const suiteFile = path.resolve(PROJECT_ROOT, settings.suitePath);
    // With SUITE_S3_URI the bundled suite is never read, so it need not exist.
    if (settings.suiteS3Uri === undefined && !existsSync(suiteFile))
      throw new ContextError(
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

    // Only this stack's alarms, in this account: CloudWatch acts for any account's alarm (the confused deputy), so
    // both the key and the topic check aws:SourceAccount and the alarm's ARN.
    const fromOurAlarms = {
      StringEquals: { 'aws:SourceAccount': this.account },
      ArnLike: {
        'aws:SourceArn': `arn:${this.partition}:cloudwatch:${this.region}:${this.account}:alarm:${deploymentPrefix(settings)}-*`,
      },
    };
    // A customer-managed key per topic, because CloudWatch alarms cannot publish to a topic under the AWS-managed
    // SNS key. enforceSSL gives a topic a policy holding one Deny, and that policy replaces SNS's default one: without
    // the Allow below, every alarm's publish is refused ("not authorized to perform SNS:Publish") and no email arrives.
    const alarmTopic = (id: string, what: string, displayName: string, emails = true) => {
      const cloudWatch = new iam.ServicePrincipal('cloudwatch.amazonaws.com');
      const key = new kms.Key(this, `${id}Key`, {
        description: `Encrypts the ragwatch ${what}`,
        enableKeyRotation: true,
        removalPolicy: RemovalPolicy.DESTROY,
      });
      key.addToResourcePolicy(
        new iam.PolicyStatement({
          sid: 'AllowCloudWatchAlarmsToPublish',
          principals: [cloudWatch],
          actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
          resources: ['*'],
          conditions: fromOurAlarms,
        }),
      );
      const topic = new sns.Topic(this, id, { displayName, enforceSSL: true, masterKey: key });
      topic.addToResourcePolicy(
        new iam.PolicyStatement({
          sid: 'AllowCloudWatchAlarmsToPublish',
          principals: [cloudWatch],
          actions: ['sns:Publish'],
          resources: [topic.topicArn],
          conditions: fromOurAlarms,
        }),
      );
      if (emails)
        for (const email of settings.alertEmails) topic.addSubscription(new subscriptions.EmailSubscription(email));
      return { topic, key };
    };
    const alerts = alarmTopic('Alerts', 'alert topic', `ragwatch ${settings.environment}`);
    this.topic = alerts.topic;
    // The page route: what should wake someone, on a topic of its own. Not a filter policy on the alert topic:
    // CloudWatch's alarm messages carry no attributes, and a filter policy matches no message without any (even
    // {"exists": false}), so the not-running alarm would never page; and the subscription AWS Chatbot makes for its
    // topics takes no filter policy. So the function publishes its HIGH and CRITICAL alerts here as well (as Chatbot
    // custom notifications, core/delivery/page-message.ts), and the not-running alarm notifies both topics.
    // Email stays on the alert topic only, so nobody gets a page twice in the mailbox.
    const slack = settings.slack;
    const pages =
      settings.pagerUrl === undefined && slack === undefined
        ? undefined
        : alarmTopic(
            'Pages',
            'page topic (HIGH and CRITICAL alerts, the not-running alarm)',
            `ragwatch ${settings.environment} (pages)`,
            false,
          );
    this.pageTopic = pages?.topic;
    if (this.pageTopic !== undefined && settings.pagerUrl !== undefined)
      this.pageTopic.addSubscription(
        new subscriptions.UrlSubscription(settings.pagerUrl, { protocol: sns.SubscriptionProtocol.HTTPS }),
      );
    if (this.pageTopic !== undefined && slack !== undefined)
      new chatbot.SlackChannelConfiguration(this, 'SlackChannel', {
        slackChannelConfigurationName: deploymentPrefix(settings),
        slackWorkspaceId: slack.workspaceId,
        slackChannelId: slack.channelId,
        notificationTopics: [this.pageTopic],
        // Notifications only: without a guardrail Chatbot applies AdministratorAccess to commands typed in the
        // channel; this one denies every action, so the channel can read pages and do nothing in the account.
        guardrailPolicies: [
          new iam.ManagedPolicy(this, 'SlackChannelGuardrail', {
            description: 'ragwatch Slack channel: notifications only, no AWS action from the channel',
            statements: [new iam.PolicyStatement({ effect: iam.Effect.DENY, actions: ['*'], resources: ['*'] })],
          }),
        ],
      });
    // The same people by a second path: a topic under a key of its own, so a deleted alert topic, a disabled or
    // re-scoped alert key or a changed topic policy leaves this one working (delivery-alarms.ts says what uses it).
    this.fallbackTopic = alarmTopic(
      'FallbackAlerts',
      'fallback alert topic (alarms on a failed alert publish)',
      `ragwatch ${settings.environment} (fallback)`,
    ).topic;

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
      functionName: functionName(settings),
      description: `ragwatch nightly validation of ${settings.collection} (${settings.environment})`,
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
      // None by default (-c reservedConcurrency=1 for one run at a time): reserving takes from the account's
      // unreserved pool, and a first deploy fails on an account with a low quota. Two overlapping runs (a manual
      // invoke beside the schedule) stay safe without it: the incident state's conditional writes let one email
      // out, and latest.json ends as either run's complete report.
      ...(settings.reservedConcurrency === undefined
        ? {}
        : { reservedConcurrentExecutions: settings.reservedConcurrency }),
      // Lambda's own lines (START, REPORT, "Task timed out") as JSON too, so one Logs Insights query reads them
      // beside Powertools' lines.
      loggingFormat: lambda.LoggingFormat.JSON,
      role,
      logGroup,
      // An async invocation that still fails (the handler throws only for an invalid configuration, or when neither
      // its report nor an alert could be delivered) lands in the dead-letter queue at once: a re-run would change
      // neither, and would re-send what did get through.
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
        // The AWS SDK at the versions package-lock.json pins and the tests run, not the one the Lambda runtime
        // happens to carry: conditional writes (If-None-Match on the incident state) and the request timeouts and
        // abort signals the sinks rely on depend on those versions. Costs 0.5 MB of bundle; module init is measured
        // both ways in docs/PERFORMANCE.md.
        bundleAwsSDK: true,
        // Some dependencies still call require() for Node built-ins; ESM bundles need it defined.
        banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          // WordNet's licence notice goes with every copy of its data: the bundle inlines the grounding gate's
          // irregular forms and synonyms, derived from WordNet 3.0. The suite beside the handler only when it is the
          // one the function reads: with SUITE_S3_URI it reads S3, and the default suitePath (the sample suite,
          // which fails on purpose) would ship for nothing.
          afterBundling: (_input: string, outputDir: string) => [
            `cp "${WORDNET_NOTICE}" "${path.join(outputDir, 'WORDNET-NOTICE.md')}"`,
            ...(settings.suiteS3Uri === undefined && existsSync(suiteFile)
              ? [`cp "${suiteFile}" "${path.join(outputDir, 'suite.json')}"`]
              : []),
          ],
        },
      },
    });

    this.scopedPolicies = this.#grant(role, logGroup, settings, [alerts.key, ...(pages ? [pages.key] : [])]);
    this.#schedule(settings);
    const metric = (name: string, statistic: string, period?: Duration) =>
      this.#metric(settings, name, statistic, period);
    const { alarms, notRunning } = addAlarms(this, {
      settings,
      fn: this.function,
      logGroup,
      deadLetterQueue: this.deadLetterQueue,
      topic: this.topic,
      pageTopic: this.pageTopic,
      metric,
    });
    const deliveryAlarms = addDeliveryAlarms(this, {
      settings,
      logGroup,
      fallbackTopic: this.fallbackTopic,
      topicName: this.topic.topicName,
    });
    addDashboard(this, {
      settings,
      alarms: [notRunning, ...alarms, ...deliveryAlarms],
      metric,
      suiteThresholds: readSuiteThresholds(suiteFile, settings),
      places: {
        region: this.region,
        bucketName: this.bucket.bucketName,
        reportPrefix: reportPrefix(settings),
        logGroupName: logGroup.logGroupName,
      },
    });
    this.#outputs(settings, logGroup);
  }

  /** What ops look up after a deploy, printed by `cdk deploy` and listed by `aws cloudformation describe-stacks`. */
  #outputs(settings: StackSettings, logGroup: logs.LogGroup): void {
    const out = (id: string, value: string, description: string) => new CfnOutput(this, id, { value, description });
    out('FunctionName', this.function.functionName, 'The nightly function (npm run invoke runs it now)');
    out('ReportBucket', this.bucket.bucketName, 'The bucket holding every report');
    out(
      'ReportPrefix',
      reportPrefix(settings),
      'Where this collection’s reports are: <yyyy>/<mm>/<dd>/<run_id>.json and .html, latest.json',
    );
    out('AlertTopicArn', this.topic.topicArn, 'The SNS topic every alert and the not-running alarm go to');
    if (this.pageTopic !== undefined)
      out(
        'PageTopicArn',
        this.pageTopic.topicArn,
        'The page route: HIGH and CRITICAL alerts and the not-running alarm, to the pager and/or Slack',
      );
    out(
      'DeadLetterQueueUrl',
      this.deadLetterQueue.queueUrl,
      'Failed invocations land here (aws sqs receive-message --queue-url ...); the dead-letters alarm watches it',
    );
    out('LogGroupName', logGroup.logGroupName, 'The function’s log group, for Logs Insights and aws logs tail');
    out(
      'FallbackTopicArn',
      this.fallbackTopic.topicArn,
      'The second topic: the alert-not-sent and metrics-not-sent alarms, when the alert topic may be the fault',
    );
    // The page every run rewrites (core/render/html/runs-page.ts), in the S3 console as the emails link it.
    const runsPageKey = `${REPORTS_PREFIX}/${settings.collection.replace(/[^A-Za-z0-9._-]/g, '_')}/index.html`;
    out(
      'RunsPageUrl',
      `https://${this.region}.console.aws.amazon.com/s3/object/${this.bucket.bucketName}?region=${this.region}&bucketType=general&prefix=${encodeURIComponent(runsPageKey)}`,
      'The page of past runs and open incidents, rewritten by every run (in the S3 console; "Open" shows it)',
    );
    out(
      'DashboardUrl',
      `https://${this.region}.console.aws.amazon.com/cloudwatch/home?region=${this.region}#dashboards/dashboard/${dashboardName(settings)}`,
      'The CloudWatch dashboard of this deployment',
    );
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
      // Emails link the dashboard; a plain string (not a token), so the function does not depend on the dashboard.
      DASHBOARD_NAME: dashboardName(settings),
      COHERE_SECRET_ID: settings.cohereSecret,
      MIN_PASS_RATE: String(settings.thresholds.minPassRate),
      MIN_COVERAGE: String(settings.thresholds.minCoverage),
      MIN_COMPLETENESS: String(settings.thresholds.minCompleteness),
      ALERT_REMINDER_DAYS: String(settings.alerts.reminderDays),
      ALERT_REMINDER_MIN_SEVERITY: settings.alerts.reminderMinSeverity,
      ALERT_RECOVERY_RUNS: String(settings.alerts.recoveryRuns),
      LOG_LEVEL: settings.logLevel,
      POWERTOOLS_LOG_LEVEL: settings.logLevel,
      NODE_OPTIONS: LAMBDA_NODE_OPTIONS,
    };
    if (settings.qdrantSecret !== undefined) env.QDRANT_SECRET_ID = settings.qdrantSecret;
    if (settings.sitemapUrl !== undefined) env.SITEMAP_URL = settings.sitemapUrl;
    // What `ragwatch sandbox` writes for a book served at the root or beside other site pages: without them the
    // deployed run would count the wrong pages (issue 23).
    if (settings.coveragePathPrefix !== undefined) env.COVERAGE_PATH_PREFIX = settings.coveragePathPrefix;
    if (settings.coverageExclude.length > 0) env.COVERAGE_EXCLUDE = settings.coverageExclude.join(',');
    if (settings.suiteS3Uri !== undefined) env.SUITE_S3_URI = settings.suiteS3Uri;
    if (settings.docsUrl !== undefined) env.DOCS_URL = settings.docsUrl;
    if (this.pageTopic !== undefined) env.PAGE_TOPIC_ARN = this.pageTopic.topicArn;
    return env;
  }

  /**
   * The role's statements. Those that need a wildcard (a resource pattern, a resource `*`, an action family) each sit
   * in a policy of their own, so a cdk-nag acknowledgement on that policy covers that one statement and nothing
   * added later; the default policy holds only statements without a wildcard.
   */
  #grant(role: iam.Role, logGroup: logs.LogGroup, settings: StackSettings, topicKeys: kms.Key[]) {
    logGroup.grantWrite(role);
    const scoped = (id: string, statement: iam.PolicyStatement) => {
      const policy = new iam.Policy(this, id, { statements: [statement], roles: [role] });
      // A separate policy is not a dependency of the function by default: an invocation right after deploy would
      // run without it.
      this.function.node.addDependency(policy);
      return policy;
    };
    const writeReports = scoped(
      'WriteReportsPolicy',
      new iam.PolicyStatement({
        sid: 'WriteReports',
        // AbortMultipartUpload: the full URL lists go up in parts (lib-storage), and a failed upload is aborted.
        // CopyObject (the latest copies) needs only PutObject here and GetObject on the source (below).
        actions: ['s3:PutObject', 's3:AbortMultipartUpload'],
        resources: [this.bucket.arnForObjects(`${REPORTS_PREFIX}/*`)],
      }),
    );
    // Reads what earlier runs left: the last runs' reports (the regression baseline), latest.json and the incident
    // state, all under reports/<collection>/.
    const readHistory = scoped(
      'ReadReportHistoryPolicy',
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
    const putMetrics = scoped(
      'PutMetricsPolicy',
      new iam.PolicyStatement({
        sid: 'PutMetricsInOwnNamespace',
        actions: ['cloudwatch:PutMetricData'],
        // PutMetricData has no resource-level permissions; the namespace condition is what narrows it.
        resources: ['*'],
        conditions: { StringEquals: { 'cloudwatch:namespace': settings.metricNamespace } },
      }),
    );
    role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'PublishAlerts',
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn, ...(this.pageTopic ? [this.pageTopic.topicArn] : [])],
      }),
    );
    // Publishing to an encrypted topic needs a data key from its KMS key.
    const encryptAlerts = scoped(
      'EncryptAlertsPolicy',
      new iam.PolicyStatement({
        sid: 'EncryptAlerts',
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: topicKeys.map((key) => key.keyArn),
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
    return { writeReports, readHistory, putMetrics, encryptAlerts };
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
      // The same mapping the function applies to the values it sends (non-ASCII as %XX), or the alarms see nothing.
      dimensionsMap: {
        Collection: dimensionValue(settings.collection),
        Environment: dimensionValue(settings.environment),
      },
      statistic,
      period,
    });
  }
}
