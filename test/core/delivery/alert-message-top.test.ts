/**
 * The top of every run alert: five lines that say what broke, its likeliest cause, how badly and when, since when
 * and what changed, then the one links block; and a run that could not start says so once, with no "0%" for
 * queries that never ran.
 */
import { describe, expect, it } from 'vitest';
import { type AlertContext, buildAlertMessage } from '../../../functions/core/delivery/alert-message.ts';
import { buildRunLinks } from '../../../functions/core/delivery/links.ts';
import {
  buildFailedReport,
  buildMrrDrop,
  buildRegression,
  buildSecretsFailureReport,
  RUN_ID,
} from '../../nightly/fixtures/reports.ts';

const KEY = `reports/book/2026/03/14/${RUN_ID}.json`;
const LINKS = buildRunLinks({
  region: 'eu-west-1',
  runId: RUN_ID,
  startedAt: '2026-03-14T02:00:00.000Z',
  finishedAt: '2026-03-14T02:00:42.500Z',
  report: { bucket: 'ragwatch-reports', jsonKey: KEY, htmlKey: KEY.replace('.json', '.html') },
  dashboardName: 'ragwatch-prod-book',
  logGroupName: '/aws/lambda/ragwatch-prod-book',
});
const CONTEXT: AlertContext = {
  placement: { stored: true, bucket: 'ragwatch-reports', key: KEY, region: 'eu-west-1' },
  previous: null,
  links: LINKS,
};

describe('the top of a run alert', () => {
  it('lists the report, dashboard and logs links right after the five opening lines', () => {
    // Act
    const lines = buildAlertMessage(buildFailedReport(), CONTEXT)?.body.split('\n') ?? [];

    // Assess
    expect(lines[5]).toBe('');
    expect(lines.slice(6, 12)).toEqual([
      'LINKS',
      `- Report (HTML, in the S3 console; "Open" shows it): ${LINKS.report}`,
      `- Dashboard: ${LINKS.dashboard}`,
      `- This run's log lines (CloudWatch Logs Insights): ${LINKS.logs}`,
      `- Report JSON: s3://ragwatch-reports/${KEY}`,
      '',
    ]);
    // One links block: the report's console page is nowhere else.
    expect(lines.filter((l) => l.includes('console.aws.amazon.com/s3/'))).toHaveLength(1);
  });

  it('says what changed since the baseline in its fifth line', () => {
    // Prepare
    const report = buildFailedReport();
    report.regression = buildRegression({
      note: 'compared with 7 healthy runs',
      findings: [buildMrrDrop({ message: 'MRR 0.61, usually 0.90 ± 0.05' })],
    });

    // Act
    const lines = buildAlertMessage(report, CONTEXT)?.body.split('\n') ?? [];

    // Assess
    expect(lines[4]).toBe('What changed: 1 regression(s) since the baseline: MRR 0.61, usually 0.90 ± 0.05');
  });

  it('says once why a run could not start, and that no query ran, never a 0% pass rate', () => {
    // Prepare
    const report = buildSecretsFailureReport(
      'Secrets Manager GetSecretValue ragwatch/cohere failed (forbidden): AccessDeniedException',
    );

    // Act
    const body = buildAlertMessage(report, CONTEXT)?.body ?? '';

    // Assess
    expect(body.split('\n').slice(0, 3)).toEqual([
      'The nightly validation of "book" (prod) could not complete: nothing was validated.',
      `Cause: ${report.status_reason.replace(/^the run could not complete:\s*/i, '')}`,
      `Severity: CRITICAL; no query ran; run ${report.timestamp} (run id ${RUN_ID})`,
    ]);
    expect(body.match(/AccessDeniedException/g)).toHaveLength(1);
    expect(body).toContain('- Queries: none ran');
    expect(body).not.toMatch(/pass rate 0%/);
  });
});
