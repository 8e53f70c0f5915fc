/**
 * Routing by severity: with a pager URL in context, the alert topic has an HTTPS subscription that takes only HIGH
 * and CRITICAL messages (the severity attribute the function sets), while the email subscriptions take everything.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { buildNightlyApp } from '../../infra/nightly-app.ts';

const PAGER = 'https://events.pagerduty.com/integration/abc123/enqueue';
const outdir = mkdtempSync(path.join(tmpdir(), 'ragwatch-routing-'));
const synthesized = buildNightlyApp({
  outdir,
  context: {
    sandbox: true,
    qdrantUrl: 'https://qdrant.internal.example:6333',
    docusaurusBaseUrl: 'https://book.example.org',
    cohereSecret: 'ragwatch/cohere',
    alertEmails: ['ops@example.org'],
    suitePath: 'test/nightly/fixtures/suite.json',
    pagerUrl: PAGER,
  },
});
synthesized.app.synth();
const template = Template.fromStack(synthesized.stack);
const alertTopic = Object.keys(
  template.findResources('AWS::SNS::Topic', { Properties: { DisplayName: 'ragwatch prod' } }),
)[0];

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
});

describe('routing by severity', () => {
  it('pages the HTTPS endpoint for HIGH and CRITICAL messages only', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'https',
      Endpoint: PAGER,
      TopicArn: { Ref: alertTopic },
      FilterPolicy: { severity: ['HIGH', 'CRITICAL'] },
    });
  });

  it('emails everything: no filter on the email subscriptions', () => {
    const emails = Object.values(
      template.findResources('AWS::SNS::Subscription', { Properties: { Protocol: 'email' } }),
    );
    expect(emails.length).toBeGreaterThanOrEqual(1);
    for (const email of emails) expect(email.Properties.FilterPolicy).toBeUndefined();
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      TopicArn: { Ref: alertTopic },
      FilterPolicy: Match.absent(),
    });
  });
});
