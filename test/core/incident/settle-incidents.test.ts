import { describe, expect, it } from 'vitest';
import { settleIncidents } from '../../../functions/core/incident/settle-incidents.ts';
import { emptyState, type IncidentState } from '../../../functions/core/report/incident-state.ts';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import { MemoryIncidentStore } from '../../fakes/memory-incident-store.ts';
import { nonEmpty } from '../../helpers/non-empty.ts';
import { buildFailedReport, buildPassedReport } from '../../nightly/fixtures/reports.ts';

const key = { collection: 'book', environment: 'prod' };

/**
 * One clean run recovers here, so each story is a night shorter: these tests are about the store; the default
 * policy (two clean runs) is pinned below and in advance-incidents.test.ts.
 */
const ONE_CLEAN_RUN = { recoveryRuns: 1, reminderDays: null };

function settle(
  store: MemoryIncidentStore,
  report: ValidationReport,
  extra: { reportLocation?: string | null; policy?: typeof ONE_CLEAN_RUN } = {},
) {
  let n = 0;
  return settleIncidents({
    store,
    report,
    reportLocation: 's3://b/k.json',
    newId: () => `incident-${++n}`,
    policy: ONE_CLEAN_RUN,
    ...extra,
  });
}

/** The state a first failed night leaves (stored as version v1). */
async function afterOneFailedNight(): Promise<{ store: MemoryIncidentStore; state: IncidentState }> {
  const store = new MemoryIncidentStore();
  await settle(store, buildFailedReport());
  return { store, state: store.state as IncidentState };
}

const kinds = (settled: Awaited<ReturnType<typeof settleIncidents>>) =>
  settled.ok ? settled.notices.map((n) => `${n.track}:${n.kind}`) : [settled.error];

describe('settleIncidents', () => {
  it('opens an incident on a first failed night, writing the state only if none is stored yet', async () => {
    const store = new MemoryIncidentStore();
    const report = buildFailedReport();
    const settled = await settle(store, report);
    expect(kinds(settled)).toEqual(['quality:onset']);
    expect(settled).toMatchObject({ ok: true, warning: null });
    expect(store.writes.map((w) => w.replaced)).toEqual([null]);
    expect(
      nonEmpty(store.keys, 'incident store keys').every(
        (k) => k.collection === key.collection && k.environment === key.environment,
      ),
    ).toBe(true);
    expect(store.writes[0]?.state.open.quality).toMatchObject({
      id: 'incident-1',
      opened: { run_id: report.run_id, started_at: report.timestamp, report: 's3://b/k.json' },
    });
  });

  it('stores nothing for a clean first night: no state is created until something breaks', async () => {
    const store = new MemoryIncidentStore();
    const settled = await settle(store, buildPassedReport());
    expect(kinds(settled)).toEqual([]);
    expect(store.writes).toEqual([]);
  });

  it('sends nothing on a clean night with nothing open, and records the run as the state’s last', async () => {
    const store = new MemoryIncidentStore();
    store.put(emptyState('book', 'prod'));
    const report = buildPassedReport();
    const settled = await settle(store, report);
    expect(settled).toMatchObject({ ok: true, notices: [], warning: null, skipped: null });
    expect(store.writes.map((w) => w.state)).toEqual([
      {
        ...emptyState('book', 'prod'),
        last_run: { run_id: report.run_id, started_at: report.timestamp, report: 's3://b/k.json' },
      },
    ]);
  });

  it('writes nothing when a clean run is settled again (the state already holds it)', async () => {
    const store = new MemoryIncidentStore();
    store.put(emptyState('book', 'prod'));
    const report = buildPassedReport();
    await settle(store, report);
    const again = await settle(store, report);
    expect(again).toMatchObject({ ok: true, notices: [], skipped: null });
    expect(store.writes).toHaveLength(1);
  });

  it('replaces a stored state that does not parse, and says so', async () => {
    const store = new MemoryIncidentStore();
    store.put({ ...emptyState('book', 'prod'), schema_version: '9' });
    const settled = await settle(store, buildPassedReport());
    expect(settled).toMatchObject({
      ok: true,
      notices: [],
      warning: 'the stored incident state did not parse; it was replaced by this run’s',
    });
    expect(store.writes.map((w) => w.state.open)).toEqual([emptyState('book', 'prod').open]);
    expect(store.writes.map((w) => w.replaced)).toEqual(['v1']);
  });

  it('says nothing of a replaced state when the replacing write was refused every time', async () => {
    const store = new MemoryIncidentStore((s) => s.put({ unparseable: true }));
    store.put({ unparseable: true });
    const settled = await settle(store, buildPassedReport());
    expect(settled).toEqual({
      ok: false,
      error: 'other runs kept writing the incident state first; this run sent nothing',
    });
  });

  it('opens a run-failure incident when the report could not be stored, naming no report location', async () => {
    const store = new MemoryIncidentStore();
    const settled = await settle(store, buildPassedReport(), { reportLocation: null });
    expect(kinds(settled)).toEqual(['infrastructure:onset']);
    expect(store.writes[0]?.state.open.infrastructure?.opened.report).toBe('not stored');
  });

  it('moves the stored incident on with each night and sends its recovery on the first clean one', async () => {
    const { store } = await afterOneFailedNight();
    expect(kinds(await settle(store, buildFailedReport()))).toEqual([]);
    expect((store.state as IncidentState).open.quality?.runs).toBe(2);
    expect(kinds(await settle(store, buildPassedReport()))).toEqual(['quality:recovery']);
    expect((store.state as IncidentState).open.quality).toBeNull();
  });

  it('applies the policy it is given: three clean nights to recover', async () => {
    const { store } = await afterOneFailedNight();
    const policy = { recoveryRuns: 3, reminderDays: null };
    const clean = () =>
      settleIncidents({ store, report: buildPassedReport(), reportLocation: 'x', newId: () => 'i', policy });
    expect(kinds(await clean())).toEqual([]);
    expect(kinds(await clean())).toEqual([]);
    expect(kinds(await clean())).toEqual(['quality:recovery']);
  });

  it('without a policy, applies the default: two clean nights to recover', async () => {
    const { store } = await afterOneFailedNight();
    const clean = () => settleIncidents({ store, report: buildPassedReport(), reportLocation: 'x', newId: () => 'i' });
    expect(kinds(await clean())).toEqual([]);
    expect(kinds(await clean())).toEqual(['quality:recovery']);
  });

  it('re-reads and applies this run on top when another run wrote first, so the onset is sent once', async () => {
    const { state: theirs } = await afterOneFailedNight();
    let raced = false;
    const store = new MemoryIncidentStore((s) => {
      if (raced) return;
      raced = true;
      s.put(theirs);
    });
    const settled = await settle(store, buildFailedReport());
    expect(kinds(settled)).toEqual([]);
    expect(store.reads).toBe(2);
    expect((store.state as IncidentState).open.quality?.runs).toBe(2);
  });

  it('gives up after three lost writes by default, sending nothing', async () => {
    let tries = 0;
    const store = new MemoryIncidentStore((s) => {
      tries += 1;
      s.put(emptyState('book', `other-${tries}`));
    });
    const settled = await settle(store, buildFailedReport());
    expect(settled).toEqual({
      ok: false,
      error: 'other runs kept writing the incident state first; this run sent nothing',
    });
    expect(tries).toBe(3);
  });

  it('wins on the third attempt after losing two', async () => {
    let tries = 0;
    const store = new MemoryIncidentStore((s) => {
      tries += 1;
      if (tries < 3) s.put(emptyState('book', `other-${tries}`));
    });
    expect(kinds(await settle(store, buildFailedReport()))).toEqual(['quality:onset']);
  });

  it('tries only as many times as it is told', async () => {
    let tries = 0;
    const store = new MemoryIncidentStore((s) => {
      tries += 1;
      s.put(emptyState('book', `other-${tries}`));
    });
    const settled = await settleIncidents({
      store,
      report: buildFailedReport(),
      reportLocation: 'x',
      newId: () => 'i',
      attempts: 1,
    });
    expect(settled.ok).toBe(false);
    expect(tries).toBe(1);
  });

  it('comes back as a failure naming the cause when the store is unavailable, never throwing', async () => {
    const store = new MemoryIncidentStore();
    store.read = async () => {
      throw new Error('access denied to reports/book/incidents/prod.json');
    };
    expect(await settle(store, buildFailedReport())).toEqual({
      ok: false,
      error: 'incident state unavailable: access denied to reports/book/incidents/prod.json',
    });
  });

  it('reverts to the state before the run, so the next run sends the notices this one could not', async () => {
    const { store, state: before } = await afterOneFailedNight();
    const settled = await settle(store, buildPassedReport());
    expect(kinds(settled)).toEqual(['quality:recovery']);
    if (settled.ok) await settled.revert();
    expect(store.state).toEqual(before);
    expect(kinds(await settle(store, buildPassedReport()))).toEqual(['quality:recovery']);
  });

  it('reverts a first state to one with nothing open, so the next run opens the incident again', async () => {
    const store = new MemoryIncidentStore();
    const settled = await settle(store, buildFailedReport());
    if (settled.ok) await settled.revert();
    expect(store.state).toEqual(emptyState('book', 'prod'));
    expect(kinds(await settle(store, buildFailedReport()))).toEqual(['quality:onset']);
  });

  it('does not apply a run that started before the state’s last run: a late old run cannot reopen a closed incident', async () => {
    const { store } = await afterOneFailedNight();
    const newer = { ...buildPassedReport(), run_id: 'newer', timestamp: '2026-03-15T02:00:00.000Z' };
    expect(kinds(await settle(store, newer))).toEqual(['quality:recovery']);
    const older = { ...buildFailedReport(), run_id: 'older', timestamp: '2026-03-15T01:59:59.000Z' };
    const settled = await settle(store, older);
    expect(settled).toMatchObject({
      ok: true,
      notices: [],
      skipped:
        'this run (started 2026-03-15T01:59:59.000Z) is older than the incident state’s last run (newer, started 2026-03-15T02:00:00.000Z); not applied',
    });
    expect(store.writes).toHaveLength(2);
    expect((store.state as IncidentState).open.quality).toBeNull();
    // A run starting at the same instant is not older: it is applied (the incident it closed re-opens).
    const same = { ...buildFailedReport(), run_id: 'same', timestamp: '2026-03-15T02:00:00.000Z' };
    expect(kinds(await settle(store, same))).toEqual(['quality:reopened']);
  });

  const previous = (status: string) => ({ runId: 'prev-run', status, startedAt: '2026-03-13T02:00:00.000Z' });
  const lost = (store: MemoryIncidentStore, report: ValidationReport, status: string | null) =>
    settleIncidents({
      store,
      report,
      reportLocation: 's3://b/k.json',
      newId: () => 'incident-new',
      policy: ONE_CLEAN_RUN,
      previous: status === null ? null : previous(status),
    });

  it('sends a recovery that says the state was lost when the state is missing, the run before FAILED and this one is clean', async () => {
    const store = new MemoryIncidentStore();
    const settled = await lost(store, buildPassedReport(), 'FAILED');
    expect(kinds(settled)).toEqual(['quality:recovery']);
    const notice = settled.ok ? settled.notices[0] : undefined;
    expect(notice?.stateLost).toBe(true);
    expect(notice?.incident).toMatchObject({
      opened: { run_id: 'prev-run', started_at: '2026-03-13T02:00:00.000Z' },
      severity: 'CRITICAL',
      breaches: [{ kind: 'PREVIOUS_RUN_FAILED', summary: expect.stringContaining('prev-run') }],
    });
    // The state now exists again, nothing open, so the next clean run is silent.
    expect((store.state as IncidentState).open).toEqual(emptyState('book', 'prod').open);
    expect(kinds(await lost(store, buildPassedReport(), 'PASSED'))).toEqual([]);
  });

  it('reads a lost state’s previous ERROR as the infrastructure track, and a PASSED or absent one as nothing', async () => {
    expect(kinds(await lost(new MemoryIncidentStore(), buildPassedReport(), 'ERROR'))).toEqual([
      'infrastructure:recovery',
    ]);
    expect(kinds(await lost(new MemoryIncidentStore(), buildPassedReport(), 'PASSED'))).toEqual([]);
    expect(kinds(await lost(new MemoryIncidentStore(), buildPassedReport(), null))).toEqual([]);
  });

  it('marks the onset of a failing run whose state was lost as possibly a repeat, and only then', async () => {
    const unreadable = new MemoryIncidentStore();
    unreadable.put({ unparseable: true });
    const settled = await lost(unreadable, buildFailedReport(), 'FAILED');
    expect(kinds(settled)).toEqual(['quality:onset']);
    expect(settled.ok && settled.notices[0]?.stateLost).toBe(true);
    expect(settled).toMatchObject({ warning: expect.stringContaining('did not parse') });
    const fresh = await lost(new MemoryIncidentStore(), buildFailedReport(), 'PASSED');
    expect(fresh.ok && fresh.notices[0]?.stateLost).toBeUndefined();
  });

  it('lists the lost incident as exactly what can be known of it', async () => {
    const settled = await lost(new MemoryIncidentStore(), buildPassedReport(), 'FAILED');
    const ref = {
      run_id: 'prev-run',
      started_at: '2026-03-13T02:00:00.000Z',
      report: 'unknown: the incident state was lost',
    };
    expect(settled.ok && settled.notices[0]?.incident).toEqual({
      id: 'lost-prev-run',
      track: 'quality',
      opened: ref,
      last_seen: ref,
      severity: 'CRITICAL',
      breaches: [
        {
          kind: 'PREVIOUS_RUN_FAILED',
          severity: 'CRITICAL',
          summary: 'the previous run (prev-run, started 2026-03-13T02:00:00.000Z) was FAILED',
        },
      ],
      last_notified_at: '2026-03-13T02:00:00.000Z',
      clean_runs: 1,
      runs: 2,
    });
  });

  it('settles a first run with no state and no run before it, sending nothing', async () => {
    const store = new MemoryIncidentStore();
    const settled = await lost(store, buildPassedReport(), null);
    expect(settled).toMatchObject({ ok: true, notices: [], warning: null });
  });

  it('sends no lost recovery when the state exists with nothing open, though the run before FAILED', async () => {
    const store = new MemoryIncidentStore();
    store.put(emptyState('book', 'prod'));
    const settled = await lost(store, buildPassedReport(), 'FAILED');
    expect(settled).toMatchObject({ ok: true, notices: [] });
  });

  it('does not treat a state that exists as lost, whatever the run before said', async () => {
    const { store } = await afterOneFailedNight();
    expect(kinds(await lost(store, buildPassedReport(), 'FAILED'))).toEqual(['quality:recovery']);
    const { store: closed } = await afterOneFailedNight();
    await settle(closed, buildPassedReport());
    expect(kinds(await lost(closed, buildPassedReport(), 'FAILED'))).toEqual([]);
  });
});
