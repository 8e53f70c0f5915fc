/**
 * The page route through the real handler, SDK and SNS stand-in: with PAGE_TOPIC_ARN set, a HIGH or CRITICAL
 * incident's alerts go to the page topic too, as Chatbot custom notifications; a MEDIUM one does not; a page that
 * cannot be published is an alert not sent (the state is put back) even though the email went out.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ValidationReport } from '../../functions/core/report/report.ts';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { createNightlyDeps, type NightlyDeps } from '../../functions/nightly/deps.ts';
import { createHandler } from '../../functions/nightly/handler.ts';
import { type AwsStandIns, startAwsStandIns } from '../../sandbox/aws/index.ts';
import { buildErrorReport, buildFailedReport, buildPassedReport } from './fixtures/reports.ts';
import { RecordingLogger } from './recording-logger.ts';
import { buildStandInClients, type StandInClients, standInNightlyEnv } from './stand-in-clients.ts';

let aws: AwsStandIns;
let clients: StandInClients;
let pageTopicArn: string;

beforeAll(async () => {
  aws = await startAwsStandIns({ secrets: { 'ragwatch/cohere': 'co-key' } });
  clients = buildStandInClients(aws.endpoints);
  pageTopicArn = aws.fauxqs.createTopic('ragwatch-pages').topicArn;
  aws.fauxqs.createQueue('ragwatch-pages-inbox');
  aws.fauxqs.subscribe({ topic: 'ragwatch-pages', queue: 'ragwatch-pages-inbox' });
});

afterAll(async () => {
  clients.destroy();
  await aws.stop();
});

beforeEach(() => {
  aws.fauxqs.reset();
});

interface Page {
  subject: string | undefined;
  severity: string | undefined;
  notification: {
    version: string;
    source: string;
    content: { title: string; description: string };
    metadata: { threadId: string };
  };
}

const pages = (): Page[] =>
  (aws.fauxqs.inspectQueue('ragwatch-pages-inbox')?.messages.ready ?? []).map((m) => {
    const envelope = JSON.parse(m.body) as {
      Subject?: string;
      Message: string;
      MessageAttributes?: Record<string, { Value: string }>;
    };
    return {
      subject: envelope.Subject,
      severity: envelope.MessageAttributes?.severity?.Value,
      notification: JSON.parse(envelope.Message),
    };
  });

function night(
  build: () => ValidationReport,
  day: number,
  env: Record<string, string>,
  logger = new RecordingLogger(),
) {
  const config = parseNightlyConfig({ ...standInNightlyEnv(aws), ALERT_REMINDER_DAYS: '0', ...env });
  const deps = createNightlyDeps(config, clients, logger);
  const runEngine: NightlyDeps['runEngine'] = async (_engine, run) => {
    const report = build();
    report.run_id = run.newId();
    report.timestamp = new Date(Date.UTC(2026, 2, 14 + day, 2)).toISOString();
    return report;
  };
  return createHandler({ ...deps, runEngine })();
}

describe('the page route', () => {
  it('pages a HIGH or CRITICAL onset and its recovery, in one thread, beside the emails', async () => {
    const env = { PAGE_TOPIC_ARN: pageTopicArn };
    await night(buildFailedReport, 0, env);
    for (const day of [1, 2]) await night(buildPassedReport, day, env);
    const emails = aws.deliveredAlerts();
    expect(emails.map((e) => e.attributes.alert_kind)).toEqual(['onset', 'recovery']);
    const paged = pages();
    expect(paged).toHaveLength(2);
    const [onset, recovery] = paged as [Page, Page];
    expect(onset.severity).toMatch(/^(HIGH|CRITICAL)$/);
    expect(onset.notification).toMatchObject({ version: '1.0', source: 'custom' });
    expect(onset.notification.content.title).toBe(emails[0]?.subject);
    expect(onset.subject).toBe(emails[0]?.subject);
    expect(onset.notification.content.description).toBe(emails[0]?.message);
    expect(recovery.notification.content.title).toBe(emails[1]?.subject);
    expect(recovery.notification.metadata.threadId).toBe(onset.notification.metadata.threadId);
    expect(onset.notification.metadata.threadId).toBe('ragwatch/prod/book/quality');
  });

  it('does not page a MEDIUM onset (one ERROR night), which is emailed', async () => {
    await night(buildErrorReport, 0, { PAGE_TOPIC_ARN: pageTopicArn });
    expect(aws.deliveredAlerts().map((e) => e.attributes.severity)).toEqual(['MEDIUM']);
    expect(pages()).toEqual([]);
  });

  it('pages nothing without PAGE_TOPIC_ARN', async () => {
    await night(buildFailedReport, 0, {});
    expect(aws.deliveredAlerts()).toHaveLength(1);
    expect(pages()).toEqual([]);
  });

  it('treats a page that cannot be published as an alert not sent: the onset is owed again the next night', async () => {
    const gone = pageTopicArn.replace(/ragwatch-pages$/, 'ragwatch-pages-deleted');
    const logger = new RecordingLogger();
    await night(buildFailedReport, 0, { PAGE_TOPIC_ARN: gone }, logger);
    const notSent = logger.find('alert not sent; incident state put back so the next run sends it');
    expect(String(notSent?.extra.reason)).toContain(`SNS Publish to ${gone} failed`);
    expect(aws.deliveredAlerts()).toHaveLength(1);
    await night(buildFailedReport, 1, { PAGE_TOPIC_ARN: pageTopicArn });
    expect(aws.deliveredAlerts().map((e) => e.attributes.alert_kind)).toEqual(['onset', 'onset']);
    expect(pages()).toHaveLength(1);
  });

  it('refuses a PAGE_TOPIC_ARN that is not a topic ARN, naming the variable', () => {
    expect(() => parseNightlyConfig({ ...standInNightlyEnv(aws), PAGE_TOPIC_ARN: 'ragwatch-pages' })).toThrow(
      /PAGE_TOPIC_ARN: must be an SNS topic ARN/,
    );
  });
});
