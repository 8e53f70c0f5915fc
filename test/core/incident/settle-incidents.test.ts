import { describe, expect, it } from 'vitest';
import { settleIncidents } from '../../../functions/core/incident/settle-incidents.ts';
import { emptyState, type IncidentState } from '../../../functions/core/report/incident-state.ts';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import { MemoryIncidentStore } from '../../fakes/memory-incident-store.ts';
import { nonEmpty } from '../../helpers/non-empty.ts';
import { buildFailedReport, buildPassedReport } from '../../nightly/fixtures/reports.ts';

const key = { collection: 'book', environment: 'prod' };

function settle(store: MemoryIncidentStore, report: ValidationReport, extra: { reportLocation?: string | null } = {}) {
  let n = 0;
  return settleIncidents({
    store,
    report,
    reportLocation: 's3://b/k.json',
    newId: () => `incident-${++n}`,
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

  it('writes nothing and sends nothing when the run leaves the stored state as it was', async () => {
    const store = new MemoryIncidentStore();
    store.put(emptyState('book', 'prod'));
    const settled = await settle(store, buildPassedReport());
    expect(settled).toMatchObject({ ok: true, notices: [], warning: null });
    expect(store.writes).toEqual([]);
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
    expect(store.writes.map((w) => w.state)).toEqual([emptyState('book', 'prod')]);
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

  it('applies the policy it is given: two clean nights to recover', async () => {
    const { store } = await afterOneFailedNight();
    const policy = { recoveryRuns: 2, reminderDays: null };
    const clean = () =>
      settleIncidents({ store, report: buildPassedReport(), reportLocation: 'x', newId: () => 'i', policy });
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
});
