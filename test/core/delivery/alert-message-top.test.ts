/**
 * The top of every run alert: five lines that say what broke, how badly, when, since when and what changed, then
 * the links; and a run that could not start says so once, with no "0%" for queries that never ran.
 */
import { describe, expect, it } from 'vitest';
import { type AlertContext, buildAlertMessage } from '../../../functions/core/delivery/alert-message.ts';
import { buildRunLinks } from '../../../functions/core/delivery/links.ts';
import { buildRunFailureReport } from '../../../functions/core/report/failure-report.ts';
import { buildFailedReport, RUN_ID } from '../../nightly/fixtures/reports.ts';

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
    expect(lines.slice(6, 11)).toEqual([
      'LINKS',
      `- Report (HTML, in the S3 console; "Open" shows it): ${LINKS.report}`,
      `- Dashboard: ${LINKS.dashboard}`,
      `- This run's log lines (CloudWatch Logs Insights): ${LINKS.logs}`,
      '',
    ]);
  });

  it('says what changed since the baseline in its fifth line', () => {
    // Prepare
    const report = buildFailedReport();
    report.regression = {
      compared: true,
      note: 'compared with 7 healthy runs',
      baseline_runs: [],
      findings: [
        {
          kind: 'METRIC_DROPPED',
          severity: 'HIGH',
          message: 'MRR 0.61, usually 0.90 ± 0.05',
          addressed_to: 'operations',
          query_id: null,
          metric: 'mrr',
          value: 0.61,
          baseline: 0.9,
          band: 0.05,
          urls: [],
        },
      ],
      recovered_queries: [],
      stale_queries: [],
      score_shift: null,
    };

    // Act
    const lines = buildAlertMessage(report, CONTEXT)?.body.split('\n') ?? [];

    // Assess
    expect(lines[4]).toBe('What changed: 1 regression(s) since the baseline: MRR 0.61, usually 0.90 ± 0.05');
  });

  it('says once why a run could not start, and that no query ran, never a 0% pass rate', () => {
    // Prepare
    const report = buildRunFailureReport({
      runId: RUN_ID,
      errorId: '0a1b2c3d-0000-4000-8000-000000000000',
      startedAt: new Date('2026-03-14T02:00:00Z'),
      finishedAt: new Date('2026-03-14T02:00:03Z'),
      collection: 'book',
      environment: 'prod',
      suite: { name: 'golden', source: 'suite.json', query_count: 20 },
      embeddingModel: 'embed-english-v3.0',
      reason: 'Secrets Manager GetSecretValue ragwatch/cohere failed (forbidden): AccessDeniedException',
      stage: 'secrets',
    });

    // Act
    const body = buildAlertMessage(report, CONTEXT)?.body ?? '';

    // Assess
    expect(body.split('\n').slice(0, 2)).toEqual([
      `The nightly validation of "book" (prod) could not complete: ${report.status_reason.replace(/^the run could not complete:\s*/i, '')}`,
      'Severity: CRITICAL; no query ran',
    ]);
    expect(body.match(/AccessDeniedException/g)).toHaveLength(1);
    expect(body).toContain('- Queries: none ran');
    expect(body).not.toMatch(/pass rate 0%/);
  });
});
