import { describe, expect, it } from 'vitest';
import type { Notice } from '../../../functions/core/incident/advance-incidents.ts';
import { settleIncidents } from '../../../functions/core/incident/settle-incidents.ts';
import { composeEmails, type EmailSettings, type StoredObject } from '../../../functions/core/post-run/emails.ts';
import type { Delivery } from '../../../functions/core/post-run/ports.ts';
import { MemoryIncidentStore } from '../../fakes/memory-incident-store.ts';
import { buildFailedReport, buildPassedReport } from '../../nightly/fixtures/reports.ts';

const SETTINGS: EmailSettings = {
  region: 'eu-west-1',
  dashboardName: 'ragwatch-prod',
  logGroupName: '/aws/lambda/ragwatch',
  reminderDays: 3,
};
const STORED: Delivery<StoredObject>['stored'] = {
  ok: true,
  value: {
    location: 's3://bkt/reports/k.json',
    htmlLocation: 's3://bkt/reports/k.html',
    bucket: 'bkt',
    key: 'reports/k.json',
    htmlKey: 'reports/k.html',
  },
};
const CONSOLE = 'https://eu-west-1.console.aws.amazon.com/s3/object/bkt?region=eu-west-1&bucketType=general&prefix=';

function delivery(overrides: Partial<Delivery<StoredObject>> = {}): Delivery<StoredObject> {
  return { report: buildFailedReport(), stored: STORED, failedSinks: [], previous: null, ...overrides };
}

async function onset(): Promise<Notice> {
  const settled = await settleIncidents({
    store: new MemoryIncidentStore(),
    report: buildFailedReport(),
    reportLocation: 's3://bkt/reports/k.json',
    newId: () => 'incident-1',
  });
  if (!settled.ok || settled.notices[0] === undefined) throw new Error('expected an onset');
  return settled.notices[0];
}

describe('composeEmails: a notice', () => {
  it('names the stored report in S3, after its HTML’s console page in the deployment’s region', async () => {
    // Act
    const email = composeEmails(SETTINGS).composeNotice(await onset(), delivery());

    // Assess
    expect(email.body).toContain(`"Open" shows it): ${CONSOLE}reports%2Fk.html`);
    expect(email.body).toContain('- Report JSON: s3://bkt/reports/k.json\n');
  });

  it('links the HTML report, the dashboard and the run’s log lines', async () => {
    // Act
    const email = composeEmails(SETTINGS).composeNotice(await onset(), delivery());

    // Assess
    expect(email.body).toContain(`- Report (HTML, in the S3 console; "Open" shows it): ${CONSOLE}reports%2Fk.html`);
    expect(email.body).toContain(
      '- Dashboard: https://eu-west-1.console.aws.amazon.com/cloudwatch/home?region=eu-west-1#dashboards/dashboard/ragwatch-prod',
    );
    expect(email.body).toContain("- This run's log lines (CloudWatch Logs Insights): ");
    expect(email.body).toContain("source~(~'*2faws*2flambda*2fragwatch)");
  });

  it('links the JSON’s console page when the HTML was not stored', async () => {
    // Act
    const email = composeEmails(SETTINGS).composeNotice(
      await onset(),
      delivery({ stored: { ok: true, value: { ...STORED.value, htmlLocation: null, htmlKey: null } } as const }),
    );

    // Assess (the line's label says HTML whichever object it links: core/delivery/links.ts)
    expect(email.body).toContain(`"Open" shows it): ${CONSOLE}reports%2Fk.json`);
    expect(email.body).not.toContain('k.html');
  });

  it('says when reminders come, and which other sinks failed', async () => {
    // Act
    const email = composeEmails(SETTINGS).composeNotice(
      await onset(),
      delivery({ failedSinks: [{ sink: 'CloudWatch metrics', reason: 'InternalServiceFault' }] }),
    );

    // Assess
    expect(email.body).toContain('a reminder every 3 day(s)');
    expect(email.body).toContain('Also failed: CloudWatch metrics: InternalServiceFault');
  });

  it('points at the log line holding the report when S3 would not take it', async () => {
    // Act
    const email = composeEmails(SETTINGS).composeNotice(
      await onset(),
      delivery({ stored: { ok: false, error: 'NoSuchBucket: gone' } }),
    );

    // Assess
    expect(email.body).toContain(
      `- Report NOT STORED in S3 (NoSuchBucket: gone); the full report is in the function's log (/aws/lambda/ragwatch), message "validation report (not stored)"`,
    );
    expect(email.body).not.toContain('Report (HTML');
  });

  it('names the log group generically, and leaves out the links it cannot make, when none is configured', async () => {
    // Act
    const email = composeEmails({ ...SETTINGS, dashboardName: null, logGroupName: null }).composeNotice(
      await onset(),
      delivery({ stored: { ok: false, error: 'NoSuchBucket' } }),
    );

    // Assess
    expect(email.body).toContain(
      `the function's log (its CloudWatch Logs group), message "validation report (not stored)"`,
    );
    expect(email.body).not.toContain('Dashboard:');
    expect(email.body).not.toContain('log lines (CloudWatch Logs Insights)');
  });
});

describe('composeEmails: the run’s own alert', () => {
  it('says since when from the run before, and where the report is', () => {
    // Act
    const alert = composeEmails(SETTINGS).composeRunAlert(
      delivery({ previous: { runId: 'run-0', status: 'PASSED', startedAt: '2026-03-13T02:00:00.000Z' } }),
    );

    // Assess
    expect(alert?.body).toContain(
      'Previous run: 2026-03-13T02:00:00.000Z (run id run-0) PASSED, so this broke since then',
    );
    expect(alert?.body).toContain('- Report JSON: s3://bkt/reports/k.json\n');
    expect(alert?.body).toContain(`- Report (HTML, in the S3 console; "Open" shows it): ${CONSOLE}reports%2Fk.html`);
  });

  it('is due for a clean run only when its report was not stored', () => {
    // Act
    const emails = composeEmails(SETTINGS);
    const stored = emails.composeRunAlert(delivery({ report: buildPassedReport() }));
    const unstored = emails.composeRunAlert(
      delivery({ report: buildPassedReport(), stored: { ok: false, error: 'NoSuchBucket' } }),
    );

    // Assess
    expect(stored).toBeNull();
    expect(unstored?.subject).toBe('[HIGH] RagWatch prod/book: report NOT stored');
  });
});
