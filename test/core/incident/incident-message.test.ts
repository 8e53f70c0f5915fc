import { describe, expect, it } from 'vitest';
import { advanceIncidents, type Notice } from '../../../functions/core/incident/advance-incidents.ts';
import { buildIncidentMessage } from '../../../functions/core/incident/incident-message.ts';
import { observeRun } from '../../../functions/core/incident/observe-run.ts';
import type { IncidentState } from '../../../functions/core/report/incident-state.ts';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import { buildErrorReport, buildFailedReport, buildPassedReport } from '../../nightly/fixtures/reports.ts';

const placement = (key: string) => ({ stored: true as const, bucket: 'reports', key, region: 'eu-west-1' });

/** Runs the reports as consecutive nights and returns the message of every notice, in order. */
function emails(reports: ValidationReport[], reminderDays: number | null = null) {
  let state: IncidentState | null = null;
  let n = 0;
  return reports.flatMap((report, i) => {
    report.timestamp = new Date(Date.UTC(2026, 2, 10 + i, 2)).toISOString();
    report.run_id = `00000000-0000-4000-8000-00000000000${i}`;
    const key = `reports/book/2026/03/${10 + i}/${report.run_id}.json`;
    const next = advanceIncidents({
      state,
      collection: 'book',
      environment: 'prod',
      observation: observeRun(report, true),
      run: { run_id: report.run_id, started_at: report.timestamp, report: `s3://reports/${key}` },
      newId: () => `incident-${++n}`,
      policy: { recoveryRuns: 1, reminderDays },
    });
    state = next.state;
    return next.notices.map((notice: Notice) =>
      buildIncidentMessage(notice, report, { placement: placement(key), region: 'eu-west-1', reminderDays }),
    );
  });
}

describe('buildIncidentMessage', () => {
  it('opens a quality incident with the run’s subject, since when, and what comes next', () => {
    const [onset] = emails([buildFailedReport()]);
    expect(onset?.kind).toBe('onset');
    expect(onset?.subject).toBe(
      '[CRITICAL] RagWatch prod/book: pass rate 40% < 90%, coverage 7.41% < 100%, completeness 97.5% < ...',
    );
    const lines = onset?.body.split('\n') ?? [];
    expect(lines.slice(0, 3)).toEqual([
      'Retrieval on "book" (prod) got worse: pass rate 40% < 90%, coverage 7.41% < 100%, completeness 97.5% < 100%.',
      'Cause: 12 of 20 queries failed: best similarity 0.41 is under min_similarity 0.70',
      'Severity: CRITICAL; open since 2026-03-10T02:00:00.000Z (1 run(s)); this run 2026-03-10T02:00:00.000Z (run 00000000-0000-4000-8000-000000000000), FAILED',
    ]);
    expect(onset?.body).toContain('No more email while this lasts, unless it gets worse');
    expect(onset?.body).toContain('FAILING QUERIES (12 of 20)');
    expect(onset?.body).not.toContain('Previous run:');
  });

  it('gives a run ERROR its own subject, apart from a quality breach', () => {
    const [onset] = emails([buildErrorReport()]);
    expect(onset?.subject).toMatch(/^\[MEDIUM\] RagWatch prod\/book: run ERROR: /);
    expect(onset?.body).toContain('nothing was validated');
  });

  it('announces the recovery with what recovered, how long it lasted and links to both reports', () => {
    const [, recovery] = emails([buildFailedReport(), buildFailedReport(), buildPassedReport()]);
    expect(recovery?.kind).toBe('recovery');
    expect(recovery?.subject).toBe('[RESOLVED] RagWatch prod/book: quality incident over after 2 run(s), 2 night(s)');
    expect(recovery?.body).toContain('- pass rate 40% < 90% [was CRITICAL]');
    expect(recovery?.body.split('\n')[1]).toBe(
      'It lasted 2 run(s), 2 night(s), from 2026-03-10T02:00:00.000Z to this run at 2026-03-12T02:00:00.000Z (run 00000000-0000-4000-8000-000000000002). Nothing to do.',
    );
    expect(recovery?.body).toContain(
      '- When it began (2026-03-10T02:00:00.000Z): https://eu-west-1.console.aws.amazon.com/s3/object/reports?region=eu-west-1&bucketType=general&prefix=reports%2Fbook%2F2026%2F03%2F10%2F00000000-0000-4000-8000-000000000000.json',
    );
    expect(recovery?.body).toContain(
      '- This run (clean), JSON: s3://reports/reports/book/2026/03/12/00000000-0000-4000-8000-000000000002.json',
    );
  });

  it('says “since” from the incident’s start in a reminder, days later', () => {
    const messages = emails([buildFailedReport(), buildFailedReport(), buildFailedReport()], 2);
    expect(messages.map((m) => m.kind)).toEqual(['onset', 'reminder']);
    expect(messages[1]?.subject).toBe(
      '[CRITICAL] STILL OPEN RagWatch prod/book: quality regressed since 2026-03-10: pass rate 40% < 90...',
    );
    expect(messages[1]?.body).toContain('Severity: CRITICAL; open since 2026-03-10T02:00:00.000Z (3 run(s)); ');
    expect(messages[1]?.body).toContain('and a reminder every 2 day(s)');
  });

  it('keeps every subject ASCII and under 100 characters', () => {
    const report = buildErrorReport();
    report.status_reason = `the run could not complete: ${'é'.repeat(300)}`;
    const [onset] = emails([report]);
    expect(onset?.subject.length).toBeLessThan(100);
    expect(onset?.subject).toMatch(/^[\x20-\x7e]+$/);
  });

  it('escalates a second ERROR night in words: worse, CRITICAL, after that many runs that could not complete', () => {
    const [onset, escalation] = emails([buildErrorReport(), buildErrorReport()]);
    expect(onset?.body.split('\n')[0]).toBe(
      'The nightly run of "book" (prod) could not complete, so nothing was validated.',
    );
    expect(escalation?.kind).toBe('escalation');
    expect(escalation?.subject).toBe(
      '[CRITICAL] ESCALATED RagWatch prod/book: run ERROR: the vector index is unreachable: connect ECO...',
    );
    expect(escalation?.body.split('\n').slice(0, 2)).toEqual([
      'Worse: the run-failure incident on "book" (prod) is CRITICAL now, after 2 runs that could not complete.',
      'Cause: the vector index is unreachable: connect ECONNREFUSED 10.0.0.5:6333',
    ]);
  });

  it('names a flapping incident in its subject, its first line and its recovery', () => {
    const messages = emails([buildFailedReport(), buildPassedReport(), buildFailedReport(), buildPassedReport()]);
    expect(messages.map((m) => m.kind)).toEqual(['onset', 'recovery', 'reopened', 'recovery']);
    const [, , reopened, recovery] = messages;
    expect(reopened?.subject).toBe(
      '[CRITICAL] FLAPPING RagWatch prod/book: quality regressed re-opened: pass rate 40% < 90%, covera...',
    );
    expect(reopened?.body.split('\n')[0]).toBe(
      'Back after its recovery (flapping: re-opened, 1 time(s)): retrieval on "book" (prod) got worse: pass rate 40% < 90%, coverage 7.41% < 100%, completeness 97.5% < 100%.',
    );
    expect(recovery?.body).toContain('\nFLAPPING: it came back 1 time(s) after a recovery');
    expect(messages[1]?.body).not.toContain('FLAPPING');
  });

  it('says no query could be searched when every query errored, not that retrieval got worse', () => {
    const report = buildFailedReport();
    report.query_results = report.query_results.map((q) => ({ ...q, status: 'ERROR' as const, passed: false }));
    report.error_queries = report.total_queries;
    report.failed_queries = 0;
    report.passed_queries = 0;
    const [onset] = emails([report]);
    expect(onset?.body.split('\n')[0]).toMatch(/^No query on "book" \(prod\) could be searched/);
    const one = buildFailedReport();
    one.error_queries = 1;
    expect(emails([one])[0]?.body.split('\n')[0]).toMatch(/^Retrieval on "book" \(prod\) got worse/);
  });

  it('drops the engine’s “the run could not complete:” prefix from a run ERROR’s subject', () => {
    const report = buildErrorReport();
    report.status_reason = 'the run could not complete:  Qdrant timed out';
    const [onset] = emails([report]);
    expect(onset?.subject).toBe('[MEDIUM] RagWatch prod/book: run ERROR: Qdrant timed out');
  });
});
