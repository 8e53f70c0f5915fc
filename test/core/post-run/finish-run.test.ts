import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../../functions/core/incident/advance-incidents.ts';
import { finishRun } from '../../../functions/core/post-run/finish-run.ts';
import type { PreviousRun } from '../../../functions/core/post-run/ports.ts';
import { buildReportAttachments } from '../../../functions/core/render/attachments.ts';
import { trendPointFromDigest } from '../../../functions/core/render/trend-point.ts';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import { buildFailedReport, buildPassedReport } from '../../nightly/fixtures/reports.ts';
import { buildReport, historyOf } from '../regression/reports.ts';
import { eventsOf, type FakeOptions, fakePorts } from './fake-ports.ts';

const OPTIONS = { html: true, policy: DEFAULT_POLICY };

async function finish(report: ValidationReport, fakes: FakeOptions = {}, previous: PreviousRun | null = null) {
  const { ports, seen } = fakePorts(fakes);
  const outcome = await finishRun(ports, { report, previous }, OPTIONS);
  return { outcome, seen };
}

describe('finishRun: history', () => {
  it('returns the report compared with the earlier runs of its collection and environment', async () => {
    // Act
    const { outcome, seen } = await finish(buildReport(), { history: historyOf(7) });

    // Assess
    expect(outcome.report.regression).toMatchObject({ compared: true, baseline_runs: expect.any(Array) });
    expect(outcome.report.regression?.baseline_runs).toHaveLength(7);
    expect(seen.historyQueries.map((q) => [q.collection, q.environment, q.before])).toEqual([
      ['book', 'prod', buildReport().timestamp],
      ['book', 'prod', buildReport().timestamp],
    ]);
    expect(eventsOf(seen, 'compared').map((e) => e.report)).toEqual([outcome.report]);
    expect(eventsOf(seen, 'history_not_read')).toEqual([]);
  });

  it('says history was not read, and still stores the report uncompared, when history fails', async () => {
    // Act
    const { outcome, seen } = await finish(buildReport(), { history: new Error('access denied to reports/') });

    // Assess
    expect(eventsOf(seen, 'history_not_read')).toEqual([
      { kind: 'history_not_read', reason: 'access denied to reports/' },
    ]);
    expect(outcome.report.regression?.compared).toBe(false);
    expect(seen.archived.map((a) => a.report)).toEqual([outcome.report]);
  });

  it('draws the earlier runs in the HTML report’s trend', async () => {
    // Act
    const { outcome, seen } = await finish(buildReport(), { history: historyOf(3) });

    // Assess
    const trend = historyOf(3).map(trendPointFromDigest);
    expect(seen.archived[0]?.attachments).toEqual(buildReportAttachments(outcome.report, { history: trend }));
    expect(trend).toHaveLength(3);
  });
});

describe('finishRun: storing', () => {
  it('archives the compared report with its HTML and CSV, then the latest copies of the same', async () => {
    // Act
    const { outcome, seen } = await finish(buildPassedReport());

    // Assess
    expect(seen.archived.map((a) => a.attachments.map((x) => x.suffix))).toEqual([['.html', '.csv']]);
    expect(seen.latest).toEqual(seen.archived);
    expect(seen.archived[0]?.report).toBe(outcome.report);
  });

  it('writes only the CSV beside the JSON when the HTML is turned off', async () => {
    // Prepare
    const { ports, seen } = fakePorts();

    // Act
    await finishRun(ports, { report: buildPassedReport(), previous: null }, { ...OPTIONS, html: false });

    // Assess
    expect(seen.archived[0]?.attachments.map((a) => a.suffix)).toEqual(['.csv']);
  });

  it('reports where the report and its HTML went, and that latest.json was updated', async () => {
    // Act
    const { outcome } = await finish(buildPassedReport(), { htmlLocation: '/reports/x.html' });

    // Assess
    expect(outcome.sinks.report).toEqual({
      ok: true,
      value: {
        location: `/reports/${buildPassedReport().run_id}.json`,
        latestUpdated: true,
        htmlLocation: '/reports/x.html',
      },
    });
    expect(outcome.stored).toEqual({
      ok: true,
      value: { location: `/reports/${buildPassedReport().run_id}.json`, htmlLocation: '/reports/x.html' },
    });
  });

  it('names no HTML location when the store kept no HTML', async () => {
    // Act
    const { outcome } = await finish(buildPassedReport());

    // Assess
    expect(outcome.sinks.report.ok && outcome.sinks.report.value).toEqual({
      location: `/reports/${buildPassedReport().run_id}.json`,
      latestUpdated: true,
    });
  });

  it('hands the whole report to the log, and writes no latest copy, when the archive fails', async () => {
    // Act
    const { outcome, seen } = await finish(buildFailedReport(), { archive: new Error('NoSuchBucket: gone') });

    // Assess
    expect(eventsOf(seen, 'report_not_stored')).toEqual([
      { kind: 'report_not_stored', reason: 'NoSuchBucket: gone', report: outcome.report },
    ]);
    expect(outcome.sinks.report).toEqual({ ok: false, error: 'NoSuchBucket: gone' });
    expect(outcome.stored).toEqual({ ok: false, error: 'NoSuchBucket: gone' });
    expect(seen.latest).toEqual([]);
  });

  it('keeps the archived report and says so when only the latest copy fails', async () => {
    // Act
    const { outcome, seen } = await finish(buildPassedReport(), { latest: new Error('latest.json: SlowDown') });

    // Assess
    expect(outcome.sinks.report).toMatchObject({ ok: true, value: { latestUpdated: false } });
    expect(eventsOf(seen, 'latest_not_updated')).toEqual([
      { kind: 'latest_not_updated', reason: 'latest.json: SlowDown' },
    ]);
  });
});

describe('finishRun: what it logs', () => {
  it('logs only the comparison when everything went through and nothing was owed', async () => {
    // Act
    const { seen } = await finish(buildPassedReport());

    // Assess
    expect(seen.events.map((e) => e.kind)).toEqual(['compared']);
  });

  it('logs the comparison and each notice sent on a breaching run, nothing else', async () => {
    // Act
    const { seen } = await finish(buildFailedReport());

    // Assess
    expect(seen.events.map((e) => e.kind)).toEqual(['compared', 'notice_sent']);
  });
});

describe('finishRun: metrics', () => {
  it('publishes the compared report’s figures and reports what was sent', async () => {
    // Act
    const { outcome, seen } = await finish(buildPassedReport());

    // Assess
    expect(seen.published).toEqual([outcome.report]);
    expect(outcome.sinks.metrics).toEqual({ ok: true, value: { namespace: 'Test', datums: 3, calls: 1 } });
    expect(eventsOf(seen, 'metrics_not_published')).toEqual([]);
  });

  it('names the failed metrics sink in the messages, and still stores and notifies', async () => {
    // Act
    const { outcome, seen } = await finish(buildFailedReport(), { metrics: new Error('InternalServiceFault') });

    // Assess
    expect(outcome.sinks.metrics).toEqual({ ok: false, error: 'InternalServiceFault' });
    expect(eventsOf(seen, 'metrics_not_published')).toEqual([
      { kind: 'metrics_not_published', reason: 'InternalServiceFault' },
    ]);
    expect(seen.noticeDeliveries.map((d) => d.failedSinks)).toEqual([
      [{ sink: 'the metrics sink', reason: 'InternalServiceFault' }],
    ]);
    expect(outcome.sinks.report.ok).toBe(true);
    expect(seen.sent).toHaveLength(1);
  });

  it('sends the run’s own alert naming the failed metrics on a passing night that owes no notice', async () => {
    // Act
    const { outcome, seen } = await finish(buildPassedReport(), { metrics: new Error('InvalidParameterValue') });

    // Assess
    expect(seen.noticeDeliveries).toEqual([]);
    expect(seen.runAlertDeliveries.map((d) => d.failedSinks)).toEqual([
      [{ sink: 'the metrics sink', reason: 'InvalidParameterValue' }],
    ]);
    expect(seen.sent.map((s) => s.message.subject)).toEqual(['run alert']);
    expect(outcome.sinks.alert).toEqual({ ok: true, value: { sent: true, messageId: 'm-1', severity: 'HIGH' } });
  });

  it('sends nothing on a passing night whose metrics went out', async () => {
    const { outcome, seen } = await finish(buildPassedReport());
    expect(seen.runAlertDeliveries).toEqual([]);
    expect(seen.sent).toEqual([]);
    expect(outcome.sinks.alert).toEqual({ ok: true, value: { sent: false } });
  });
});
