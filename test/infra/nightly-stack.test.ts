/**
 * The nightly stack, synthesized from a real (small) app the way `cdk synth` builds it: context in, template out,
 * with cdk-nag's AwsSolutions pack as a validation plugin. The handler is really bundled by the local esbuild.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, describe, expect, it } from 'vitest';
import { logPostRunEvents } from '../../functions/nightly/log-events.ts';
import { DELIVERY_FAILURE_LINES } from '../../infra/delivery-alarms.ts';
import { buildNightlyApp } from '../../infra/nightly-app.ts';
import { NightlyStack } from '../../infra/nightly-stack.ts';
import { readStackSettings } from '../../infra/settings.ts';
import { nonEmpty } from '../helpers/non-empty.ts';
import { RecordingLogger } from '../nightly/recording-logger.ts';

const SUITE = 'test/nightly/fixtures/suite.json';
const CONTEXT = {
  // Placeholder hosts and addresses below: the sandbox switch allows them (infra/settings.ts).
  sandbox: true,
  environment: 'staging',
  collection: 'book',
  qdrantUrl: 'https://qdrant.internal.example:6333',
  docusaurusBaseUrl: 'https://book.example.org',
  cohereSecret: 'ragwatch/cohere',
  qdrantSecret: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ragwatch/qdrant-AbCdEf',
  alertEmails: ['ops@example.org', 'oncall@example.org'],
  scheduleExpression: 'cron(30 2 * * ? *)',
  scheduleTimeZone: 'Europe/Paris',
  minPassRate: 85,
  suitePath: SUITE,
  logRetentionDays: 180,
  reportRetentionDays: 365,
  alertReminderDays: 3,
  alertRecoveryRuns: '2',
  // Coverage's two settings as `ragwatch sandbox` prints them for a book served at the site's root.
  coveragePathPrefix: '/',
  coverageExclude: '/markdown-page,/blog/**',
  docsUrl: 'https://git.internal/platform/ragwatch/blob/main',
};

// Synthesized once while the file loads: a first synth loads aws-cdk-lib and cdk-nag and bundles the handler, which
// on a busy machine outlasts a hook's time limit; every test below reads this one template.
const outdir = mkdtempSync(path.join(tmpdir(), 'ragwatch-cdk-'));
const synthesized = buildNightlyApp({ outdir, context: CONTEXT });
synthesized.app.synth();
const template = Template.fromStack(synthesized.stack);
const json = template.toJSON() as {
  Resources: Record<string, { Type: string; Properties: Record<string, unknown>; DeletionPolicy?: string }>;
};

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
});

const ref = (type: string): string => {
  const id = Object.keys(json.Resources).find((k) => json.Resources[k]?.Type === type);
  if (id === undefined) throw new Error(`no ${type}`);
  return id;
};

describe('the nightly function', () => {
  it('runs on Node.js 24, ARM64, 512 MB, 10 minutes, with no reserved concurrency by default and JSON logs', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      MemorySize: 512,
      Timeout: 600,
      ReservedConcurrentExecutions: Match.absent(),
      LoggingConfig: Match.objectLike({ LogFormat: 'JSON' }),
      Handler: 'index.handler',
    });
  });

  it('gets its settings from the environment, with secrets by name or ARN and never a key', () => {
    const fn = Object.values(json.Resources).find((r) => r.Type === 'AWS::Lambda::Function');
    const variables = (
      (fn as (typeof json.Resources)[string]).Properties.Environment as { Variables: Record<string, unknown> }
    ).Variables;
    expect(variables).toMatchObject({
      ENVIRONMENT: 'staging',
      QDRANT_URL: 'https://qdrant.internal.example:6333',
      QDRANT_COLLECTION: 'book',
      DOCUSAURUS_BASE_URL: 'https://book.example.org',
      REPORT_BUCKET: { Ref: ref('AWS::S3::Bucket') },
      ALERT_TOPIC_ARN: { Ref: ref('AWS::SNS::Topic') },
      METRIC_NAMESPACE: 'RagWatch',
      DASHBOARD_NAME: 'ragwatch-staging-book',
      COHERE_SECRET_ID: 'ragwatch/cohere',
      QDRANT_SECRET_ID: CONTEXT.qdrantSecret,
      MIN_PASS_RATE: '85',
      MIN_COVERAGE: '100',
      MIN_COMPLETENESS: '100',
      // The alerting policy from context, so a console edit cannot drift from the stack.
      ALERT_REMINDER_DAYS: '3',
      ALERT_REMINDER_MIN_SEVERITY: 'HIGH',
      ALERT_RECOVERY_RUNS: '2',
      COVERAGE_PATH_PREFIX: '/',
      COVERAGE_EXCLUDE: '/markdown-page,/blog/**',
      // Where the HTML report links its docs sections.
      DOCS_URL: 'https://git.internal/platform/ragwatch/blob/main',
    });
    expect(Object.keys(variables)).not.toContain('COHERE_API_KEY');
    expect(Object.keys(variables)).not.toContain('QDRANT_API_KEY');
  });

  it('runs Node with source maps and a small young generation, so the scroll path keeps a flat memory', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ NODE_OPTIONS: '--enable-source-maps --max-semi-space-size=4' }) },
    });
  });

  it('keeps its log for the configured number of days', () => {
    template.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 180 });
  });

  it('sends a failed async invocation straight to the dead-letter queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      MaximumRetryAttempts: 0,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [ref('AWS::SQS::Queue'), 'Arn'] } } },
    });
  });

  it('is bundled by the local esbuild as one ESM file with the suite beside it', () => {
    const assets = readdirSync(outdir).filter((d) => d.startsWith('asset.'));
    const bundle = assets.map((d) => path.join(outdir, d)).find((d) => readdirSync(d).includes('index.mjs'));
    expect(bundle).toBeDefined();
    expect(readFileSync(path.join(bundle ?? '', 'suite.json'), 'utf8')).toBe(readFileSync(SUITE, 'utf8'));
  });

  it("carries WordNet's licence notice beside the bundle, which inlines the gate's tables derived from WordNet", () => {
    const assets = readdirSync(outdir).filter((d) => d.startsWith('asset.'));
    const bundle = assets.map((d) => path.join(outdir, d)).find((d) => readdirSync(d).includes('index.mjs')) ?? '';
    // The tables are in the bundle (a synonym group and an irregular form as they are written there)...
    const code = readFileSync(path.join(bundle, 'index.mjs'), 'utf8');
    expect(code).toContain('"abandonment","defection","desertion"');
    // ...so the notice their licence asks for on every copy ships with them.
    const notice = readFileSync(path.join(bundle, 'WORDNET-NOTICE.md'), 'utf8');
    expect(notice).toBe(readFileSync('functions/core/grounding/irregular-forms.NOTICE.md', 'utf8'));
    expect(notice).toContain('WordNet 3.0 Copyright 2006 by Princeton University.');
  });
});

describe('the schedule', () => {
  it('runs nightly on the configured cron and time zone, with retries and a dead-letter queue', () => {
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'cron(30 2 * * ? *)',
      ScheduleExpressionTimezone: 'Europe/Paris',
      FlexibleTimeWindow: { Mode: 'OFF' },
      State: 'ENABLED',
      Target: {
        Arn: { 'Fn::GetAtt': [ref('AWS::Lambda::Function'), 'Arn'] },
        RetryPolicy: { MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 7200 },
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [ref('AWS::SQS::Queue'), 'Arn'] } },
      },
    });
  });

  it('keeps dead letters encrypted, over TLS only, for 14 days', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 1_209_600,
    });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});

describe('the report bucket', () => {
  it('blocks public access, encrypts, versions and is kept when the stack goes', () => {
    template.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        VersioningConfiguration: { Status: 'Enabled' },
      }),
    });
  });

  it('ages out old reports and old versions of latest.json', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: [
          Match.objectLike({
            Prefix: 'reports/',
            Status: 'Enabled',
            ExpirationInDays: 365,
            NoncurrentVersionExpiration: { NoncurrentDays: 30 },
            AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
          }),
        ],
      },
    });
  });

  it('refuses any request not made over TLS 1.2 or later', () => {
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({ Effect: 'Deny', Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } } }),
        ]),
      },
    });
  });
});

describe('the alert topic', () => {
  it('is encrypted with a rotating key that CloudWatch alarms may use', () => {
    template.hasResourceProperties('AWS::SNS::Topic', {
      KmsMasterKeyId: { 'Fn::GetAtt': [ref('AWS::KMS::Key'), 'Arn'] },
    });
    template.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
          }),
        ]),
      },
    });
  });

  // What CloudWatch must match to act for an alarm: this account, and an alarm named for this deployment.
  const fromOurAlarms = {
    StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
    ArnLike: {
      'aws:SourceArn': {
        'Fn::Join': [
          '',
          [
            'arn:',
            { Ref: 'AWS::Partition' },
            ':cloudwatch:',
            { Ref: 'AWS::Region' },
            ':',
            { Ref: 'AWS::AccountId' },
            ':alarm:ragwatch-staging-book-*',
          ],
        ],
      },
    },
  };

  it('lets this deployment’s CloudWatch alarms, and no other principal, publish beside the SSL-only Deny', () => {
    const policy = Object.values(json.Resources).find((r) => r.Type === 'AWS::SNS::TopicPolicy');
    const document = policy?.Properties.PolicyDocument as { Statement: Record<string, unknown>[] } | undefined;
    expect(document?.Statement.filter((s) => s.Effect === 'Allow')).toEqual([
      {
        Sid: 'AllowCloudWatchAlarmsToPublish',
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: 'sns:Publish',
        Resource: { Ref: ref('AWS::SNS::Topic') },
        Condition: fromOurAlarms,
      },
    ]);
  });

  it('lets CloudWatch use the topic’s key only for this deployment’s alarms in this account', () => {
    template.hasResourceProperties('AWS::KMS::Key', {
      KeyPolicy: {
        Statement: Match.arrayWith([
          {
            Sid: 'AllowCloudWatchAlarmsToPublish',
            Effect: 'Allow',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
            Resource: '*',
            Condition: fromOurAlarms,
          },
        ]),
      },
    });
  });

  it('refuses publishing over plain HTTP', () => {
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('has one email subscription per address from context', () => {
    // Each address on both topics: the alert topic and the fallback one.
    template.resourceCountIs('AWS::SNS::Subscription', 4);
    for (const email of CONTEXT.alertEmails)
      template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: email });
  });
});

describe('the function’s permissions', () => {
  // Every statement of every policy attached to the function's role: the default policy and the scoped ones.
  const statements = () =>
    Object.values(json.Resources)
      .filter(
        (r) =>
          r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles) === JSON.stringify([{ Ref: roleId() }]),
      )
      .flatMap((r) => (r.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement);
  const roleId = () =>
    Object.keys(json.Resources).find((k) => json.Resources[k]?.Type === 'AWS::IAM::Role' && k.startsWith('Role')) ?? '';

  it('may put objects (and abort its multipart uploads) under reports/ only', () => {
    expect(statements()).toContainEqual({
      Sid: 'WriteReports',
      Effect: 'Allow',
      Action: ['s3:PutObject', 's3:AbortMultipartUpload'],
      Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [ref('AWS::S3::Bucket'), 'Arn'] }, '/reports/*']] },
    });
  });

  it('may read the reports earlier runs left (baseline, latest.json, incident state), and list the bucket so a first night reads as missing, not forbidden', () => {
    const bucket = ref('AWS::S3::Bucket');
    expect(statements()).toContainEqual({
      Sid: 'ReadReportHistory',
      Effect: 'Allow',
      Action: 's3:GetObject',
      Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucket, 'Arn'] }, '/reports/*']] },
    });
    expect(statements()).toContainEqual({
      Sid: 'TellMissingFromForbidden',
      Effect: 'Allow',
      Action: 's3:ListBucket',
      Resource: { 'Fn::GetAtt': [bucket, 'Arn'] },
    });
  });

  it('may put metric data only in its namespace', () => {
    expect(statements()).toContainEqual({
      Sid: 'PutMetricsInOwnNamespace',
      Effect: 'Allow',
      Action: 'cloudwatch:PutMetricData',
      Resource: '*',
      Condition: { StringEquals: { 'cloudwatch:namespace': 'RagWatch' } },
    });
  });

  it('may publish to the alert topic only', () => {
    expect(statements()).toContainEqual({
      Sid: 'PublishAlerts',
      Effect: 'Allow',
      Action: 'sns:Publish',
      Resource: { Ref: ref('AWS::SNS::Topic') },
    });
  });

  it('may read the two secrets only: a name with Secrets Manager’s suffix, an ARN as given', () => {
    expect(statements()).toContainEqual({
      Sid: 'ReadApiKeys',
      Effect: 'Allow',
      Action: 'secretsmanager:GetSecretValue',
      Resource: [
        {
          'Fn::Join': [
            '',
            [
              'arn:',
              { Ref: 'AWS::Partition' },
              ':secretsmanager:',
              { Ref: 'AWS::Region' },
              ':',
              { Ref: 'AWS::AccountId' },
              ':secret:ragwatch/cohere-??????',
            ],
          ],
        },
        CONTEXT.qdrantSecret,
      ],
    });
  });

  it('uses no managed policy and no wildcard action outside KMS data keys', () => {
    template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: Match.objectLike({
        Statement: [Match.objectLike({ Principal: { Service: 'lambda.amazonaws.com' } })],
      }),
      ManagedPolicyArns: Match.absent(),
    });
    const actions = statements().flatMap((s) => [s.Action].flat() as string[]);
    expect(actions.filter((a) => a.includes('*'))).toEqual(['kms:GenerateDataKey*']);
  });

  it('creates no secret: the keys are only referenced', () => {
    template.resourceCountIs('AWS::SecretsManager::Secret', 0);
  });
});

describe('the alarms', () => {
  const dimensions = [
    { Name: 'Collection', Value: 'book' },
    { Name: 'Environment', Value: 'staging' },
  ];
  const topic = () => [{ Ref: ref('AWS::SNS::Topic') }];

  it('keeps only the alarms the handler cannot report itself: heartbeat, function errors, dead letters', () => {
    // Quality breaches and run errors reach ops once per incident by email; threshold alarms would repeat them.
    const alarms = Object.values(json.Resources).filter((r) => r.Type === 'AWS::CloudWatch::Alarm');
    expect(alarms.map((a) => a.Properties.MetricName).sort()).toEqual([
      'AlertNotSent',
      'ApproximateNumberOfMessagesVisible',
      'Errors',
      'MetricsNotPublished',
      'RunSucceeded',
    ]);
    for (const metricName of ['PassRate', 'CoveragePercent', 'MetadataCompletenessPercent'])
      expect(template.findResources('AWS::CloudWatch::Alarm', { Properties: { MetricName: metricName } })).toEqual({});
  });

  it('alarms when no RunSucceeded datapoint arrived for 26 hours, on a daily schedule', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'RunSucceeded',
      Dimensions: dimensions,
      Statistic: 'SampleCount',
      Period: 3600,
      EvaluationPeriods: 26,
      DatapointsToAlarm: 26,
      ComparisonOperator: 'LessThanThreshold',
      Threshold: 1,
      TreatMissingData: 'breaching',
    });
  });

  it('alarms on function errors and on anything in the dead-letter queue', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { Namespace: 'AWS/Lambda', MetricName: 'Errors' });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
    });
  });

  it('pages once for one cause: the three metric alarms have no actions, one composite of the three has them', () => {
    // A bad configuration fails the function, dead-letters the invocation and silences the heartbeat at once.
    const watched = ['heartbeat', 'function-errors', 'dead-letters'].map((w) => `ragwatch-staging-book-${w}`);
    const three = Object.values(template.findResources('AWS::CloudWatch::Alarm')).filter((a) =>
      watched.includes(a.Properties.AlarmName),
    );
    expect(three).toHaveLength(3);
    for (const alarm of three) {
      expect(alarm.Properties.AlarmActions).toBeUndefined();
      expect(alarm.Properties.OKActions).toBeUndefined();
      expect(alarm.Properties.InsufficientDataActions).toBeUndefined();
    }
    const composites = Object.values(template.findResources('AWS::CloudWatch::CompositeAlarm'));
    expect(composites).toHaveLength(1);
    const [composite] = composites;
    expect(composite?.Properties).toMatchObject({
      AlarmName: 'ragwatch-staging-book-not-running',
      AlarmActions: topic(),
      OKActions: topic(),
    });
    // ALARM when any of the three is: an OR over exactly the three, each by its ARN.
    const idOf = (what: string) =>
      Object.keys(
        template.findResources('AWS::CloudWatch::Alarm', {
          Properties: { AlarmName: `ragwatch-staging-book-${what}` },
        }),
      )[0];
    const arn = (what: string) => ({ 'Fn::GetAtt': [idOf(what), 'Arn'] });
    expect(composite?.Properties.AlarmRule).toEqual({
      'Fn::Join': [
        '',
        [
          '(ALARM("',
          arn('heartbeat'),
          '") OR ALARM("',
          arn('function-errors'),
          '") OR ALARM("',
          arn('dead-letters'),
          '"))',
        ],
      ],
    });
  });
});

describe('a failed alert publish or metric write', () => {
  const topicId = (displayName: string) =>
    Object.keys(template.findResources('AWS::SNS::Topic', { Properties: { DisplayName: displayName } }))[0];
  const alertTopic = () => topicId('ragwatch staging');
  const fallbackTopic = () => topicId('ragwatch staging (fallback)');

  it('counts each failure from the function’s own log line, per function, by a metric filter', () => {
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      FilterPattern: '{ $.message = "alert not sent*" }',
      MetricTransformations: [
        {
          MetricNamespace: 'RagWatch',
          MetricName: 'AlertNotSent',
          MetricValue: '1',
          Unit: 'Count',
          Dimensions: [{ Key: 'FunctionName', Value: '$.function_name' }],
        },
      ],
    });
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      FilterPattern: '{ $.message = "metrics not published" }',
      MetricTransformations: [Match.objectLike({ MetricName: 'MetricsNotPublished', MetricValue: '1' })],
    });
  });

  it('alarms on the first failure, to the fallback topic and never to the alert topic that may be the fault', () => {
    for (const [what, metricName] of [
      ['alert-not-sent', 'AlertNotSent'],
      ['metrics-not-sent', 'MetricsNotPublished'],
    ]) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        AlarmName: `ragwatch-staging-book-${what}`,
        Namespace: 'RagWatch',
        MetricName: metricName,
        Dimensions: [{ Name: 'FunctionName', Value: 'ragwatch-staging-book' }],
        Statistic: 'Sum',
        Period: 3600,
        EvaluationPeriods: 1,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
        AlarmActions: [{ Ref: fallbackTopic() }],
        OKActions: Match.absent(),
      });
    }
    expect(fallbackTopic()).not.toBe(alertTopic());
  });

  it('puts the fallback topic under a key of its own, so a disabled alert key leaves it working', () => {
    const keyOf = (id: string | undefined) =>
      (json.Resources[id ?? '']?.Properties.KmsMasterKeyId as { 'Fn::GetAtt': string[] } | undefined)?.[
        'Fn::GetAtt'
      ][0];
    expect(keyOf(fallbackTopic())).toMatch(/^FallbackAlertsKey/);
    expect(keyOf(alertTopic())).toMatch(/^AlertsKey/);
    for (const email of CONTEXT.alertEmails)
      template.hasResourceProperties('AWS::SNS::Subscription', {
        Protocol: 'email',
        Endpoint: email,
        TopicArn: { Ref: fallbackTopic() },
      });
    template.hasOutput('FallbackTopicArn', { Value: { Ref: fallbackTopic() } });
  });

  it('counts the very lines the function logs for a failed publish and a refused metric write', () => {
    const logger = new RecordingLogger();
    const log = logPostRunEvents(logger, 'run-1');
    log({ kind: 'notice_not_sent', reason: 'KMSDisabledException' });
    log({ kind: 'run_alert_not_sent', severity: 'HIGH', subject: 's', reason: 'AuthorizationError' });
    log({ kind: 'metrics_not_published', reason: 'InvalidParameterValue' });
    const [notice, runAlert, metrics] = logger.lines.map((l) => l.message);
    expect(notice?.startsWith(DELIVERY_FAILURE_LINES.alertNotSent)).toBe(true);
    expect(runAlert?.startsWith(DELIVERY_FAILURE_LINES.alertNotSent)).toBe(true);
    expect(metrics).toBe(DELIVERY_FAILURE_LINES.metricsNotPublished);
    // And nothing else the function logs is counted as a failed publish.
    log({ kind: 'run_alert_sent', severity: 'HIGH', subject: 's', messageId: 'm' });
    expect(logger.lines.at(-1)?.message.startsWith(DELIVERY_FAILURE_LINES.alertNotSent)).toBe(false);
  });
});

describe('alarm names and descriptions', () => {
  const alarms = () =>
    Object.values(json.Resources).filter(
      (r) => r.Type === 'AWS::CloudWatch::Alarm' || r.Type === 'AWS::CloudWatch::CompositeAlarm',
    );

  it('names every alarm ragwatch-<env>-<collection>-<what>, inside the prefix the topic lets publish', () => {
    expect(
      alarms()
        .map((a) => a.Properties.AlarmName)
        .sort(),
    ).toEqual([
      'ragwatch-staging-book-alert-not-sent',
      'ragwatch-staging-book-dead-letters',
      'ragwatch-staging-book-function-errors',
      'ragwatch-staging-book-heartbeat',
      'ragwatch-staging-book-metrics-not-sent',
      'ragwatch-staging-book-not-running',
    ]);
  });

  it('says in every description which deployment broke and what to do', () => {
    for (const alarm of nonEmpty(alarms(), 'stack alarms')) {
      const description = JSON.stringify(alarm.Properties.AlarmDescription);
      expect(description).toContain('ragwatch staging/book: ');
      expect(description).toContain('What to do: ');
    }
  });

  it('tells the heartbeat’s reader where to look and how to run the job now', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: 'ragwatch-staging-book-heartbeat',
      AlarmDescription: {
        'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp('then run it now with npm run invoke')])],
      },
    });
  });
});

describe('the stack’s outputs', () => {
  it('names the function, the bucket, the report prefix, the topic and the dashboard URL', () => {
    template.hasOutput('FunctionName', { Value: { Ref: ref('AWS::Lambda::Function') } });
    template.hasOutput('ReportBucket', { Value: { Ref: ref('AWS::S3::Bucket') } });
    template.hasOutput('ReportPrefix', { Value: 'reports/book/' });
    template.hasOutput('AlertTopicArn', { Value: { Ref: ref('AWS::SNS::Topic') } });
    template.hasOutput('DeadLetterQueueUrl', { Value: { Ref: ref('AWS::SQS::Queue') } });
    template.hasOutput('LogGroupName', { Value: { Ref: ref('AWS::Logs::LogGroup') } });
    template.hasOutput('DashboardUrl', {
      Value: {
        'Fn::Join': [
          '',
          [
            'https://',
            { Ref: 'AWS::Region' },
            '.console.aws.amazon.com/cloudwatch/home?region=',
            { Ref: 'AWS::Region' },
            '#dashboards/dashboard/ragwatch-staging-book',
          ],
        ],
      },
    });
  });

  it('links the page of past runs in the S3 console, as the emails do', () => {
    template.hasOutput('RunsPageUrl', {
      Value: {
        'Fn::Join': [
          '',
          [
            'https://',
            { Ref: 'AWS::Region' },
            '.console.aws.amazon.com/s3/object/',
            { Ref: ref('AWS::S3::Bucket') },
            '?region=',
            { Ref: 'AWS::Region' },
            '&bucketType=general&prefix=reports%2Fbook%2Findex.html',
          ],
        ],
      },
    });
  });

  it('gives the function a fixed, readable name', () => {
    template.hasResourceProperties('AWS::Lambda::Function', { FunctionName: 'ragwatch-staging-book' });
  });
});

describe('the dashboard', () => {
  it('graphs pass rate, coverage, completeness, latency percentiles, failed queries and run duration', () => {
    const dashboard = Object.values(json.Resources).find((r) => r.Type === 'AWS::CloudWatch::Dashboard');
    const body = JSON.stringify(dashboard?.Properties.DashboardBody);
    for (const metric of [
      'PassRate',
      'CoveragePercent',
      'MetadataCompletenessPercent',
      'QueryLatency',
      'EmbeddingLatency',
      'SearchLatency',
      'QueriesFailed',
      'RunDurationSeconds',
    ])
      expect(body).toContain(`\\"${metric}\\"`);
    for (const stat of ['p50', 'p95', 'p99']) expect(body).toContain(`\\"stat\\":\\"${stat}\\"`);
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('leaves no unacknowledged finding on the stack', () => {
    const report = JSON.parse(readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as {
      pluginReports: { violations: unknown[] }[];
    };
    expect(report.pluginReports.flatMap((p) => p.violations)).toEqual([]);
  });

  it('acknowledges each IAM wildcard on a policy that holds that one statement', () => {
    const { stack } = buildNightlyApp({
      outdir: mkdtempSync(path.join(tmpdir(), 'ragwatch-nag-')),
      context: { ...CONTEXT, 'aws:cdk:bundling-stacks': [] },
    });
    const sids = Object.entries(stack.scopedPolicies).map(([name, policy]) => [
      name,
      policy.document.toJSON().Statement.map((s: { Sid: string }) => s.Sid),
    ]);
    expect(sids).toEqual([
      ['writeReports', ['WriteReports']],
      ['readHistory', ['ReadReportHistory']],
      ['putMetrics', ['PutMetricsInOwnNamespace']],
      ['encryptAlerts', ['EncryptAlerts']],
    ]);
  });

  it('sets no coverage variable when the context gives none, so the function derives them as the CLI does', () => {
    // Prepare
    const { coveragePathPrefix: _prefix, coverageExclude: _exclude, ...without } = CONTEXT;
    const { app, stack } = buildNightlyApp({
      outdir: mkdtempSync(path.join(tmpdir(), 'ragwatch-coverage-')),
      context: { ...without, 'aws:cdk:bundling-stacks': [] },
    });

    // Act
    app.synth();
    const fn = Object.values(
      Template.fromStack(stack).toJSON().Resources as Record<
        string,
        { Type: string; Properties: { Environment?: { Variables: Record<string, unknown> } } }
      >,
    ).find((r) => r.Type === 'AWS::Lambda::Function');

    // Assess
    const names = Object.keys(fn?.Properties.Environment?.Variables ?? {});
    expect(names).toContain('DOCUSAURUS_BASE_URL');
    expect(names.filter((n) => n.startsWith('COVERAGE_'))).toEqual([]);
  });

  it('fails the synth when an unrelated wildcard statement is added to the function’s role', () => {
    // Prepare
    const { app, stack } = buildNightlyApp({
      outdir: mkdtempSync(path.join(tmpdir(), 'ragwatch-nag-')),
      context: { ...CONTEXT, 'aws:cdk:bundling-stacks': [] },
    });
    stack.function.role?.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['s3:GetObject', 'dynamodb:Scan'], resources: ['*'] }),
    );

    // Act
    const synth = () => app.synth();

    // Assess
    expect(synth).toThrow(/AwsSolutions-IAM5\[Resource::\*\]/);
  });

  it('finds exactly the acknowledged findings when the acknowledgments are left out', () => {
    // Prepare
    const app = new App({
      outdir: mkdtempSync(path.join(tmpdir(), 'ragwatch-nag-')),
      context: { ...CONTEXT, 'aws:cdk:bundling-stacks': [] },
    });
    new NightlyStack(app, 'Bare', { settings: readStackSettings((k) => app.node.tryGetContext(k)) });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

    // Act
    let message = '';
    try {
      app.synth();
    } catch (error) {
      message = String((error as Error).message);
    }

    // Assess
    const findings = [...new Set(message.match(/AwsSolutions-[A-Z0-9]+(\[[^\]\s]+\])?/g))].sort();
    expect(findings).toEqual([
      'AwsSolutions-IAM5[Action::kms:GenerateDataKey*]',
      'AwsSolutions-IAM5[Resource::*]',
      'AwsSolutions-IAM5[Resource::<NightlyC44EE0A7.Arn>:*]',
      'AwsSolutions-IAM5[Resource::<Reports65402A0A.Arn>/reports/*]',
      'AwsSolutions-S1',
      'AwsSolutions-SQS3',
    ]);
  });
});
