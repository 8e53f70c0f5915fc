import { describe, expect, it } from 'vitest';
import type { NightRecord } from '../../sandbox/replay/replay.ts';
import { parseScenario, type Scenario } from '../../sandbox/replay/scenario.ts';
import { tallyReplay, targetMisses } from '../../sandbox/replay/tally.ts';

const scenario: Scenario = parseScenario(
  {
    nights: 6,
    start_date: '2026-03-01',
    noise: { latency_jitter_ms: [0, 0], reindexed_chunks: 0, seed: 1 },
    faults: [{ id: 'a', kind: 'module-dropped', target: 'module-4-vla', from: 2, nights: 2 }],
  },
  'test scenario',
);
const email = (kind: string, track = 'quality', body = 'pass rate 50% < 90%') => ({
  kind,
  track,
  severity: 'HIGH',
  subject: `${kind} ${track}`,
  body,
});
const nights = (emails: Record<number, ReturnType<typeof email>[]>): NightRecord[] =>
  Array.from({ length: 6 }, (_, i) => ({
    night: i + 1,
    date: `2026-03-0${i + 1}`,
    faults: [],
    status: 'PASSED',
    emails: emails[i + 1] ?? [],
    findings: [],
    queries: [],
    latency: null,
  }));

describe('tallyReplay', () => {
  it('meets the target when the fault is told once on its first night and its end once on its second clean night', () => {
    const summary = tallyReplay(scenario, nights({ 2: [email('onset')], 5: [email('recovery')] }));
    expect(summary).toEqual({
      faults: 1,
      detected_first_night: 1,
      recoveries: 1,
      false_alerts: 0,
      duplicate_alerts: 0,
      per_fault: [
        {
          id: 'a',
          kind: 'module-dropped',
          detected_on: 1,
          resolved_while_active: 0,
          recovered: true,
          emails: 1,
          pages: 2,
          paged_on: 1,
          quiet: false,
          reported: false,
          page_within: null,
          ended: true,
        },
      ],
      emails: { 'onset HIGH': 1, 'recovery HIGH': 1 },
      clean_nights: 4,
      clean_night_emails: 0,
      clean_night_pages: 0,
    });
    expect(targetMisses(scenario, summary)).toEqual([]);
  });

  it('does not count an onset that names nothing the fault breaks as detecting it', () => {
    const summary = tallyReplay(
      scenario,
      nights({ 2: [email('onset', 'quality', 'SIMILARITY_DROPPED [LOW]')], 5: [email('recovery')] }),
    );
    expect(summary.detected_first_night).toBe(0);
    expect(summary.per_fault[0]?.detected_on).toBeNull();
    expect(targetMisses(scenario, summary)).toEqual(['fault a (module-dropped) not named within 1 night(s) (never)']);
  });

  it('finds the fault named on its second night, and a [RESOLVED] sent while it was still active', () => {
    const summary = tallyReplay(
      scenario,
      nights({ 2: [email('onset', 'quality', 'nothing')], 3: [email('recovery'), email('onset')] }),
    );
    expect(summary.per_fault[0]).toMatchObject({ detected_on: 2, resolved_while_active: 1, recovered: false });
  });

  it('counts the emails on nights with no fault, and the HIGH or CRITICAL among them', () => {
    const low = { ...email('onset'), severity: 'LOW' };
    const summary = tallyReplay(scenario, nights({ 1: [low], 5: [email('onset')], 6: [email('recovery')] }));
    expect(summary).toMatchObject({ clean_nights: 4, clean_night_emails: 3, clean_night_pages: 2 });
  });

  it('counts a re-opened (flapping) incident on the fault’s first night as detected, and a recovery as no detection', () => {
    expect(tallyReplay(scenario, nights({ 2: [email('reopened')], 4: [email('recovery')] })).detected_first_night).toBe(
      1,
    );
    expect(tallyReplay(scenario, nights({ 2: [email('recovery')] })).detected_first_night).toBe(0);
  });

  it('counts an email on a later night of the fault as a duplicate', () => {
    const summary = tallyReplay(scenario, nights({ 2: [email('onset')], 3: [email('onset')], 5: [email('recovery')] }));
    expect(summary.duplicate_alerts).toBe(1);
  });

  it('counts an email on a clean night as a false alert', () => {
    const summary = tallyReplay(scenario, nights({ 2: [email('onset')], 5: [email('recovery')], 6: [email('onset')] }));
    expect(summary.false_alerts).toBe(1);
  });

  it('does not count a fault detected late, or told on another track, as detected on its first night', () => {
    expect(tallyReplay(scenario, nights({ 3: [email('onset')] })).detected_first_night).toBe(0);
    expect(tallyReplay(scenario, nights({ 2: [email('onset', 'suite')] })).detected_first_night).toBe(0);
  });

  it('waits past a night whose run could not complete for a quality recovery', () => {
    const records = nights({ 2: [email('onset')], 6: [email('recovery')] });
    const errorNight = records[3];
    if (errorNight) errorNight.status = 'ERROR';
    expect(tallyReplay(scenario, records)).toMatchObject({ recoveries: 1, false_alerts: 0 });
  });

  it('does not count a recovery that comes a night late, or on the first clean night (a false alert)', () => {
    expect(tallyReplay(scenario, nights({ 2: [email('onset')], 6: [email('recovery')] })).recoveries).toBe(0);
    const early = tallyReplay(scenario, nights({ 2: [email('onset')], 4: [email('recovery')] }));
    expect(early).toMatchObject({ recoveries: 0, false_alerts: 1 });
  });
});

describe('parseScenario', () => {
  it('refuses two faults of one incident track without the two clean nights that recover the first between them', () => {
    const raw = {
      nights: 10,
      start_date: '2026-03-01',
      noise: { latency_jitter_ms: [0, 0], reindexed_chunks: 0, seed: 1 },
      faults: [
        { id: 'a', kind: 'module-dropped', target: 'module-4-vla', from: 2, nights: 2 },
        { id: 'f', kind: 'page-not-indexed', target: '/docs/x', from: 5, nights: 1 },
      ],
    };
    expect(() => parseScenario(raw, 'scenario.json')).toThrow(
      'scenario.json: faults a and f (quality) must be separated by 2 clean night(s)',
    );
    const spaced = { ...raw, faults: [raw.faults[0], { ...raw.faults[1], from: 6 }] };
    expect(parseScenario(spaced, 'scenario.json').faults).toHaveLength(2);
    // A scenario that does not count recoveries (flapping) needs one clean night between them.
    const flapping = { ...raw, faults: [raw.faults[0], { ...raw.faults[1], from: 5 }], target: { recover: false } };
    expect(parseScenario(flapping, 'scenario.json').faults).toHaveLength(2);
    const touching = { ...flapping, faults: [raw.faults[0], { ...raw.faults[1], from: 4 }] };
    expect(() => parseScenario(touching, 'scenario.json')).toThrow('must be separated by 1 clean night(s)');
  });

  it('names a fault that lacks the target it needs, or runs past the last night', () => {
    const raw = {
      nights: 3,
      start_date: '2026-03-01',
      noise: { latency_jitter_ms: [0, 0], reindexed_chunks: 0, seed: 1 },
      faults: [{ id: 'h', kind: 'page-renamed', target: '/docs/x', from: 2, nights: 3 }],
    };
    expect(() => parseScenario(raw, 's.json')).toThrow('s.json: fault h ends after night 3; fault h: to is required');
  });
});

describe('tallyReplay: a fault told on its second night', () => {
  it('counts the onset that told it as no duplicate, and any later email during it as one', () => {
    const s = parseScenario(
      {
        nights: 6,
        start_date: '2026-03-01',
        noise: { latency_jitter_ms: [0, 0], reindexed_chunks: 0, seed: 1 },
        faults: [{ id: 'a', kind: 'module-dropped', target: 'module-4-vla', from: 2, nights: 3 }],
      },
      'late',
    );
    const late = nights({ 3: [email('onset')], 6: [email('recovery')] });
    expect(tallyReplay(s, late)).toMatchObject({ detected_first_night: 0, duplicate_alerts: 0, recoveries: 1 });
    const repeated = nights({ 3: [email('onset')], 4: [email('escalation')], 6: [email('recovery')] });
    expect(tallyReplay(s, repeated).duplicate_alerts).toBe(1);
  });
});

describe('tallyReplay: blips and outages (issue 21 §3)', () => {
  const blips = parseScenario(
    {
      nights: 9,
      start_date: '2026-03-01',
      noise: { latency_jitter_ms: [0, 0], reindexed_chunks: 0, seed: 1 },
      faults: [
        { id: 'blip', kind: 'qdrant-timeout', operation: 'facet', quiet: true, from: 2, nights: 1 },
        { id: 'down', kind: 'qdrant-down', page_within: 2, from: 5, nights: 2 },
      ],
      target: { max_duplicates: 1 },
    },
    'blips',
  );
  const at = (severity: string, kind: string) => ({ ...email(kind, 'infrastructure', 'run ERROR'), severity });
  const records = (emails: Record<number, ReturnType<typeof email>[]>): NightRecord[] =>
    Array.from({ length: 9 }, (_, i) => ({
      night: i + 1,
      date: `2026-03-0${i + 1}`,
      faults: [],
      status: 'PASSED',
      emails: emails[i + 1] ?? [],
      findings: [],
      queries: [],
      latency: null,
    }));

  it('meets the target when a blip is silent (no recovery owed) and the outage pages on its second night', () => {
    const summary = tallyReplay(
      blips,
      records({ 5: [at('MEDIUM', 'onset')], 6: [at('CRITICAL', 'escalation')], 8: [at('CRITICAL', 'recovery')] }),
    );
    expect(summary.per_fault.map((f) => [f.id, f.pages, f.paged_on, f.recovered])).toEqual([
      ['blip', 0, null, false],
      ['down', 2, 2, true],
    ]);
    expect(targetMisses(blips, summary)).toEqual([]);
  });

  it('owes a told blip its recovery, and lets it be MEDIUM, never HIGH or CRITICAL (its recovery night included)', () => {
    const outage = { 5: [at('MEDIUM', 'onset')], 6: [at('CRITICAL', 'escalation')], 8: [at('CRITICAL', 'recovery')] };
    const told = records({ 2: [at('MEDIUM', 'onset')], 4: [at('MEDIUM', 'recovery')], ...outage });
    expect(targetMisses(blips, tallyReplay(blips, told))).toEqual([]);
    const unrecovered = records({ 2: [at('MEDIUM', 'onset')], ...outage });
    expect(targetMisses(blips, tallyReplay(blips, unrecovered))).toEqual(['1 fault(s) without their recovery']);
    const paged = records({ 2: [at('MEDIUM', 'onset')], 4: [at('HIGH', 'recovery')], ...outage });
    expect(targetMisses(blips, tallyReplay(blips, paged))).toEqual(['fault blip (a blip): 1 HIGH/CRITICAL email(s)']);
  });

  it('misses the target when the outage never pages, or pages only on a later night', () => {
    const never = records({ 5: [at('MEDIUM', 'onset')], 8: [at('MEDIUM', 'recovery')] });
    expect(targetMisses(blips, tallyReplay(blips, never))).toEqual([
      'fault down (qdrant-down) did not page within 2 night(s) (never)',
    ]);
    const first = records({ 5: [at('CRITICAL', 'onset')], 8: [at('CRITICAL', 'recovery')] });
    expect(tallyReplay(blips, first).per_fault[1]?.paged_on).toBe(1);
    expect(targetMisses(blips, tallyReplay(blips, first))).toEqual([]);
  });
});

describe('tallyReplay: a fault named by its reported findings (slowed searches)', () => {
  const slow = parseScenario(
    {
      nights: 6,
      start_date: '2026-03-01',
      noise: { latency_jitter_ms: [0, 0], reindexed_chunks: 0, seed: 1 },
      faults: [{ id: 'slow', kind: 'search-slow', delay_ms: 3000, quiet: true, from: 2, nights: 2 }],
    },
    'slow',
  );
  const records = (findings: Record<number, string[]>): NightRecord[] =>
    Array.from({ length: 6 }, (_, i) => ({
      night: i + 1,
      date: `2026-03-0${i + 1}`,
      faults: [],
      status: 'PASSED',
      emails: [],
      findings: findings[i + 1] ?? [],
      queries: [],
      latency: null,
    }));

  it('counts it named on the first night whose stored report holds a latency METRIC_DROPPED, with no email owed', () => {
    const summary = tallyReplay(slow, records({ 2: ['SIMILARITY_DROPPED', 'METRIC_DROPPED:p95_latency_ms'] }));
    expect(summary.detected_first_night).toBe(1);
    expect(summary.per_fault[0]).toMatchObject({ detected_on: 1, reported: true, emails: 0, recovered: false });
    expect(targetMisses(slow, summary)).toEqual([]);
  });

  it('misses the target when no report of its nights names it, or only its second night does, though it is quiet', () => {
    const none = tallyReplay(slow, records({ 2: ['METRIC_DROPPED:mrr'], 3: ['SIMILARITY_DROPPED'] }));
    expect(targetMisses(slow, none)).toEqual(['fault slow (search-slow) not named within 1 night(s) (never)']);
    const late = tallyReplay(slow, records({ 3: ['METRIC_DROPPED:p99_latency_ms'] }));
    expect(late.detected_first_night).toBe(0);
    expect(targetMisses(slow, late)).toEqual(['fault slow (search-slow) not named within 1 night(s) (2)']);
  });

  it('requires the delay it adds', () => {
    expect(() =>
      parseScenario({ ...slow, faults: [{ id: 'slow', kind: 'search-slow', from: 2, nights: 2 }] }, 'no delay'),
    ).toThrow('no delay: fault slow: delay_ms is required');
  });
});
