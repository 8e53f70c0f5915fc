import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../../functions/core/incident/advance-incidents.ts';
import { finishRun } from '../../../functions/core/post-run/finish-run.ts';
import type { IncidentState } from '../../../functions/core/report/incident-state.ts';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import { MemoryIncidentStore } from '../../fakes/memory-incident-store.ts';
import { buildFailedReport, buildPassedReport } from '../../nightly/fixtures/reports.ts';
import { eventsOf, type FakeOptions, fakePorts } from './fake-ports.ts';

const PREVIOUS = { runId: 'run-before', status: 'PASSED', startedAt: '2026-03-13T02:00:00.000Z' };

async function finish(report: ValidationReport, fakes: FakeOptions = {}) {
  const { ports, seen } = fakePorts(fakes);
  const outcome = await finishRun(ports, { report, previous: PREVIOUS }, { html: true, policy: DEFAULT_POLICY });
  return { outcome, seen };
}

/** A store whose every read fails, as an S3 that refuses the incident state does. */
function unreadableStore(): MemoryIncidentStore {
  const store = new MemoryIncidentStore();
  store.read = async () => {
    throw new Error('AccessDenied: incidents/prod.json');
  };
  return store;
}

describe('the alert step on a breaching run', () => {
  it('sends one message per notice, labelled with the run’s collection, environment, kind and track', async () => {
    // Act
    const { outcome, seen } = await finish(buildFailedReport());

    // Assess
    expect(seen.sent).toEqual([
      {
        message: { subject: 'quality onset', body: 'body', severity: 'CRITICAL' },
        labels: { collection: 'book', environment: 'prod', kind: 'onset', track: 'quality' },
      },
    ]);
    expect(outcome.sinks.alert).toEqual({
      ok: true,
      value: {
        sent: true,
        messageId: 'm-1',
        severity: 'CRITICAL',
        emails: [{ kind: 'onset', track: 'quality', severity: 'CRITICAL', subject: 'quality onset', messageId: 'm-1' }],
      },
    });
    expect(eventsOf(seen, 'notice_sent').map((e) => e.notice)).toEqual(
      outcome.sinks.alert.ok && outcome.sinks.alert.value.sent ? outcome.sinks.alert.value.emails : [],
    );
  });

  it('composes each message from the stored report, the failed sinks and the run before', async () => {
    // Act
    const { outcome, seen } = await finish(buildFailedReport());

    // Assess
    expect(seen.noticeDeliveries).toEqual([
      { report: outcome.report, stored: outcome.stored, failedSinks: [], previous: PREVIOUS },
    ]);
  });

  it('records where the report is in the incident it opens', async () => {
    // Prepare
    const store = new MemoryIncidentStore();

    // Act
    await finish(buildFailedReport(), { incidents: store });

    // Assess
    const state = store.state as IncidentState;
    expect(state.open.quality?.opened.report).toBe(`/reports/${buildFailedReport().run_id}.json`);
  });

  it('opens a run-failure incident too when the report could not be stored, and lists both messages', async () => {
    // Act
    const { outcome, seen } = await finish(buildFailedReport(), { archive: new Error('NoSuchBucket') });

    // Assess
    expect(seen.sent.map((s) => s.labels.track)).toEqual(['quality', 'infrastructure']);
    expect(outcome.sinks.alert).toMatchObject({
      ok: true,
      value: { sent: true, messageId: 'm-1', emails: [{ messageId: 'm-1' }, { messageId: 'm-2' }] },
    });
  });

  it('runs within the root’s step bound, and reports that bound’s error when it is reached', async () => {
    // Act
    const { outcome, seen } = await finish(buildFailedReport(), {
      stepBound: new Error('alert step did not finish within its 45000 ms bound'),
    });

    // Assess
    expect(seen.steps).toEqual(['alert step']);
    expect(outcome.sinks.alert).toEqual({ ok: false, error: 'alert step did not finish within its 45000 ms bound' });
  });

  it('puts the incident state back, so the next run sends the notice again, when a message cannot be sent', async () => {
    // Prepare
    const store = new MemoryIncidentStore();

    // Act
    const { outcome, seen } = await finish(buildFailedReport(), {
      incidents: store,
      failSend: { at: 1, error: new Error('SNS Publish failed (not_found)') },
    });

    // Assess
    expect(outcome.sinks.alert).toEqual({ ok: false, error: 'SNS Publish failed (not_found)' });
    expect(eventsOf(seen, 'notice_not_sent')).toEqual([
      { kind: 'notice_not_sent', reason: 'SNS Publish failed (not_found)' },
    ]);
    expect((store.state as IncidentState).open.quality).toBeNull();
    expect(store.writes).toHaveLength(2);
  });

  it('says so when the incident state cannot be put back either', async () => {
    // Prepare: the first write lands, the one putting the state back fails
    const store = new MemoryIncidentStore();
    const write = store.write.bind(store);
    store.write = async (key, state, version) => {
      if (store.writes.length > 0) throw new Error('S3 incident state write did not finish within its 15000 ms bound');
      return write(key, state, version);
    };

    // Act
    const { outcome, seen } = await finish(buildFailedReport(), {
      incidents: store,
      failSend: { at: 1, error: new Error('SNS down') },
    });

    // Assess
    expect(eventsOf(seen, 'incidents_not_put_back')).toEqual([
      {
        kind: 'incidents_not_put_back',
        reason: 'S3 incident state write did not finish within its 15000 ms bound',
      },
    ]);
    expect(outcome.sinks.alert).toEqual({ ok: false, error: 'SNS down' });
  });
});

describe('the alert step when nothing is owed', () => {
  it('sends nothing on a clean run with no open incident', async () => {
    // Act
    const { outcome, seen } = await finish(buildPassedReport());

    // Assess
    expect(seen.sent).toEqual([]);
    expect(outcome.sinks.alert).toEqual({ ok: true, value: { sent: false } });
  });
});

describe('the alert step when the incident state is out of reach', () => {
  it('sends the run’s own alert, composed from the stored report and the run before', async () => {
    // Act
    const { outcome, seen } = await finish(buildFailedReport(), { incidents: unreadableStore() });

    // Assess
    expect(eventsOf(seen, 'incidents_unavailable')).toEqual([
      { kind: 'incidents_unavailable', reason: 'incident state unavailable: AccessDenied: incidents/prod.json' },
    ]);
    expect(seen.runAlertDeliveries).toEqual([
      { report: outcome.report, stored: outcome.stored, failedSinks: [], previous: PREVIOUS },
    ]);
    expect(seen.sent).toEqual([
      {
        message: { subject: 'run alert', body: 'b', severity: 'HIGH' },
        labels: { collection: 'book', environment: 'prod' },
      },
    ]);
    expect(outcome.sinks.alert).toEqual({ ok: true, value: { sent: true, messageId: 'm-1', severity: 'HIGH' } });
    expect(eventsOf(seen, 'run_alert_sent')).toEqual([
      { kind: 'run_alert_sent', severity: 'HIGH', subject: 'run alert', messageId: 'm-1' },
    ]);
  });

  it('sends nothing when the run needs no alert', async () => {
    // Act
    const { outcome, seen } = await finish(buildPassedReport(), { incidents: unreadableStore(), runAlert: null });

    // Assess
    expect(seen.sent).toEqual([]);
    expect(outcome.sinks.alert).toEqual({ ok: true, value: { sent: false } });
  });

  it('says which alert could not be sent, and why', async () => {
    // Act
    const { outcome, seen } = await finish(buildFailedReport(), {
      incidents: unreadableStore(),
      failSend: { at: 1, error: new Error('SNS throttled') },
    });

    // Assess
    expect(outcome.sinks.alert).toEqual({ ok: false, error: 'SNS throttled' });
    expect(eventsOf(seen, 'run_alert_not_sent')).toEqual([
      { kind: 'run_alert_not_sent', severity: 'HIGH', subject: 'run alert', reason: 'SNS throttled' },
    ]);
  });
});

describe('the alert step on a stored state that does not parse', () => {
  it('replaces it, says so, and sends the onset', async () => {
    // Prepare
    const store = new MemoryIncidentStore();
    store.put({ schema_version: '9' });

    // Act
    const { seen } = await finish(buildFailedReport(), { incidents: store });

    // Assess
    expect(eventsOf(seen, 'incidents_replaced')).toEqual([
      { kind: 'incidents_replaced', reason: expect.stringContaining('did not parse') },
    ]);
    expect(seen.sent.map((s) => s.labels.kind)).toEqual(['onset']);
  });
});
