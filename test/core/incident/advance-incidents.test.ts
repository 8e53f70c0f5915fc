import { describe, expect, it } from 'vitest';
import {
  advanceIncidents,
  DEFAULT_POLICY,
  type IncidentPolicy,
} from '../../../functions/core/incident/advance-incidents.ts';
import type { Observation } from '../../../functions/core/incident/observe-run.ts';
import type { Breach, IncidentState } from '../../../functions/core/report/incident-state.ts';

const pass: Breach = { kind: 'criterion:pass_rate', severity: 'HIGH', summary: 'pass rate 80% < 90%' };
const mrr: Breach = { kind: 'METRIC_DROPPED:mrr', severity: 'MEDIUM', summary: 'MRR is 0.6' };
const shift: Breach = { kind: 'SCORE_SHIFT', severity: 'HIGH', summary: 'best similarities fell' };
const error: Breach = { kind: 'RUN_ERROR', severity: 'CRITICAL', summary: 'run ERROR: Qdrant down' };
const clean: Observation = { quality: [], infrastructure: [], suite: [] };
const failed = (...quality: Breach[]): Observation => ({ quality, infrastructure: [], suite: [] });
const errored: Observation = { quality: null, infrastructure: [error], suite: null };

/**
 * One clean run recovers unless a test says otherwise, so each story is a night shorter; the default policy (two
 * clean runs) has its own tests (replay(nights, DEFAULT_POLICY)).
 */
const ONE_CLEAN_RUN: IncidentPolicy = { recoveryRuns: 1, reminderDays: null };

/** Runs the nights in order, one a day from 2026-03-01, and returns each night's notice kinds. */
function replay(nights: Observation[], policy: IncidentPolicy | null = ONE_CLEAN_RUN) {
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
  it('by default recovers on the second clean run in a row, not the first (DEFAULT_RECOVERY_RUNS)', () => {
    expect(DEFAULT_POLICY.recoveryRuns).toBe(2);
    expect(replay([failed(pass), clean, clean, clean], null)).toEqual([
      ['quality:onset'],
      [],
      ['quality:recovery'],
      [],
    ]);
    // A breach between the clean runs starts the count again.
    expect(replay([failed(pass), clean, failed(pass), clean, clean], null)).toEqual([
      ['quality:onset'],
      [],
      [],
      [],
      ['quality:recovery'],
    ]);
  });

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

  it('escalates when a new kind of breach appears at the incident’s severity', () => {
    expect(replay([failed(pass), failed(pass, shift), failed(pass, shift)])).toEqual([
      ['quality:onset'],
      ['quality:escalation'],
      [],
    ]);
  });

  it('records a new kind below the incident’s severity without an email', () => {
    expect(replay([failed(pass), failed(pass, mrr), failed(pass, mrr)])).toEqual([['quality:onset'], [], []]);
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
      observation: failed(pass, shift),
      run: run('2026-03-02T02:00:00.000Z', 'r2'),
      newId: () => 'unused',
    });
    expect(next.notices).toEqual([
      expect.objectContaining({ kind: 'escalation', breaches: [pass, shift], newKinds: ['SCORE_SHIFT'] }),
    ]);
    expect(next.state.open.quality).toMatchObject({
      breaches: [pass, shift],
      last_notified_at: '2026-03-02T02:00:00.000Z',
      runs: 2,
    });
  });

  it('adds a lesser new kind to the incident without a notice', () => {
    const next = advanceIncidents({
      state: open(failed(pass)),
      collection: 'book',
      environment: 'prod',
      observation: failed(pass, mrr),
      run: run('2026-03-02T02:00:00.000Z', 'r2'),
      newId: () => 'unused',
    });
    expect(next.notices).toEqual([]);
    expect(next.state.open.quality?.breaches).toEqual([pass, mrr]);
  });

  it('recovers with no breaches and no new kinds, the incident as it closed', () => {
    const next = advanceIncidents({
      state: open(failed(pass)),
      collection: 'book',
      environment: 'prod',
      observation: clean,
      run: run('2026-03-02T02:00:00.000Z', 'r2'),
      newId: () => 'unused',
      policy: ONE_CLEAN_RUN,
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

describe('advanceIncidents: a run ERROR pages on its second night in a row, not its first', () => {
  const blip: Breach = { kind: 'RUN_ERROR', severity: 'MEDIUM', summary: 'run ERROR: Qdrant timed out' };
  const down: Observation = { quality: null, infrastructure: [blip], suite: null };
  /** Runs `[observation, hours after 2026-03-01T02:00Z]` in order; each run's notices as "kind severity". */
  function at(runs: [Observation, number][], policy: IncidentPolicy = ONE_CLEAN_RUN) {
    let state: IncidentState | null = null;
    return runs.map(([observation, hours], i) => {
      const started = new Date(Date.UTC(2026, 2, 1, 2) + hours * 3_600_000).toISOString();
      const next = advanceIncidents({
        state,
        collection: 'book',
        environment: 'prod',
        observation,
        run: { run_id: `run-${i}`, started_at: started, report: `s3://b/${i}.json` },
        newId: () => `incident-${i}`,
        ...(policy ? { policy } : {}),
      });
      state = next.state;
      return next.notices.map((x) => `${x.kind} ${x.incident.severity}`).join(', ');
    });
  }

  it('opens at MEDIUM, and escalates to CRITICAL on the next night when the run ERRORs again', () => {
    expect(
      at([
        [down, 0],
        [down, 24],
        [down, 48],
      ]),
    ).toEqual(['onset MEDIUM', 'escalation CRITICAL', '']);
  });

  it('does not page for a retry within the same night, and pages once the ERROR has lasted 12 hours', () => {
    expect(
      at([
        [down, 0],
        [down, 1],
        [down, 11.99],
      ]),
    ).toEqual(['onset MEDIUM', '', '']);
    expect(
      at([
        [down, 0],
        [down, 12],
      ]),
    ).toEqual(['onset MEDIUM', 'escalation CRITICAL']);
  });

  it('does not page for two ERROR nights with a clean one between (the incident closed, re-opens at MEDIUM)', () => {
    expect(
      at([
        [down, 0],
        [clean, 24],
        [down, 48],
      ]),
    ).toEqual(['onset MEDIUM', 'recovery MEDIUM', 'reopened MEDIUM']);
  });

  it('counts a clean run that did not close the incident as breaking the streak', () => {
    const policy = { recoveryRuns: 2, reminderDays: null };
    expect(
      at(
        [
          [down, 0],
          [clean, 24],
          [down, 48],
          [down, 72],
        ],
        policy,
      ),
    ).toEqual(['onset MEDIUM', '', '', 'escalation CRITICAL']);
  });

  it('leaves other infrastructure breaches and other tracks at their own severity', () => {
    const unstored: Breach = { kind: 'REPORT_NOT_STORED', severity: 'HIGH', summary: 'not stored' };
    const both: Observation = { quality: null, infrastructure: [blip, unstored], suite: null };
    expect(
      at([
        [both, 0],
        [both, 24],
      ]),
    ).toEqual(['onset HIGH', 'escalation CRITICAL']);
    const medium = { ...pass, kind: 'RUN_ERROR', severity: 'MEDIUM' as const };
    expect(
      at([
        [failed(medium), 0],
        [failed(medium), 24],
      ]),
    ).toEqual(['onset MEDIUM', '']);
  });
});

describe('advanceIncidents: an incident back within days re-opens (flapping), it does not start anew', () => {
  /** Runs `[observation, days after 2026-03-01T02:00Z]` in order; each run's notices as "kind id". */
  function days(runs: [Observation, number][], policy: IncidentPolicy = ONE_CLEAN_RUN) {
    let state: IncidentState | null = null;
    let n = 0;
    const seen = runs.map(([observation, day], i) => {
      const started = new Date(Date.UTC(2026, 2, 1, 2) + day * 86_400_000).toISOString();
      const next = advanceIncidents({
        state,
        collection: 'book',
        environment: 'prod',
        observation,
        run: { run_id: `run-${i}`, started_at: started, report: `s3://b/${i}.json` },
        newId: () => `incident-${++n}`,
        ...(policy ? { policy } : {}),
      });
      state = next.state;
      return next.notices.map((x) => `${x.kind} ${x.incident.id}`).join(', ');
    });
    return { seen, state: state as IncidentState | null };
  }

  it('re-opens the same incident when the track breaks again within 3 days of its recovery', () => {
    const { seen, state } = days([
      [failed(pass), 0],
      [clean, 1],
      [failed(pass), 2],
    ]);
    expect(seen).toEqual(['onset incident-1', 'recovery incident-1', 'reopened incident-1']);
    expect(state?.open.quality).toMatchObject({ id: 'incident-1', reopened: 1, runs: 2, clean_runs: 0 });
    expect(state?.open.quality?.opened.run_id).toBe('run-0');
    expect(state?.closed?.quality).toBeNull();
  });

  it('re-opens at exactly 3 days after the recovery, and opens a new incident a moment later', () => {
    expect(
      days([
        [failed(pass), 0],
        [clean, 1],
        [failed(pass), 4],
      ]).seen[2],
    ).toBe('reopened incident-1');
    expect(
      days([
        [failed(pass), 0],
        [clean, 1],
        [failed(pass), 4.0001],
      ]).seen[2],
    ).toBe('onset incident-2');
  });

  it('counts each return, adds the new kinds beside the one that came back, at this run’s severity', () => {
    const { seen, state } = days([
      [failed(mrr), 0],
      [clean, 1],
      [failed(mrr, pass), 2],
      [clean, 3],
      [failed(mrr), 4],
    ]);
    expect(seen).toEqual([
      'onset incident-1',
      'recovery incident-1',
      'reopened incident-1',
      'recovery incident-1',
      'reopened incident-1',
    ]);
    // Its severity is this run's (MEDIUM), not the HIGH of the return before.
    expect(state?.open.quality).toMatchObject({ reopened: 2, severity: 'MEDIUM' });
    expect(state?.open.quality?.breaches.map((b) => b.kind)).toEqual(['METRIC_DROPPED:mrr', 'criterion:pass_rate']);
  });

  it('keeps each track’s closed incident apart', () => {
    expect(
      days([
        [failed(pass), 0],
        [clean, 1],
        [errored, 2],
      ]).seen,
    ).toEqual(['onset incident-1', 'recovery incident-1', 'onset incident-2']);
  });

  it('sends 2 emails for a fault flapping on alternate nights 4 times under 2 clean runs to recover', () => {
    const policy = { recoveryRuns: 2, reminderDays: null };
    const flap: [Observation, number][] = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((d) => [
      d % 2 === 0 && d < 8 ? failed(pass) : clean,
      d,
    ]);
    const sent = days(flap, policy).seen.filter((x) => x !== '');
    expect(sent).toEqual(['onset incident-1', 'recovery incident-1']);
    // Under 1 clean run to recover, the same nights send one email each, re-opening the same incident.
    const one = days(flap).seen.filter((x) => x !== '');
    expect(one).toEqual([
      'onset incident-1',
      'recovery incident-1',
      'reopened incident-1',
      'recovery incident-1',
      'reopened incident-1',
      'recovery incident-1',
      'reopened incident-1',
      'recovery incident-1',
    ]);
  });
});

describe('advanceIncidents: re-opening needs the same breach back', () => {
  it('opens a new incident when the track breaks within the window on kinds the closed one never had', () => {
    let state: IncidentState | null = null;
    const seen = [failed(mrr), clean, failed(pass), clean, failed(pass, mrr)].map((observation, i) => {
      const next = advanceIncidents({
        state,
        collection: 'book',
        environment: 'prod',
        observation,
        run: { run_id: `run-${i}`, started_at: new Date(Date.UTC(2026, 2, 1 + i, 2)).toISOString(), report: 'x' },
        newId: () => `incident-${i}`,
        policy: ONE_CLEAN_RUN,
      });
      state = next.state;
      return next.notices.map((x) => `${x.kind} ${x.incident.id}`).join(', ');
    });
    expect(seen).toEqual([
      'onset incident-0',
      'recovery incident-0',
      'onset incident-2',
      'recovery incident-2',
      'reopened incident-2',
    ]);
  });
});

describe('advanceIncidents: mutation survivors (notices exact, lost state, persisting errors)', () => {
  const run = (started_at: string, id = 'r') => ({ run_id: id, started_at, report: `s3://b/${id}.json` });
  const step = (state: IncidentState | null, observation: Observation, started_at: string, extra = {}) =>
    advanceIncidents({
      state,
      collection: 'book',
      environment: 'prod',
      observation,
      run: run(started_at, started_at),
      newId: () => `i-${started_at}`,
      policy: ONE_CLEAN_RUN,
      ...extra,
    });

  it('names every breach of an onset as news, and a re-opening only what the closed incident had not had', () => {
    const onset = step(null, failed(pass), '2026-03-01T02:00:00.000Z');
    expect(onset.notices[0]?.newKinds).toEqual(['criterion:pass_rate']);
    const recovered = step(onset.state, clean, '2026-03-02T02:00:00.000Z');
    const back = step(recovered.state, failed(pass, mrr), '2026-03-03T02:00:00.000Z');
    expect(back.notices.map((x) => [x.kind, x.newKinds])).toEqual([['reopened', ['METRIC_DROPPED:mrr']]]);
  });

  it('escalates an open incident rather than re-opening the closed one it also holds, for a kind both had', () => {
    // Incident 1 (pass rate) closed; within 3 days incident 2 opens on MRR; then pass rate breaks beside it.
    expect(replay([failed(pass), clean, failed(mrr), failed(mrr, pass)])).toEqual([
      ['quality:onset'],
      ['quality:recovery'],
      ['quality:onset'],
      ['quality:escalation'],
    ]);
  });

  it('does not re-open an incident that closed after this run started (an older run finishing late)', () => {
    const onset = step(null, failed(pass), '2026-03-01T02:00:00.000Z');
    const recovered = step(onset.state, clean, '2026-03-03T02:00:00.000Z');
    const older = step(recovered.state, failed(pass), '2026-03-02T02:00:00.000Z');
    expect(older.notices.map((x) => x.kind)).toEqual(['onset']);
  });

  it('advances an open incident as usual even when told a lost one (lost counts only where nothing is open)', () => {
    const onset = step(null, failed(pass), '2026-03-01T02:00:00.000Z');
    const lostIncident = onset.state.open.quality;
    const next = step(onset.state, clean, '2026-03-02T02:00:00.000Z', { lost: { quality: lostIncident } });
    expect(next.notices).toEqual([
      expect.objectContaining({ kind: 'recovery', breaches: [], newKinds: [], incident: expect.anything() }),
    ]);
    expect(next.notices[0]?.stateLost).toBeUndefined();
    // With nothing open, the lost incident's recovery: exactly this notice.
    const lost = step(null, clean, '2026-03-02T02:00:00.000Z', { lost: { quality: lostIncident } });
    expect(lost.notices).toEqual([
      { kind: 'recovery', track: 'quality', incident: lostIncident, breaches: [], newKinds: [], stateLost: true },
    ]);
  });

  it('makes only RUN_ERROR CRITICAL on the second ERROR night, and leaves one already CRITICAL as it is', () => {
    const notStored: Breach = {
      kind: 'REPORT_NOT_STORED',
      severity: 'HIGH',
      summary: 'the report could not be stored',
    };
    const medium: Breach = { ...error, severity: 'MEDIUM' };
    const first = step(
      null,
      { quality: null, infrastructure: [medium, notStored], suite: null },
      '2026-03-01T02:00:00.000Z',
    );
    const second = step(
      first.state,
      { quality: null, infrastructure: [medium, notStored], suite: null },
      '2026-03-02T02:00:00.000Z',
    );
    expect(second.notices[0]?.breaches).toEqual([
      {
        ...medium,
        severity: 'CRITICAL',
        summary: 'run ERROR: Qdrant down (run ERROR again: broken since 2026-03-01T02:00:00.000Z)',
      },
      notStored,
    ]);
    const critical = step(
      first.state,
      { quality: null, infrastructure: [error], suite: null },
      '2026-03-02T02:00:00.000Z',
    );
    expect(critical.notices[0]?.breaches).toEqual([error]);
  });
});

describe('advanceIncidents: a lesser fault inside a more severe one (inhibited, then told)', () => {
  it('tells a lesser new kind once no kind ops were told of breaks any more, and only once', () => {
    // Pass rate (HIGH) told; MRR (MEDIUM) joins it silently; pass rate is fixed and MRR still breaks: told then.
    expect(replay([failed(pass), failed(pass, mrr), failed(mrr), failed(mrr), clean])).toEqual([
      ['quality:onset'],
      [],
      ['quality:escalation'],
      [],
      ['quality:recovery'],
    ]);
    // The HIGH fault replaced by a MEDIUM one on the same night: told that night.
    expect(replay([failed(pass), failed(mrr)])).toEqual([['quality:onset'], ['quality:escalation']]);
  });

  it('keeps the inhibited kind in the incident, names it as the news, and forgets it once told', () => {
    const run = (i: number) => ({ run_id: `r${i}`, started_at: `2026-03-0${i}T02:00:00.000Z`, report: `s3://b/${i}` });
    const step = (state: IncidentState | null, observation: Observation, i: number) =>
      advanceIncidents({ state, collection: 'book', environment: 'prod', observation, run: run(i), newId: () => 'i1' });
    const first = step(null, failed(pass), 1);
    const second = step(first.state, failed(pass, mrr), 2);
    expect(second.notices).toEqual([]);
    expect(second.state.open.quality).toMatchObject({ breaches: [pass, mrr], untold: ['METRIC_DROPPED:mrr'] });
    const third = step(second.state, failed(mrr), 3);
    expect(third.notices).toEqual([
      expect.objectContaining({ kind: 'escalation', breaches: [mrr], newKinds: ['METRIC_DROPPED:mrr'] }),
    ]);
    expect(third.state.open.quality).toMatchObject({ severity: 'HIGH', breaches: [pass, mrr] });
    expect(third.state.open.quality).not.toHaveProperty('untold');
    // Told now: pass rate back beside it is no news.
    expect(step(third.state, failed(pass, mrr), 4).notices).toEqual([]);
  });

  it('tells an inhibited kind at once when it comes back at the incident’s severity or above', () => {
    const mrrHigh: Breach = { ...mrr, severity: 'HIGH' };
    expect(replay([failed(pass), failed(pass, mrr), failed(pass, mrrHigh), failed(pass, mrrHigh)])).toEqual([
      ['quality:onset'],
      [],
      ['quality:escalation'],
      [],
    ]);
  });
});
