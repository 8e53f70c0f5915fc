/**
 * Routing by severity, in the synthesized template: email gets every alert on the alert topic; with a pager URL or a
 * Slack channel in context, a page topic of its own carries what should wake someone (the function's HIGH and
 * CRITICAL alerts, PAGE_TOPIC_ARN, and the not-running alarm, which the alert topic's filter policies could never
 * match: alarm messages have no attributes). Without either, no page topic at all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { buildNightlyApp } from '../../infra/nightly-app.ts';

const PAGER = 'https://events.pagerduty.com/integration/abc123/enqueue';
const BASE = {
  sandbox: true,
  qdrantUrl: 'https://qdrant.internal.example:6333',
  docusaurusBaseUrl: 'https://book.example.org',
  cohereSecret: 'ragwatch/cohere',
  alertEmails: ['ops@example.org'],
  suitePath: 'test/nightly/fixtures/suite.json',
};
const outdirs: string[] = [];

function synth(context: Record<string, unknown>) {
  const outdir = mkdtempSync(path.join(tmpdir(), 'ragwatch-routing-'));
  outdirs.push(outdir);
  const synthesized = buildNightlyApp({ outdir, context: { ...BASE, ...context } });
  synthesized.app.synth();
  const template = Template.fromStack(synthesized.stack);
  const topic = (displayName: string) =>
    Object.keys(template.findResources('AWS::SNS::Topic', { Properties: { DisplayName: displayName } }))[0];
  return { template, alertTopic: topic('ragwatch prod'), pageTopic: topic('ragwatch prod (pages)') };
}

// Synthesized while the file loads (each synth bundles the handler, longer than a hook may take on a busy machine).
const both = synth({ pagerUrl: PAGER, slackWorkspaceId: 'T0123ABCD', slackChannelId: 'C0456EFGH' });
const none = synth({});

afterAll(() => {
  for (const outdir of outdirs) rmSync(outdir, { recursive: true, force: true });
});

describe('routing with a pager and a Slack channel', () => {
  const { template, alertTopic, pageTopic } = both;

  it('has a page topic, encrypted under a key of its own, that the function knows and may publish to', () => {
    expect(pageTopic).toBeDefined();
    const keys = template.findResources('AWS::KMS::Key');
    expect(Object.keys(keys)).toHaveLength(3);
    template.hasResourceProperties('AWS::SNS::Topic', {
      DisplayName: 'ragwatch prod (pages)',
      KmsMasterKeyId: Match.anyValue(),
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ PAGE_TOPIC_ARN: { Ref: pageTopic } }) },
    });
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Sid: 'PublishAlerts', Resource: [{ Ref: alertTopic }, { Ref: pageTopic }] }),
        ]),
      },
    });
    const encrypt = Object.values(template.findResources('AWS::IAM::Policy')).find((p) =>
      JSON.stringify(p).includes('"EncryptAlerts"'),
    );
    expect(encrypt?.Properties.PolicyDocument.Statement[0].Resource).toHaveLength(2);
    template.hasOutput('PageTopicArn', { Value: { Ref: pageTopic } });
  });

  it('pages the HTTPS endpoint from the page topic, unfiltered (the alarm messages have no attributes to match)', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'https',
      Endpoint: PAGER,
      TopicArn: { Ref: pageTopic },
      FilterPolicy: Match.absent(),
    });
    const onAlertTopic = template.findResources('AWS::SNS::Subscription', {
      Properties: { Protocol: 'https', TopicArn: { Ref: alertTopic } },
    });
    expect(onAlertTopic).toEqual({});
  });

  it('sends the page topic to the Slack channel through AWS Chatbot, with a guardrail that denies every action', () => {
    template.hasResourceProperties('AWS::Chatbot::SlackChannelConfiguration', {
      ConfigurationName: 'ragwatch-prod-book',
      SlackWorkspaceId: 'T0123ABCD',
      SlackChannelId: 'C0456EFGH',
      SnsTopicArns: [{ Ref: pageTopic }],
      GuardrailPolicies: [{ Ref: Match.stringLikeRegexp('^SlackChannelGuardrail') }],
    });
    template.hasResourceProperties('AWS::IAM::ManagedPolicy', {
      PolicyDocument: { Statement: [{ Effect: 'Deny', Action: '*', Resource: '*' }] },
    });
  });

  it('sends the not-running alarm to both topics, on ALARM and on OK', () => {
    template.hasResourceProperties('AWS::CloudWatch::CompositeAlarm', {
      AlarmName: 'ragwatch-prod-book-not-running',
      AlarmActions: [{ Ref: alertTopic }, { Ref: pageTopic }],
      OKActions: [{ Ref: alertTopic }, { Ref: pageTopic }],
    });
  });

  it('emails everything from the alert topic only: no email on the page topic, no filter on email', () => {
    const emails = Object.values(
      template.findResources('AWS::SNS::Subscription', { Properties: { Protocol: 'email' } }),
    );
    // One address: once on the alert topic, once on the fallback topic, never on the page topic.
    expect(emails).toHaveLength(2);
    for (const email of emails) expect(email.Properties.FilterPolicy).toBeUndefined();
    const topics = emails.map((e) => e.Properties.TopicArn.Ref);
    expect(topics).toContain(alertTopic);
    expect(topics).not.toContain(pageTopic);
  });

  it('lets CloudWatch publish the alarm to the page topic, for this stack’s alarms only', () => {
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [{ Ref: pageTopic }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Sid: 'AllowCloudWatchAlarmsToPublish',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Condition: Match.objectLike({ StringEquals: Match.anyValue(), ArnLike: Match.anyValue() }),
          }),
        ]),
      },
    });
  });
});

describe('routing with neither', () => {
  const { template, alertTopic, pageTopic } = none;

  it('has no page topic, no Chatbot channel, no PAGE_TOPIC_ARN, and the alarm goes to the alert topic alone', () => {
    expect(pageTopic).toBeUndefined();
    template.resourceCountIs('AWS::Chatbot::SlackChannelConfiguration', 0);
    template.resourceCountIs('AWS::SNS::Subscription', 2);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ PAGE_TOPIC_ARN: Match.absent() }) },
    });
    template.hasResourceProperties('AWS::CloudWatch::CompositeAlarm', {
      AlarmActions: [{ Ref: alertTopic }],
      OKActions: [{ Ref: alertTopic }],
    });
    expect(Object.keys(template.toJSON().Outputs)).not.toContain('PageTopicArn');
  });
});
