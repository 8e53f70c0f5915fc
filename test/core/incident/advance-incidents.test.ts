import { describe, expect, it } from 'vitest';
import { advanceIncidents, type IncidentPolicy } from '../../../functions/core/incident/advance-incidents.ts';
import type { Observation } from '../../../functions/core/incident/observe-run.ts';
import type { Breach, IncidentState } from '../../../functions/core/report/incident-state.ts';

const pass: Breach = { kind: 'criterion:pass_rate', severity: 'HIGH', summary: 'pass rate 80% < 90%' };
const mrr: Breach = { kind: 'METRIC_DROPPED:mrr', severity: 'MEDIUM', summary: 'MRR is 0.6' };
const error: Breach = { kind: 'RUN_ERROR', severity: 'CRITICAL', summary: 'run ERROR: Qdrant down' };
const clean: Observation = { quality: [], infrastructure: [], suite: [] };
const failed = (...quality: Breach[]): Observation => ({ quality, infrastructure: [], suite: [] });
const errored: Observation = { quality: null, infrastructure: [error], suite: null };

/** Runs the nights in order, one a day from 2026-03-01, and returns each night's notice kinds. */
function replay(nights: Observation[], policy?: IncidentPolicy) {
  let state: IncidentState | null = null;
  let n = 0;
  return nights.map((observation, i) => {
    const run = {
      run_id: `run-${i}`,
      started_at: new Date(Date.UTC(2026, 2, 1 + i, 2)).toISOString(),
      report: `s3://b/${i}.json`,
    };
    const next = advanceIncidents({
      state,
      collection: 'book',
      environment: 'prod',
      observation,
      run,
      newId: () => `incident-${++n}`,
      ...(policy ? { policy } : {}),
    });
    state = next.state;
    return next.notices.map((x) => `${x.track}:${x.kind}`);
  });
}

describe('advanceIncidents', () => {
  it('sends nothing on clean nights', () => {
    expect(replay([clean, clean])).toEqual([[], []]);
  });

  it('sends one onset, silence while it lasts, and one recovery on the first clean night', () => {
    expect(replay([clean, failed(pass), failed(pass), failed(pass), clean, clean])).toEqual([
      [],
      ['quality:onset'],
      [],
      [],
      ['quality:recovery'],
      [],
    ]);
  });

  it('escalates when a new kind of breach appears', () => {
    expect(replay([failed(pass), failed(pass, mrr), failed(pass, mrr)])).toEqual([
      ['quality:onset'],
      ['quality:escalation'],
      [],
    ]);
  });

  it('escalates when severity rises, not when it falls back', () => {
    const medium = { ...pass, severity: 'MEDIUM' as const };
    expect(replay([failed(medium), failed(pass), failed(medium)])).toEqual([
      ['quality:onset'],
      ['quality:escalation'],
      [],
    ]);
  });

  it('keeps a run ERROR apart from the quality incident, which it neither prolongs nor ends', () => {
    expect(replay([failed(pass), errored, failed(pass), clean])).toEqual([
      ['quality:onset'],
      ['infrastructure:onset'],
      ['infrastructure:recovery'],
      ['quality:recovery'],
    ]);
  });

  it('waits for R clean runs in a row before the recovery', () => {
    const policy = { recoveryRuns: 2, reminderDays: null };
    expect(replay([failed(pass), clean, failed(pass), clean, clean], policy)).toEqual([
      ['quality:onset'],
      [],
      [],
      [],
      ['quality:recovery'],
    ]);
  });

  it('reminds every D days while an incident lasts, and never when reminders are off', () => {
    const nights = Array.from({ length: 5 }, () => failed(pass));
    expect(replay(nights, { recoveryRuns: 1, reminderDays: 2 })).toEqual([
      ['quality:onset'],
      [],
      ['quality:reminder'],
      [],
      ['quality:reminder'],
    ]);
    expect(replay(nights).flat()).toEqual(['quality:onset']);
  });

  it('reminds only while the incident is at least the minimum severity (HIGH unless set)', () => {
    const medium = Array.from({ length: 3 }, () => failed(mrr));
    const high = Array.from({ length: 3 }, () => failed(pass));
    const daily = { recoveryRuns: 1, reminderDays: 1 };
    // MEDIUM is under the default HIGH: told once. HIGH is at it: reminded.
    expect(replay(medium, daily).flat()).toEqual(['quality:onset']);
    expect(replay(high, daily).flat()).toEqual(['quality:onset', 'quality:reminder', 'quality:reminder']);
    // MEDIUM at a MEDIUM minimum: reminded; HIGH under a CRITICAL minimum: told once.
    expect(replay(medium, { ...daily, reminderMinSeverity: 'MEDIUM' }).flat()).toEqual([
      'quality:onset',
      'quality:reminder',
      'quality:reminder',
    ]);
    expect(replay(high, { ...daily, reminderMinSeverity: 'CRITICAL' }).flat()).toEqual(['quality:onset']);
  });

  it('remembers where and when the incident began', () => {
    const next = advanceIncidents({
      state: null,
      collection: 'book',
      environment: 'prod',
      observation: failed(pass),
      run: { run_id: 'r1', started_at: '2026-03-01T02:00:00.000Z', report: 's3://b/r1.json' },
      newId: () => 'i1',
    });
    expect(next.state.open.quality).toMatchObject({
      id: 'i1',
      opened: { run_id: 'r1', started_at: '2026-03-01T02:00:00.000Z', report: 's3://b/r1.json' },
      severity: 'HIGH',
      breaches: [pass],
      runs: 1,
      clean_runs: 0,
    });
  });
});

describe('advanceIncidents: the notices’ contents', () => {
  const run = (started_at: string, id = 'r') => ({ run_id: id, started_at, report: `s3://b/${id}.json` });
  const open = (observation: Observation, started_at = '2026-03-01T02:00:00.000Z') =>
    advanceIncidents({
      state: null,
      collection: 'book',
      environment: 'prod',
      observation,
      run: run(started_at, 'r1'),
      newId: () => 'i1',
    }).state;

  it('escalates with this run’s breaches, the kinds not told before, and adds only those to the incident', () => {
    const next = advanceIncidents({
      state: open(failed(pass)),
      collection: 'book',
      environment: 'prod',
      observation: failed(pass, mrr),
      run: run('2026-03-02T02:00:00.000Z', 'r2'),
      newId: () => 'unused',
    });
    expect(next.notices).toEqual([
      expect.objectContaining({ kind: 'escalation', breaches: [pass, mrr], newKinds: ['METRIC_DROPPED:mrr'] }),
    ]);
    expect(next.state.open.quality).toMatchObject({
      breaches: [pass, mrr],
      last_notified_at: '2026-03-02T02:00:00.000Z',
      runs: 2,
    });
  });

  it('recovers with no breaches and no new kinds, the incident as it closed', () => {
    const next = advanceIncidents({
      state: open(failed(pass)),
      collection: 'book',
      environment: 'prod',
      observation: clean,
      run: run('2026-03-02T02:00:00.000Z', 'r2'),
      newId: () => 'unused',
    });
    expect(next.notices).toEqual([
      {
        kind: 'recovery',
        track: 'quality',
        incident: expect.objectContaining({ id: 'i1', clean_runs: 1, runs: 2 }),
        breaches: [],
        newKinds: [],
      },
    ]);
    expect(next.state.open.quality).toBeNull();
  });

  it('reminds from D days less an hour after the last notice, not a minute sooner, naming no new kind', () => {
    const policy = { recoveryRuns: 1, reminderDays: 2 };
    const at = (started_at: string) =>
      advanceIncidents({
        state: open(failed(pass), '2026-03-01T02:00:00.000Z'),
        collection: 'book',
        environment: 'prod',
        observation: failed(pass),
        run: run(started_at, 'r2'),
        newId: () => 'unused',
        policy,
      }).notices;
    expect(at('2026-03-03T00:59:00.000Z')).toEqual([]);
    expect(at('2026-03-03T01:00:00.000Z')).toEqual([
      expect.objectContaining({ kind: 'reminder', breaches: [pass], newKinds: [] }),
    ]);
  });
});
