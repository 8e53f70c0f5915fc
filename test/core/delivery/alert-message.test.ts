import { describe, expect, it } from 'vitest';
import {
  type AlertContext,
  buildAlertMessage,
  buildS3ConsoleUrl,
} from '../../../functions/core/delivery/alert-message.ts';
import { SuccessCriteria } from '../../../functions/core/suite/suite.ts';
import { judgeFigures } from '../../helpers/judge-figures.ts';
import { buildErrorReport, buildFailedReport, buildPassedReport, RUN_ID } from '../../nightly/fixtures/reports.ts';

const KEY = `reports/book/2026/03/14/${RUN_ID}.json`;
const STORED: AlertContext = { placement: { stored: true, bucket: 'ragwatch-reports', key: KEY, region: 'eu-west-1' } };
const NOT_STORED: AlertContext = {
  placement: {
    stored: false,
    reason: 'NoSuchBucket: The specified bucket does not exist',
    fallback: 'the function log (/aws/lambda/ragwatch-nightly), message "validation report (not stored)"',
  },
};

function sectionOf(body: string, title: string): string[] {
  const lines = body.split('\n');
  const start = lines.findIndex((l) => l.startsWith(title));
  const end = lines.indexOf('', start);
  return lines.slice(start, end === -1 ? undefined : end);
}

describe('buildAlertMessage', () => {
  it('sends nothing for a clean run whose report was stored', () => {
    // Act
    const alert = buildAlertMessage(buildPassedReport(), STORED);

    // Assess
    expect(alert).toBeNull();
  });

  it('names severity, collection and every breached criterion with value and threshold in the subject', () => {
    // Act
    const alert = buildAlertMessage(buildFailedReport(), STORED);

    // Assess
    expect(alert?.severity).toBe('CRITICAL');
    expect(alert?.subject).toBe(
      '[CRITICAL] RagWatch prod/book: pass rate 40% < 90%, coverage 7.41% < 100%, completeness 97.5% < ...',
    );
  });

  it('says what broke when a finding alone failed the run, every criterion holding (docs/DATA-MODEL.md, the status rule)', () => {
    // Prepare: a passing run but for one HIGH finding no criterion judges and one CRITICAL finding, in that order.
    const report = buildPassedReport();
    report.status = 'FAILED';
    report.status_reason = 'findings that fail the run: CRITICAL MODEL_MISMATCH, HIGH UNSUPPORTED_CLAIM';
    report.errors = [
      {
        id: 'e2',
        validation_id: RUN_ID,
        error_type: 'UNSUPPORTED_CLAIM',
        severity: 'HIGH',
        message: 'The answer to agent query "a1" makes an unsupported claim: it needs 64 GB of RAM.',
        details: {},
      },
      {
        id: 'e1',
        validation_id: RUN_ID,
        error_type: 'MODEL_MISMATCH',
        severity: 'CRITICAL',
        message: '120 of 9000 points were embedded by embed-multilingual-v3.0, not embed-english-v3.0',
        details: {},
      },
      {
        id: 'e3',
        validation_id: RUN_ID,
        error_type: 'STALE_CHUNKS',
        severity: 'MEDIUM',
        message: 'a page holds chunks of an older version',
        details: {},
      },
    ];

    // Act
    const alert = buildAlertMessage(report, STORED);

    // Assess: as bad as its worst finding, and the finding is named in the subject, the headline and WHAT BROKE.
    expect(alert?.severity).toBe('CRITICAL');
    expect(alert?.subject).toBe('[CRITICAL] RagWatch prod/book: CRITICAL MODEL_MISMATCH, HIGH UNSUPPORTED_CLAIM');
    const body = alert?.body ?? '';
    expect(body.split('\n')[0]).toBe(
      'The nightly validation of "book" (prod) failed on 2 findings, every success criterion holding: CRITICAL MODEL_MISMATCH, HIGH UNSUPPORTED_CLAIM.',
    );
    expect(sectionOf(body, 'WHAT BROKE')).toEqual([
      'WHAT BROKE (findings that fail the run)',
      '- MODEL_MISMATCH [CRITICAL]: 120 of 9000 points were embedded by embed-multilingual-v3.0, not embed-english-v3.0',
      '- UNSUPPORTED_CLAIM [HIGH]: The answer to agent query "a1" makes an unsupported claim: it needs 64 GB of RAM.',
    ]);
    expect(body).not.toContain('breached 0');
    expect(body).not.toContain('older version');
  });

  it('says "a finding" for one, and falls back to the criteria line when a FAILED run names no failing finding', () => {
    // Prepare
    const one = buildPassedReport();
    one.status = 'FAILED';
    one.errors = [
      {
        id: 'e1',
        validation_id: RUN_ID,
        error_type: 'UNSUPPORTED_CLAIM',
        severity: 'HIGH',
        message: 'The answer to agent query "a1" makes an unsupported claim: it needs 64 GB of RAM.',
        details: {},
      },
    ];
    const none = buildPassedReport();
    none.status = 'FAILED';

    // Act
    const alertOne = buildAlertMessage(one, STORED);
    const alertNone = buildAlertMessage(none, STORED);

    // Assess
    expect(alertOne?.severity).toBe('HIGH');
    expect(alertOne?.body.split('\n')[0]).toBe(
      'The nightly validation of "book" (prod) failed on a finding, every success criterion holding: HIGH UNSUPPORTED_CLAIM.',
    );
    expect(alertNone?.severity).toBe('HIGH');
    expect(alertNone?.subject).toBe('[HIGH] RagWatch prod/book: FAILED');
    expect(alertNone?.body.split('\n')[0]).toBe('The nightly validation of "book" (prod) breached 0 success criteria.');
    expect(alertNone?.body).not.toContain('WHAT BROKE (');
  });

  it('lists a finding that fails the run under the breached criteria, keeping the criteria in the subject', () => {
    // Prepare
    const report = buildFailedReport();
    report.errors = [
      ...report.errors,
      {
        id: 'e9',
        validation_id: RUN_ID,
        error_type: 'EMBEDDING_DRIFT',
        severity: 'CRITICAL',
        message: 'the canary chunks moved 0.31 from their stored vectors',
        details: {},
      },
    ];

    // Act
    const alert = buildAlertMessage(report, STORED);
    const body = alert?.body ?? '';

    // Assess
    expect(alert?.subject.startsWith('[CRITICAL] RagWatch prod/book: pass rate 40% < 90%')).toBe(true);
    expect(body.split('\n')[0]).toMatch(/breached \d+ success criteria: pass rate/);
    expect(body).toContain('WHAT BROKE (value vs threshold)');
    expect(sectionOf(body, 'WHAT BROKE (findings')).toEqual([
      'WHAT BROKE (findings that fail the run)',
      '- EMBEDDING_DRIFT [CRITICAL]: the canary chunks moved 0.31 from their stored vectors',
    ]);
  });

  it('keeps every subject ASCII, on one line and under 100 characters', () => {
    // Prepare
    const report = buildErrorReport();
    report.collection = 'bücher—ünd\tmehr';
    report.status_reason = `Qdrant said ${'x'.repeat(300)}\n`;

    // Act
    const alert = buildAlertMessage(report, STORED);

    // Assess
    expect(alert?.subject.length).toBeLessThan(100);
    expect(alert?.subject).toMatch(/^[\x20-\x7e]+$/);
    expect(alert?.subject.startsWith('[CRITICAL] RagWatch prod/bucher und mehr: run ERROR: Qdrant said xxx')).toBe(
      true,
    );
  });

  it('opens the body with what broke, how badly and since when, before any detail', () => {
    // Prepare
    const previous = {
      runId: '11111111-2222-4333-8444-555555555555',
      status: 'PASSED',
      startedAt: '2026-03-13T02:00:00.000Z',
    };

    // Act
    const alert = buildAlertMessage(buildFailedReport(), { ...STORED, previous });

    // Assess
    expect(alert?.body.split('\n').slice(0, 14)).toEqual([
      'The nightly validation of "book" (prod) breached 3 success criteria: pass rate 40% < 90%, coverage 7.41% < 100%, completeness 97.5% < 100%.',
      'Cause: 12 of 20 queries failed: best similarity 0.41 is under min_similarity 0.70',
      `Severity: CRITICAL; 12 of 20 queries failing; run 2026-03-14T02:00:00.000Z (run id ${RUN_ID})`,
      'Previous run: 2026-03-13T02:00:00.000Z (run id 11111111-2222-4333-8444-555555555555) PASSED, so this broke since then',
      'What changed: not compared with a baseline',
      '',
      'LINKS',
      `- Report JSON: s3://ragwatch-reports/${KEY}`,
      '',
      'WHAT BROKE (value vs threshold)',
      '- pass rate: 40% (must be >= 90%) [CRITICAL]',
      '- coverage: 7.41% (must be >= 100%) [HIGH]',
      '- completeness: 97.5% (must be >= 100%) [MEDIUM]',
      '',
    ]);
  });

  it('says when the previous run failed too, or that there was none', () => {
    // Prepare
    const failedBefore = { runId: 'r0', status: 'FAILED', startedAt: '2026-03-13T02:00:00.000Z' };

    // Act
    const ongoing = buildAlertMessage(buildFailedReport(), { ...STORED, previous: failedBefore });
    const first = buildAlertMessage(buildFailedReport(), { ...STORED, previous: null });
    const unknown = buildAlertMessage(buildFailedReport(), STORED);

    // Assess
    expect([ongoing, first, unknown].map((a) => a?.body.split('\n')[3])).toEqual([
      'Previous run: 2026-03-13T02:00:00.000Z (run id r0) FAILED too',
      'Previous run: none on record (this is the first stored report)',
      'Previous run: unknown (its report could not be read)',
    ]);
  });

  it('says where the full report is, once, in the links block: its S3 key', () => {
    // Act
    const body = buildAlertMessage(buildFailedReport(), STORED)?.body ?? '';

    // Assess
    expect(sectionOf(body, 'LINKS')).toEqual(['LINKS', `- Report JSON: s3://ragwatch-reports/${KEY}`]);
    expect(body.match(new RegExp(RUN_ID, 'g'))).toHaveLength(2); // the run id line and the key
    expect(body).not.toContain('FULL REPORT');
  });

  it('collapses failing queries of one reason into one line, with their count and the first 8 ids', () => {
    // Act
    const alert = buildAlertMessage(buildFailedReport(), STORED);

    // Assess
    expect(sectionOf(alert?.body ?? '', 'FAILING QUERIES')).toEqual([
      'FAILING QUERIES (12 of 20)',
      '- 12 queries [FAIL]: best similarity 0.41 is under min_similarity 0.70 (fail-1, fail-2, fail-3, fail-4, fail-5, fail-6, fail-7, fail-8, and 4 more)',
    ]);
  });

  it('lists a query alone on its line, with its text, when no other failed the same way; errors first', () => {
    // Prepare
    const report = buildFailedReport();
    const [one, two] = report.query_results.filter((q) => q.status === 'FAIL');
    if (!one || !two) throw new Error('the fixture has failing queries');
    one.fail_reason = 'not in the top 5';
    two.status = 'ERROR';
    two.fail_reason = 'Qdrant search failed with 503';

    // Act
    const section = sectionOf(buildAlertMessage(report, STORED)?.body ?? '', 'FAILING QUERIES');

    // Assess
    expect(section).toEqual([
      'FAILING QUERIES (12 of 20)',
      '- fail-2 [ERROR] "What does fail-2 cover?": Qdrant search failed with 503',
      '- 10 queries [FAIL]: best similarity 0.41 is under min_similarity 0.70 (fail-3, fail-4, fail-5, fail-6, fail-7, fail-8, fail-9, fail-10, and 2 more)',
      '- fail-1 [FAIL] "What does fail-1 cover?": not in the top 5',
    ]);
  });

  it('lists up to 20 missing URLs and the orphans, each section with its count', () => {
    // Act
    const alert = buildAlertMessage(buildFailedReport(), STORED);

    // Assess
    const missing = sectionOf(alert?.body ?? '', 'MISSING URLS');
    expect(missing[0]).toBe('MISSING URLS (in the sitemap, not indexed): 25, first 20');
    expect(missing).toHaveLength(21);
    expect(sectionOf(alert?.body ?? '', 'ORPHAN URLS')).toEqual([
      'ORPHAN URLS (indexed, not in the sitemap): 2',
      '- https://book.example.org/docs/old-page',
      '- https://book.example.org/docs/removed',
    ]);
  });

  it('raises a CRITICAL alert for a run that could not complete, with what failed first', () => {
    // Act
    const alert = buildAlertMessage(buildErrorReport(), STORED);

    // Assess
    expect(alert?.severity).toBe('CRITICAL');
    expect(alert?.subject).toBe(
      '[CRITICAL] RagWatch prod/book: run ERROR: the vector index is unreachable: connect ECONNREFUSED ...',
    );
    expect(alert?.body.split('\n').slice(0, 2)).toEqual([
      'The nightly validation of "book" (prod) could not complete: nothing was validated.',
      'Cause: the vector index is unreachable: connect ECONNREFUSED 10.0.0.5:6333',
    ]);
    // The reason is said once: the RUN_FAILED error repeating it adds nothing, so no WHAT FAILED section.
    expect(alert?.body.match(/ECONNREFUSED 10\.0\.0\.5/g)).toHaveLength(1);
    expect(alert?.body).not.toContain('WHAT FAILED');
  });

  it('alerts on a clean run whose report could not be stored, and says where the copy is', () => {
    // Act
    const alert = buildAlertMessage(buildPassedReport(), NOT_STORED);

    // Assess
    expect(alert?.severity).toBe('HIGH');
    expect(alert?.subject).toBe('[HIGH] RagWatch prod/book: report NOT stored');
    expect(sectionOf(alert?.body ?? '', 'LINKS')).toEqual([
      'LINKS',
      '- Report NOT STORED in S3 (NoSuchBucket: The specified bucket does not exist); the full report is in the function log (/aws/lambda/ragwatch-nightly), message "validation report (not stored)"',
    ]);
    expect(alert?.body.split('\n')[1]).toBe(
      'Cause: S3 would not take the report (NoSuchBucket: The specified bucket does not exist); its only copy is in the function log (/aws/lambda/ragwatch-nightly), message "validation report (not stored)"',
    );
  });

  it('alerts HIGH on a clean run whose metrics CloudWatch refused, naming the sink and the reason', () => {
    // Act
    const alert = buildAlertMessage(buildPassedReport(), {
      ...STORED,
      failedSinks: [
        { sink: 'CloudWatch metrics', reason: 'CloudWatch PutMetricData to RagWatch: 3 of 21 datums not published' },
      ],
    });

    // Assess
    expect(alert?.severity).toBe('HIGH');
    expect(alert?.subject).toBe('[HIGH] RagWatch prod/book: CloudWatch metrics NOT delivered');
    expect(alert?.body.split('\n').slice(0, 2)).toEqual([
      'The nightly validation of "book" (prod) passed, but CloudWatch metrics could not be delivered.',
      'Cause: CloudWatch metrics: CloudWatch PutMetricData to RagWatch: 3 of 21 datums not published',
    ]);
    expect(alert?.body).toContain(
      'Also failed: CloudWatch metrics: CloudWatch PutMetricData to RagWatch: 3 of 21 datums not published',
    );
  });

  it('keeps a CRITICAL breach CRITICAL, and names the failed sink after the report, when metrics failed too', () => {
    const alert = buildAlertMessage(buildFailedReport(), {
      ...NOT_STORED,
      failedSinks: [{ sink: 'CloudWatch metrics', reason: 'x' }],
    });
    expect(alert?.subject).toMatch(
      /^\[(CRITICAL|HIGH)\] RagWatch prod\/book: report NOT stored, CloudWatch metrics NOT delivered, /,
    );
  });

  it('carries the summary when the report could not be stored', () => {
    // Act
    const alert = buildAlertMessage(buildFailedReport(), NOT_STORED);

    // Assess
    expect(sectionOf(alert?.body ?? '', 'SUMMARY')).toEqual([
      'SUMMARY',
      // The breaches are listed above: the status reason would repeat them.
      '- Status: FAILED',
      '- Queries: 20 run, 8 passed, 12 failed, 0 errors; pass rate 40%',
      '- Coverage: 7.41%; metadata completeness: 97.5%',
      '- MRR 0.8, recall@k 0.75, nDCG@k 0.7, avg similarity 0.8',
      '- Latency p50 53 ms, p95 60 ms; run took 42.5 s',
      '- Suite: golden-queries (suite.json); finished 2026-03-14T02:00:42.500Z',
    ]);
  });

  it('mentions the other sinks that failed', () => {
    // Act
    const alert = buildAlertMessage(buildFailedReport(), {
      ...STORED,
      failedSinks: [{ sink: 'metrics', reason: 'CloudWatch PutMetricData failed: InternalServiceError' }],
    });

    // Assess
    expect(alert?.body).toContain('Also failed: metrics: CloudWatch PutMetricData failed: InternalServiceError');
  });

  it('cuts an oversized body at a line and says where the full report is', () => {
    // Prepare
    const report = buildFailedReport();
    report.status_reason = 'é'.repeat(2_000);

    // Act
    const alert = buildAlertMessage(report, { ...STORED, maxBodyBytes: 1_500 });

    // Assess
    const body = alert?.body ?? '';
    expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(1_500);
    expect(
      body.endsWith(`[truncated to fit the 256 KB SNS limit; the full report is at s3://ragwatch-reports/${KEY}]`),
    ).toBe(true);
    expect(body.startsWith('The nightly validation of "book" (prod) breached 3 success criteria: ')).toBe(true);
  });

  it('keeps the default body under 256 KB even when every field is huge', () => {
    // Prepare
    const report = buildFailedReport();
    for (const q of report.query_results) q.fail_reason = 'r'.repeat(100_000);
    if (report.coverage_report)
      report.coverage_report.missing_urls = Array.from(
        { length: 5_000 },
        (_, i) => `https://b/${'p'.repeat(2_000)}${i}`,
      );

    // Act
    const alert = buildAlertMessage(report, STORED);

    // Assess: an alert holding the huge fields, cut to fit (no alert would measure "undefinedundefined" and pass)
    if (!alert) throw new Error('no alert was built for a FAILED report');
    expect(alert.subject).toMatch(/^\[[A-Z]+\] RagWatch /);
    expect(alert.body).toContain('- 12 queries [FAIL]: rrrr');
    expect(new TextEncoder().encode(`${alert.subject}${alert.body}`).length).toBeLessThan(256 * 1024);
  });
});

/** A FAILED report whose criteria are graded by the engine from these figures. */
function failedWith(figures: { passRate: number; coverage: number; completeness: number }) {
  const report = buildFailedReport();
  report.success_criteria = judgeFigures({ ...figures, criteria: SuccessCriteria.parse({}) });
  return report;
}

describe('buildAlertMessage: severity', () => {
  it('is HIGH when the worst breach is HIGH', () => {
    // Act: a 60% pass rate is under 90 but not under half of it.
    const alert = buildAlertMessage(failedWith({ passRate: 60, coverage: 100, completeness: 100 }), STORED);

    // Assess
    expect([alert?.severity, alert?.subject]).toEqual(['HIGH', '[HIGH] RagWatch prod/book: pass rate 60% < 90%']);
  });

  it('is MEDIUM when every breach is MEDIUM', () => {
    // Act
    const alert = buildAlertMessage(failedWith({ passRate: 100, coverage: 100, completeness: 97.5 }), STORED);

    // Assess
    expect([alert?.severity, alert?.subject]).toEqual([
      'MEDIUM',
      '[MEDIUM] RagWatch prod/book: completeness 97.5% < 100%',
    ]);
  });

  it('is the worst severity among the breaches, whatever their order', () => {
    // Act: MEDIUM completeness listed after a CRITICAL pass rate and a HIGH coverage.
    const alert = buildAlertMessage(failedWith({ passRate: 44.99, coverage: 89, completeness: 97.5 }), STORED);

    // Assess
    expect(alert?.severity).toBe('CRITICAL');
  });

  it('is HIGH for a FAILED run with no breached criterion to grade it', () => {
    // Prepare
    const report = buildFailedReport();
    report.success_criteria = [];

    // Act
    const alert = buildAlertMessage(report, STORED);

    // Assess
    expect([alert?.severity, alert?.subject]).toEqual(['HIGH', '[HIGH] RagWatch prod/book: FAILED']);
  });

  it('raises a MEDIUM breach to HIGH when the report could not be stored', () => {
    // Act
    const alert = buildAlertMessage(failedWith({ passRate: 100, coverage: 100, completeness: 97.5 }), NOT_STORED);

    // Assess
    expect([alert?.severity, alert?.subject]).toEqual([
      'HIGH',
      '[HIGH] RagWatch prod/book: report NOT stored, completeness 97.5% < 100%',
    ]);
  });

  it('keeps a CRITICAL breach CRITICAL when the report could not be stored', () => {
    // Act
    const alert = buildAlertMessage(failedWith({ passRate: 40, coverage: 100, completeness: 100 }), NOT_STORED);

    // Assess
    expect(alert?.severity).toBe('CRITICAL');
  });

  it('is CRITICAL for an ERROR run that evaluated no criterion, and says the run could not complete', () => {
    // Prepare
    const report = buildErrorReport();
    report.success_criteria = [];

    // Act
    const alert = buildAlertMessage(report, STORED);

    // Assess
    expect(alert?.severity).toBe('CRITICAL');
    expect(alert?.body.split('\n').slice(0, 2)).toEqual([
      'The nightly validation of "book" (prod) could not complete: nothing was validated.',
      'Cause: the vector index is unreachable: connect ECONNREFUSED 10.0.0.5:6333',
    ]);
  });

  it('is CRITICAL for an ERROR run even when the report could not be stored', () => {
    // Act
    const alert = buildAlertMessage(buildErrorReport(), NOT_STORED);

    // Assess
    expect(alert?.severity).toBe('CRITICAL');
  });
});

describe('buildAlertMessage: subject', () => {
  it('drops the "could not complete" preamble of an ERROR run’s reason from the subject', () => {
    // Prepare
    const report = buildErrorReport();
    report.status_reason = 'the run could not complete: queries: Qdrant timed out';

    // Act
    const alert = buildAlertMessage(report, STORED);

    // Assess
    expect(alert?.subject).toBe('[CRITICAL] RagWatch prod/book: run ERROR: queries: Qdrant timed out');
  });

  it('folds runs of spaces into one', () => {
    // Prepare
    const report = buildErrorReport();
    report.status_reason = 'Qdrant   said  no';

    // Act
    const alert = buildAlertMessage(report, STORED);

    // Assess
    expect(alert?.subject).toBe('[CRITICAL] RagWatch prod/book: run ERROR: Qdrant said no');
  });

  it('keeps a subject of exactly 99 characters whole and cuts one of 100', () => {
    // Prepare: the prefix "[CRITICAL] RagWatch prod/book: run ERROR: " is 42 characters.
    const prefix = '[CRITICAL] RagWatch prod/book: run ERROR: ';
    const at = buildErrorReport();
    at.status_reason = 'x'.repeat(99 - prefix.length);
    const over = buildErrorReport();
    over.status_reason = 'x'.repeat(100 - prefix.length);

    // Act
    const subjects = [buildAlertMessage(at, STORED)?.subject, buildAlertMessage(over, STORED)?.subject];

    // Assess
    expect(subjects).toEqual([`${prefix}${'x'.repeat(57)}`, `${prefix}${'x'.repeat(54)}...`]);
  });

  it('writes a criterion that could not be computed as n/a, and a ceiling breach with >', () => {
    // Prepare
    const report = buildFailedReport();
    report.success_criteria = judgeFigures({
      passRate: 100,
      coverage: null,
      completeness: 100,
      p95LatencyMs: 2100,
      criteria: { ...SuccessCriteria.parse({}), max_p95_latency_ms: 1500 },
    });

    // Act
    const alert = buildAlertMessage(report, STORED);

    // Assess
    expect(alert?.subject).toBe('[HIGH] RagWatch prod/book: coverage n/a < 100%, p95 latency ms 2100 ms > 1500 ms');
    expect(sectionOf(alert?.body ?? '', 'WHAT BROKE')).toEqual([
      'WHAT BROKE (value vs threshold)',
      '- coverage: n/a (must be >= 100%) [HIGH]',
      '- p95 latency ms: 2100 ms (must be <= 1500 ms) [MEDIUM]',
    ]);
  });

  it('gives a criterion with no known unit no unit', () => {
    // Prepare
    const report = buildFailedReport();
    report.success_criteria = judgeFigures({
      passRate: 100,
      coverage: 100,
      completeness: 100,
      mrr: 0.5,
      criteria: { ...SuccessCriteria.parse({}), min_mrr: 0.7 },
    });

    // Act
    const alert = buildAlertMessage(report, STORED);

    // Assess
    expect(alert?.subject).toBe('[MEDIUM] RagWatch prod/book: mrr 0.5 < 0.7');
  });
});

describe('buildAlertMessage: body', () => {
  it('says a clean run passed but was not stored, with no breach, failure or query section', () => {
    // Act
    const body = buildAlertMessage(buildPassedReport(), NOT_STORED)?.body ?? '';

    // Assess
    expect(body.split('\n')[0]).toBe(
      'The nightly validation of "book" (prod) passed, but its report could not be stored.',
    );
    for (const title of ['WHAT FAILED', 'WHAT BROKE', 'FAILING QUERIES', 'MISSING URLS', 'ORPHAN URLS', 'Also failed'])
      expect(body).not.toContain(title);
    expect(body.split('\n').slice(4, 7)).toEqual(['What changed: not compared with a baseline', '', 'LINKS']);
  });

  it('lists at most 5 of an ERROR run’s CRITICAL and HIGH errors, none of lower severity', () => {
    // Prepare
    const report = buildErrorReport();
    const error = (n: number, severity: 'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW') => ({
      id: `e${n}`,
      validation_id: 'run',
      error_type: 'RUN_FAILED' as const,
      message: `problem ${n}`,
      severity,
      details: {},
    });
    report.errors = [
      error(1, 'MEDIUM'),
      error(2, 'HIGH'),
      error(3, 'LOW'),
      error(4, 'CRITICAL'),
      error(5, 'HIGH'),
      error(6, 'HIGH'),
      error(7, 'CRITICAL'),
      error(8, 'HIGH'),
    ];

    // Act
    const alert = buildAlertMessage(report, STORED);

    // Assess
    expect(sectionOf(alert?.body ?? '', 'WHAT FAILED')).toEqual([
      'WHAT FAILED',
      '- RUN_FAILED [HIGH]: problem 2',
      '- RUN_FAILED [CRITICAL]: problem 4',
      '- RUN_FAILED [HIGH]: problem 5',
      '- RUN_FAILED [HIGH]: problem 6',
      '- RUN_FAILED [CRITICAL]: problem 7',
    ]);
  });

  it('says n/a for the figures an ERROR run could not compute', () => {
    // Act
    const alert = buildAlertMessage(buildErrorReport(), STORED);

    // Assess
    expect(sectionOf(alert?.body ?? '', 'SUMMARY').slice(2, 5)).toEqual([
      '- Queries: 2 run, 0 passed, 0 failed, 2 errors; pass rate n/a (no query completed)',
      '- Coverage: n/a; metadata completeness: n/a',
      '- MRR n/a, recall@k n/a, nDCG@k n/a, avg similarity n/a',
    ]);
  });

  it('says n/a (no query completed), never 0%, for a FAILED run whose every query errored', () => {
    // Prepare
    const report = { ...buildFailedReport(), passed_queries: 0, failed_queries: 0, error_queries: 20, pass_rate: 0 };

    // Act
    const body = buildAlertMessage(report, STORED)?.body ?? '';

    // Assess
    expect(body).toContain('20 errors; pass rate n/a (no query completed)');
    expect(body).not.toContain('pass rate 0%');
  });

  it('lists 10 distinct reasons one line each, and counts the queries of an 11th instead of listing them', () => {
    // Prepare: each failing query its own reason; fail-11 and fail-12 share one
    const report = buildFailedReport();
    for (const [i, q] of report.query_results.filter((r) => r.status === 'FAIL').entries())
      q.fail_reason = `reason ${Math.min(i, 10)}`;
    const ten = buildFailedReport();
    ten.query_results = ten.query_results.filter((q) => q.id !== 'fail-11' && q.id !== 'fail-12');
    for (const [i, q] of ten.query_results.filter((r) => r.status === 'FAIL').entries()) q.fail_reason = `reason ${i}`;

    // Act
    const eleven = sectionOf(buildAlertMessage(report, STORED)?.body ?? '', 'FAILING QUERIES');
    const exactlyTen = sectionOf(buildAlertMessage(ten, STORED)?.body ?? '', 'FAILING QUERIES');

    // Assess
    expect(eleven).toHaveLength(12);
    expect(eleven[1]).toBe('- 2 queries [FAIL]: reason 10 (fail-11, fail-12)');
    expect(eleven.at(-1)).toBe('- 1 more, for other reasons: in the report');
    expect(exactlyTen[0]).toBe('FAILING QUERIES (10 of 20)');
    expect(exactlyTen).toHaveLength(11);
    expect(exactlyTen.at(-1)).toBe('- fail-10 [FAIL] "What does fail-10 cover?": reason 9');
  });

  it('lists exactly 20 missing URLs without saying "first"', () => {
    // Prepare
    const report = buildFailedReport();
    if (report.coverage_report) {
      report.coverage_report.missing_urls = report.coverage_report.missing_urls.slice(0, 20);
      report.coverage_report.missing_count = 20;
    }

    // Act
    const section = sectionOf(buildAlertMessage(report, STORED)?.body ?? '', 'MISSING URLS');

    // Assess
    expect(section[0]).toBe('MISSING URLS (in the sitemap, not indexed): 20');
    expect(section).toHaveLength(21);
  });

  it('counts a cut list whole: the stored report holds the first URLs, the count is every missing URL', () => {
    // Prepare: the list as stored (its first 100), the count of the whole (render/url-lists.ts)
    const report = buildFailedReport();
    if (report.coverage_report) {
      report.coverage_report.missing_urls = Array.from({ length: 100 }, (_, i) => `https://b/docs/p${i}`);
      report.coverage_report.missing_count = 50_000;
    }

    // Act
    const section = sectionOf(buildAlertMessage(report, STORED)?.body ?? '', 'MISSING URLS');

    // Assess
    expect(section[0]).toBe('MISSING URLS (in the sitemap, not indexed): 50000, first 20');
  });

  it('separates the failed sinks from the next section by one blank line', () => {
    // Act
    const body =
      buildAlertMessage(buildFailedReport(), { ...STORED, failedSinks: [{ sink: 'metrics', reason: 'down' }] })?.body ??
      '';

    // Assess
    const lines = body.split('\n');
    const at = lines.indexOf('Also failed: metrics: down');
    expect(lines.slice(at - 1, at + 3)).toEqual(['', 'Also failed: metrics: down', '', lines[at + 2]]);
    expect(lines[at + 2]?.startsWith('FAILING QUERIES')).toBe(true);
  });

  it('keeps a body of exactly the byte budget whole and cuts one byte over', () => {
    // Prepare
    const report = buildFailedReport();
    const full = buildAlertMessage(report, STORED)?.body ?? '';
    const bytes = new TextEncoder().encode(full).length;

    // Act
    const exact = buildAlertMessage(report, { ...STORED, maxBodyBytes: bytes })?.body;
    const under = buildAlertMessage(report, { ...STORED, maxBodyBytes: bytes - 1 })?.body ?? '';

    // Assess
    expect(exact).toBe(full);
    expect(under).toContain('[truncated to fit the 256 KB SNS limit');
    expect(new TextEncoder().encode(under).length).toBeLessThanOrEqual(bytes - 1);
  });

  it('keeps every line that fits the budget exactly when cutting', () => {
    // Prepare: a budget of the note plus the first line and its newline.
    const report = buildFailedReport();
    const note = `\n[truncated to fit the 256 KB SNS limit; the full report is at s3://ragwatch-reports/${KEY}]`;
    const first =
      'The nightly validation of "book" (prod) breached 3 success criteria: pass rate 40% < 90%, coverage 7.41% < 100%, completeness 97.5% < 100%.';
    const budget = new TextEncoder().encode(note).length + first.length + 1;

    // Act
    const body = buildAlertMessage(report, { ...STORED, maxBodyBytes: budget })?.body;

    // Assess
    expect(body).toBe(`${first}${note}`);
  });

  it('says where the local copy is when an unstored report is cut', () => {
    // Act
    const body = buildAlertMessage(buildFailedReport(), { ...NOT_STORED, maxBodyBytes: 600 })?.body ?? '';

    // Assess
    expect(
      body.endsWith(
        'the full report is at the function log (/aws/lambda/ragwatch-nightly), message "validation report (not stored)"]',
      ),
    ).toBe(true);
  });
});

describe('buildS3ConsoleUrl', () => {
  it('links to the object page in the bucket’s region with the key encoded', () => {
    // Act
    const url = buildS3ConsoleUrl('my-bucket', 'reports/a b/latest.json', 'us-east-1');

    // Assess
    expect(url).toBe(
      'https://us-east-1.console.aws.amazon.com/s3/object/my-bucket?region=us-east-1&bucketType=general&prefix=reports%2Fa+b%2Flatest.json',
    );
  });

  it('says what changed since the baseline: not compared, nothing moved, or the first 3 regressions and the rest counted', () => {
    const report = buildFailedReport();
    const changed = () =>
      buildAlertMessage(report, STORED)
        ?.body.split('\n')
        .find((l) => l.startsWith('What changed:'));
    const finding = (n: number) => ({ message: `q${n} fell` }) as never;
    const regression = (compared: boolean, findings: unknown[]) =>
      ({
        note: 'first run with figures on record',
        compared,
        findings,
        baseline_runs: [],
        recovered_queries: [],
        stale_queries: [],
        score_shift: null,
      }) as never;
    report.regression = regression(false, []);
    expect(changed()).toBe('What changed: not compared (first run with figures on record)');
    report.regression = regression(true, []);
    expect(changed()).toBe('What changed: nothing moved beyond its usual band since the baseline');
    report.regression = regression(true, [finding(1), finding(2), finding(3)]);
    expect(changed()).toBe('What changed: 3 regression(s) since the baseline: q1 fell; q2 fell; q3 fell');
    report.regression = regression(true, [finding(1), finding(2), finding(3), finding(4), finding(5)]);
    expect(changed()).toBe('What changed: 5 regression(s) since the baseline: q1 fell; q2 fell; q3 fell; 2 more below');
  });

  it('counts failing queries with the errored ones, and says how many errored', () => {
    const report = buildFailedReport();
    const severityLine = () =>
      buildAlertMessage(report, STORED)
        ?.body.split('\n')
        .find((l) => l.startsWith('Severity:'))
        ?.split('; run ')[0];
    report.error_queries = 3;
    expect(severityLine()).toBe(
      `Severity: CRITICAL; ${report.failed_queries + 3} of ${report.total_queries} queries failing (3 errored)`,
    );
    report.error_queries = 0;
    expect(severityLine()).toBe(
      `Severity: CRITICAL; ${report.failed_queries} of ${report.total_queries} queries failing`,
    );
  });

  it('drops the preamble only at the start of an ERROR run’s reason, with every space after it', () => {
    const report = buildErrorReport();
    report.status_reason = 'the run could not complete:   Qdrant timed out';
    expect(buildAlertMessage(report, STORED)?.subject).toBe(
      '[CRITICAL] RagWatch prod/book: run ERROR: Qdrant timed out',
    );
    report.status_reason = 'the run could not complete:Qdrant timed out';
    expect(buildAlertMessage(report, STORED)?.subject).toBe(
      '[CRITICAL] RagWatch prod/book: run ERROR: Qdrant timed out',
    );
    report.status_reason = 'queries: the run could not complete: x';
    expect(buildAlertMessage(report, STORED)?.subject).toBe(
      '[CRITICAL] RagWatch prod/book: run ERROR: queries: the run could not complete: x',
    );
  });
});
