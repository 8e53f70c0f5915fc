/** buildIncidentMessage on hand-built notices: each kind and track, and the facts each email must carry. */
import { describe, expect, it } from 'vitest';
import type { Notice } from '../../../functions/core/incident/advance-incidents.ts';
import { buildIncidentMessage } from '../../../functions/core/incident/incident-message.ts';
import type { Breach, Incident } from '../../../functions/core/report/incident-state.ts';
import { finding } from '../../../functions/core/report/regression-report.ts';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import { buildErrorReport, buildPassedReport, buildRegression } from '../../nightly/fixtures/reports.ts';

const stored = { stored: true as const, bucket: 'reports', key: 'reports/book/now.json', region: 'eu-west-1' };
const CONSOLE = 'https://eu-west-1.console.aws.amazon.com/s3/object/reports?region=eu-west-1&bucketType=general';
const pass: Breach = { kind: 'criterion:pass_rate', severity: 'HIGH', summary: 'pass rate 80% < 90%' };
const mrr: Breach = { kind: 'METRIC_DROPPED:mrr', severity: 'CRITICAL', summary: 'MRR fell to 0.4' };
const stale: Breach = { kind: 'SUITE_STALE', severity: 'LOW', summary: 'q1 expects a page the book lost' };

function incident(fields: Partial<Incident> = {}): Incident {
  return {
    id: 'i1',
    track: 'quality',
    opened: { run_id: 'r0', started_at: '2026-03-10T02:00:00.000Z', report: 's3://reports/reports/book/r0.json' },
    last_seen: { run_id: 'r3', started_at: '2026-03-13T02:00:00.000Z', report: 's3://reports/reports/book/r3.json' },
    severity: 'HIGH',
    breaches: [pass],
    last_notified_at: '2026-03-10T02:00:00.000Z',
    clean_runs: 0,
    runs: 4,
    ...fields,
  };
}

function notice(fields: Partial<Notice> & Pick<Notice, 'kind'>): Notice {
  return { track: 'quality', incident: incident(), breaches: [pass], newKinds: [], ...fields };
}

function message(n: Notice, report: ValidationReport = buildPassedReport(), extra: object = {}) {
  return buildIncidentMessage(n, report, { placement: stored, region: 'eu-west-1', reminderDays: null, ...extra });
}

const lines = (n: Notice, report?: ValidationReport, extra?: object) => message(n, report, extra).body.split('\n');

describe('buildIncidentMessage, onset', () => {
  it('names each breach in the subject in words: a criterion by its figures, a regression by its message', () => {
    const m = message(notice({ kind: 'onset', breaches: [pass, mrr], incident: incident({ severity: 'CRITICAL' }) }));
    expect(m).toMatchObject({ kind: 'onset', severity: 'CRITICAL' });
    expect(m.subject).toBe('[CRITICAL] RagWatch prod/book: pass rate 80% < 90%, MRR fell to 0.4');
  });

  it('names a breach once when two kinds read the same', () => {
    const twin: Breach = { kind: 'METRIC_DROPPED:pass_rate', severity: 'HIGH', summary: pass.summary };
    const m = message(notice({ kind: 'onset', breaches: [pass, twin] }));
    expect(m.subject).toBe('[HIGH] RagWatch prod/book: pass rate 80% < 90%');
    expect(m.body.split('\n')[0]).toBe('Retrieval on "book" (prod) got worse: pass rate 80% < 90%.');
  });

  it('opens with the breaches, at most three, and counts the rest', () => {
    const many = ['a', 'b', 'c', 'd', 'e'].map((k) => ({ kind: k, severity: 'LOW' as const, summary: `${k} broke` }));
    expect(lines(notice({ kind: 'onset', breaches: many }))[0]).toBe(
      'Retrieval on "book" (prod) got worse: a broke, b broke, c broke, and 2 more.',
    );
    expect(lines(notice({ kind: 'onset', breaches: many.slice(0, 3) }))[0]).toBe(
      'Retrieval on "book" (prod) got worse: a broke, b broke, c broke.',
    );
  });

  it('lists what changed with each severity, at most twenty breaches', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({
      kind: `k${i}`,
      severity: 'MEDIUM' as const,
      summary: `s${i}`,
    }));
    const body = lines(notice({ kind: 'onset', breaches: many }));
    const at = body.indexOf('WHAT IS BROKEN');
    expect(body.slice(at + 1, at + 3)).toEqual(['- s0 [MEDIUM]', '- s1 [MEDIUM]']);
    expect(body.filter((l) => /^- s\d+ \[MEDIUM\]$/.test(l))).toHaveLength(20);
  });

  it('gives the incident’s start, its run count and this run, and what emails come next', () => {
    const report = buildPassedReport();
    const body = lines(notice({ kind: 'onset' }), report);
    expect(body.slice(2, 4)).toEqual([
      `Severity: HIGH; open since 2026-03-10T02:00:00.000Z (4 run(s)); this run ${report.timestamp} (run ${report.run_id}), PASSED`,
      '',
    ]);
    const next = body.indexOf(
      'No more email while this lasts, unless it gets worse (a new kind of breach or a higher severity); one email will say when it is over.',
    );
    // The last line, after a blank one: what comes next closes the email.
    expect([body[next - 1], next]).toEqual(['', body.length - 1]);
  });

  it('links this run’s report in S3 in the one links block, and only this run’s', () => {
    const body = lines(notice({ kind: 'onset' }));
    const at = body.indexOf('LINKS');
    expect(body.slice(at, at + 5)).toEqual([
      'LINKS',
      '- Report JSON: s3://reports/reports/book/now.json',
      '',
      'WHAT IS BROKEN',
      '- pass rate 80% < 90% [HIGH]',
    ]);
    expect(body.join('\n')).not.toContain('When it began');
    expect(body.join('\n')).not.toContain('REPORTS');
  });

  it('says where the report went when it could not be stored', () => {
    const placement = { stored: false as const, reason: 'access denied', fallback: 'the function’s log' };
    const report = buildPassedReport();
    const body = lines(notice({ kind: 'onset', track: 'infrastructure' }), report, { placement });
    expect(body).toContain('- Report NOT STORED in S3 (access denied); the full report is in the function’s log');
    expect(body[1]).toBe('Cause: S3 would not take the report (access denied); its only copy is in the function’s log');
  });

  it('lists the links given, once, after the run’s facts', () => {
    const links = { dashboard: 'https://console/dash', logs: 'https://console/logs' };
    const body = lines(notice({ kind: 'onset' }), buildPassedReport(), { links });
    expect(body.slice(4, 9)).toEqual([
      'LINKS',
      '- Dashboard: https://console/dash',
      "- This run's log lines (CloudWatch Logs Insights): https://console/logs",
      '- Report JSON: s3://reports/reports/book/now.json',
      '',
    ]);
    expect(body.filter((l) => l === 'LINKS')).toHaveLength(1);
  });

  it('lists the quality track’s regressions against the baseline, with the baseline’s span, and no suite rot', () => {
    const report = buildPassedReport();
    report.regression = buildRegression({
      baseline_runs: [
        { run_id: 'b1', status: 'PASSED', started_at: '2026-03-09T02:00:00Z', location: 's3://b/1' },
        { run_id: 'b2', status: 'PASSED', started_at: '2026-03-08T02:00:00Z', location: 's3://b/2' },
      ],
      findings: [
        finding({ kind: 'QUERY_REGRESSED', severity: 'MEDIUM', message: 'q2 fails now' }),
        finding({ kind: 'SUITE_STALE', severity: 'LOW', message: 'q1 is stale' }),
      ],
    });
    const quality = lines(notice({ kind: 'onset' }), report);
    const at = quality.indexOf('REGRESSIONS AGAINST THE BASELINE (1)');
    expect(quality.slice(at + 1, at + 3)).toEqual([
      '- QUERY_REGRESSED [MEDIUM]: q2 fails now',
      'Baseline: 2 runs, 2026-03-08T02:00:00Z to 2026-03-09T02:00:00Z',
    ]);
    const suite = lines(notice({ kind: 'onset', track: 'suite', breaches: [stale] }), report);
    expect(suite).toContain('REGRESSIONS AGAINST THE BASELINE (1)');
    expect(suite).toContain('- SUITE_STALE [LOW]: q1 is stale');
    expect(suite).not.toContain('- QUERY_REGRESSED [MEDIUM]: q2 fails now');
    expect(lines(notice({ kind: 'onset', track: 'infrastructure' }), report).join('\n')).not.toContain('REGRESSIONS');
  });

  it('addresses golden-suite rot to the suite’s maintainer', () => {
    const m = message(
      notice({ kind: 'onset', track: 'suite', breaches: [stale], incident: incident({ severity: 'LOW' }) }),
    );
    expect(m.subject).toBe(
      '[LOW] RagWatch prod/book: suite stale, for its maintainer: q1 expects a page the book lost',
    );
    expect(m.body.split('\n').slice(0, 2)).toEqual([
      'The golden suite of "book" (prod) expects pages the book no longer has: q1 expects a page the book lost.',
      'For the suite’s maintainer: the golden suite expects pages the book no longer has. Retrieval is not at fault.',
    ]);
  });

  it('says “report NOT stored” for a run that could not store its report, and drops the run’s look at the night before', () => {
    const placement = { stored: false as const, reason: 'access denied', fallback: 'the log' };
    const previous = { runId: 'r-1', status: 'PASSED', startedAt: '2026-03-09T02:00:00Z' };
    const notStored: Breach = {
      kind: 'REPORT_NOT_STORED',
      severity: 'HIGH',
      summary: 'the report could not be stored',
    };
    const m = message(notice({ kind: 'onset', track: 'infrastructure', breaches: [notStored] }), buildPassedReport(), {
      placement,
      previous,
    });
    expect(m.subject).toBe('[HIGH] RagWatch prod/book: report NOT stored');
    expect(m.body.split('\n')[0]).toBe('The nightly run of "book" (prod) could not store its report.');
    expect(m.body).not.toContain('Previous run:');
  });

  it('gives a quality incident on a run that passed its criteria the run’s figures, and no failing queries', () => {
    const m = message(notice({ kind: 'onset' }));
    expect(m.subject).toBe('[HIGH] RagWatch prod/book: pass rate 80% < 90%');
    expect(m.body).toContain('\nSUMMARY\n- Status: PASSED (every success criterion holds)');
    expect(m.body).not.toContain('FAILING QUERIES');
  });
});

describe('buildIncidentMessage, escalation and reminder', () => {
  it('names the new kinds in the subject and marks them NEW in the list', () => {
    const n = notice({
      kind: 'escalation',
      breaches: [pass, mrr],
      newKinds: ['METRIC_DROPPED:mrr'],
      incident: incident({ severity: 'CRITICAL' }),
    });
    const m = message(n);
    expect(m.subject).toBe('[CRITICAL] ESCALATED RagWatch prod/book: quality regressed: MRR fell to 0.4');
    const body = m.body.split('\n');
    expect(body[0]).toBe('Worse: the quality incident on "book" (prod) now also has MRR fell to 0.4; CRITICAL now.');
    const at = body.indexOf('WHAT CHANGED (new or worse since the last email)');
    expect(body.slice(at + 1, at + 3)).toEqual(['- pass rate 80% < 90% [HIGH]', '- NEW MRR fell to 0.4 [CRITICAL]']);
  });

  it('lists several new kinds in words, a criterion by its figures', () => {
    const n = notice({
      kind: 'escalation',
      breaches: [pass, mrr, { ...mrr, kind: 'SCORE_DRIFT', summary: 'scores drifted' }],
      newKinds: ['criterion:pass_rate', 'METRIC_DROPPED:mrr'],
    });
    const m = message(n);
    expect(m.subject).toBe(
      '[HIGH] ESCALATED RagWatch prod/book: quality regressed: pass rate 80% < 90%, MRR fell to 0.4',
    );
    expect(m.body.split('\n')[0]).toBe(
      'Worse: the quality incident on "book" (prod) now also has pass rate 80% < 90%, MRR fell to 0.4; HIGH now.',
    );
  });

  it('says what it was opened for no longer breaks when every breach is new (a lesser fault that outlived it)', () => {
    const lesser = { ...mrr, severity: 'MEDIUM' as const };
    const n = notice({ kind: 'escalation', breaches: [lesser], newKinds: ['METRIC_DROPPED:mrr'] });
    expect(message(n).body.split('\n')[0]).toBe(
      'Changed: what the quality incident on "book" (prod) was opened for no longer breaks, but it now has MRR fell to 0.4 (MEDIUM).',
    );
    // One kind told before still breaking beside it: the first fault is still there.
    const both = notice({ kind: 'escalation', breaches: [pass, lesser], newKinds: ['METRIC_DROPPED:mrr'] });
    expect(message(both).body.split('\n')[0]).toBe(
      'Worse: the quality incident on "book" (prod) now also has MRR fell to 0.4; HIGH now.',
    );
  });

  it('says the severity rose when no kind is new', () => {
    const m = message(notice({ kind: 'escalation', incident: incident({ severity: 'CRITICAL' }) }));
    expect(m.subject).toBe('[CRITICAL] ESCALATED RagWatch prod/book: quality regressed: pass rate 80% < 90%');
    expect(m.body.split('\n')[0]).toBe('Worse: the quality incident on "book" (prod) is CRITICAL now, after 4 runs.');
  });

  it('links where the incident began beside this run', () => {
    const body = lines(notice({ kind: 'escalation', newKinds: ['criterion:pass_rate'] }));
    const at = body.indexOf('- Report JSON: s3://reports/reports/book/now.json');
    expect(body.slice(at, at + 3)).toEqual([
      '- Report JSON: s3://reports/reports/book/now.json',
      `- When it began (2026-03-10T02:00:00.000Z): ${CONSOLE}&prefix=reports%2Fbook%2Fr0.json`,
      '',
    ]);
  });

  it('names the start of an incident whose first report was not stored by its run id', () => {
    const opened = { run_id: 'r0', started_at: '2026-03-10T02:00:00.000Z', report: 'not stored' };
    expect(lines(notice({ kind: 'reminder', incident: incident({ opened }) }))).toContain(
      '- When it began: not stored (run r0)',
    );
  });

  it('reminds with the incident’s start date and the reminder period', () => {
    const m = message(notice({ kind: 'reminder' }), buildPassedReport(), { reminderDays: 3 });
    expect(m.subject).toBe(
      '[HIGH] STILL OPEN RagWatch prod/book: quality regressed since 2026-03-10: pass rate 80% < 90%',
    );
    const body = m.body.split('\n');
    expect(body[0]).toBe(
      'Still open since 2026-03-10 (4 runs): the quality incident on "book" (prod): pass rate 80% < 90%.',
    );
    expect(body).toContain('WHAT IS BROKEN');
    expect(body).toContain(
      'No more email while this lasts, unless it gets worse (a new kind of breach or a higher severity), and a reminder every 3 day(s) while it is HIGH or worse; one email will say when it is over.',
    );
  });

  it('promises no reminder for an incident under the reminders’ minimum severity', () => {
    const body = (severity: Incident['severity'], reminderMinSeverity?: Incident['severity']) =>
      message(notice({ kind: 'onset', incident: incident({ severity }) }), buildPassedReport(), {
        reminderDays: 1,
        ...(reminderMinSeverity ? { reminderMinSeverity } : {}),
      }).body;
    expect(body('MEDIUM')).toContain('higher severity); one email will say when it is over.');
    expect(body('HIGH')).toContain('a reminder every 1 day(s) while it is HIGH or worse;');
    expect(body('HIGH', 'CRITICAL')).toContain('higher severity); one email will say when it is over.');
    expect(body('CRITICAL', 'CRITICAL')).toContain('a reminder every 1 day(s) while it is CRITICAL;');
  });
});

describe('buildIncidentMessage, recovery', () => {
  const recovered = (fields: Partial<Incident>) =>
    notice({ kind: 'recovery', track: 'infrastructure', breaches: [], incident: incident(fields) });

  it('counts the broken runs and the nights from the start to the last broken run', () => {
    const m = message(recovered({ runs: 5, clean_runs: 1 }));
    expect(m.subject).toBe('[RESOLVED] RagWatch prod/book: run-failure incident over after 4 run(s), 4 night(s)');
    expect(m.body.split('\n')[0]).toBe(
      'Resolved: the run-failure incident on "book" (prod) is over; this run is clean.',
    );
    // Its own wording: no severity line, nothing to act on.
    expect(m.body).not.toMatch(/^Severity:/m);
    expect(m.body.split('\n')[1]).toMatch(
      /^It lasted 4 run\(s\), 4 night\(s\), from 2026-03-10T02:00:00.000Z to this run at .*\. Nothing to do\.$/,
    );
  });

  it('counts no nights for an incident shorter than half a day, and one more night from half a day', () => {
    const at = (started_at: string) => ({ run_id: 'r1', started_at, report: 'x' });
    expect(message(recovered({ runs: 2, clean_runs: 1, last_seen: at('2026-03-10T13:59:00.000Z') })).subject).toBe(
      '[RESOLVED] RagWatch prod/book: run-failure incident over after 1 run(s)',
    );
    expect(message(recovered({ runs: 2, clean_runs: 1, last_seen: at('2026-03-10T14:00:00.000Z') })).subject).toBe(
      '[RESOLVED] RagWatch prod/book: run-failure incident over after 1 run(s), 2 night(s)',
    );
  });

  it('lists what recovered with severities, how long it lasted, and both reports', () => {
    const report = buildPassedReport();
    const body = lines(recovered({ breaches: [pass, mrr], runs: 5, clean_runs: 1 }), report);
    expect(body[1]).toBe(
      `It lasted 4 run(s), 4 night(s), from 2026-03-10T02:00:00.000Z to this run at ${report.timestamp} (run ${report.run_id}). Nothing to do.`,
    );
    const at = body.indexOf('LINKS');
    expect(body.slice(at)).toEqual([
      'LINKS',
      '- This run (clean), JSON: s3://reports/reports/book/now.json',
      `- When it began (2026-03-10T02:00:00.000Z): ${CONSOLE}&prefix=reports%2Fbook%2Fr0.json`,
      '',
      'WHAT RECOVERED',
      '- pass rate 80% < 90% [was HIGH]',
      '- MRR fell to 0.4 [was CRITICAL]',
    ]);
  });
});

describe('buildIncidentMessage, which subject', () => {
  const placement = { stored: false as const, reason: 'access denied', fallback: 'the log' };
  const failedReport = () => ({ ...buildPassedReport(), status: 'FAILED' as const });

  it('marks nothing NEW in an onset, though every kind is new to ops', () => {
    const body = lines(notice({ kind: 'onset', newKinds: [pass.kind] }));
    expect(body).toContain('- pass rate 80% < 90% [HIGH]');
    expect(body.join('\n')).not.toContain('NEW ');
  });

  it('opens without a list when the notice names no breach', () => {
    expect(lines(notice({ kind: 'onset', breaches: [] }))[0]).toBe('Retrieval on "book" (prod) got worse: .');
  });

  it('takes the run alert’s subject for a run-failure incident on a run that ERRORed', () => {
    const m = message(notice({ kind: 'onset', track: 'infrastructure' }), buildErrorReport());
    expect(m.subject).toBe(
      '[HIGH] RagWatch prod/book: run ERROR: the vector index is unreachable: connect ECONNREFUSED 10.0...',
    );
    // The incident's severity, not the run alert's: said once.
    expect(m.body.match(/Severity: /g)).toHaveLength(1);
    expect(m.body).toContain('\nSeverity: HIGH; ');
  });

  it('builds its own subject for a run-failure incident on a stored FAILED run', () => {
    expect(message(notice({ kind: 'onset', track: 'infrastructure' }), failedReport()).subject).toBe(
      '[HIGH] RagWatch prod/book: run ERROR: pass rate 80% < 90%',
    );
  });

  it('builds its own subject for suite rot, whatever the run alert says', () => {
    const suite = notice({ kind: 'onset', track: 'suite', breaches: [stale], incident: incident({ severity: 'LOW' }) });
    const own = '[LOW] RagWatch prod/book: suite stale, for its maintainer: q1 expects a page the book lost';
    expect(message(suite, failedReport()).subject).toBe(own);
    expect(message(suite, buildPassedReport(), { placement }).subject).toBe(own);
  });

  it('builds its own subject for a quality incident on a passed run whose report was not stored', () => {
    expect(message(notice({ kind: 'onset' }), buildPassedReport(), { placement }).subject).toBe(
      '[HIGH] RagWatch prod/book: pass rate 80% < 90%',
    );
  });

  it('lists at most twenty regressions, and no baseline span without baseline runs', () => {
    const report = buildPassedReport();
    report.regression = buildRegression({
      findings: Array.from({ length: 25 }, (_, i) =>
        finding({ kind: 'QUERY_REGRESSED', severity: 'MEDIUM', message: `q${i} fails now` }),
      ),
    });
    const body = lines(notice({ kind: 'onset' }), report);
    expect(body).toContain('REGRESSIONS AGAINST THE BASELINE (25)');
    expect(body.filter((l) => l.startsWith('- QUERY_REGRESSED'))).toHaveLength(20);
    expect(body.join('\n')).not.toContain('Baseline:');
  });

  it('gives the baseline’s span from its oldest run to its newest', () => {
    const report = buildPassedReport();
    const run = (started_at: string) => ({ run_id: started_at, status: 'PASSED' as const, started_at, location: 'x' });
    report.regression = buildRegression({
      baseline_runs: [run('2026-03-09'), run('2026-03-08'), run('2026-03-07')],
      findings: [finding({ kind: 'QUERY_REGRESSED', severity: 'MEDIUM', message: 'q2 fails now' })],
    });
    const body = lines(notice({ kind: 'onset' }), report);
    const at = body.indexOf('Baseline: 3 runs, 2026-03-07 to 2026-03-09');
    expect(body.slice(at - 2, at + 3)).toEqual([
      'REGRESSIONS AGAINST THE BASELINE (1)',
      '- QUERY_REGRESSED [MEDIUM]: q2 fails now',
      'Baseline: 3 runs, 2026-03-07 to 2026-03-09',
      '',
      'SUMMARY',
    ]);
  });

  it('shows a first report whose location only contains s3:// as it is', () => {
    const opened = { run_id: 'r0', started_at: '2026-03-10T02:00:00.000Z', report: 'backup/s3://reports/r0.json' };
    expect(lines(notice({ kind: 'reminder', incident: incident({ opened }) }))).toContain(
      '- When it began: backup/s3://reports/r0.json (run r0)',
    );
  });
});
