import { describe, expect, it } from 'vitest';
import { observeRun } from '../../../functions/core/incident/observe-run.ts';
import { finding } from '../../../functions/core/report/regression-report.ts';
import {
  buildErrorReport,
  buildFailedReport,
  buildPassedReport,
  buildRegression,
} from '../../nightly/fixtures/reports.ts';

describe('observeRun', () => {
  it('sees nothing in a clean, stored run', () => {
    expect(observeRun(buildPassedReport(), true)).toEqual({ infrastructure: [], quality: [], suite: [] });
  });

  it('makes each breached criterion a quality breach at its severity, with value and threshold', () => {
    const observed = observeRun(buildFailedReport(), true);
    expect(observed.quality).toContainEqual({
      kind: 'criterion:pass_rate',
      severity: 'CRITICAL',
      summary: 'pass rate 40% < 90%',
    });
    expect(observed.infrastructure).toEqual([]);
  });

  it('makes an ERROR run a MEDIUM infrastructure breach (a blip does not page) and judges neither quality nor the suite', () => {
    expect(observeRun(buildErrorReport(), true)).toEqual({
      infrastructure: [expect.objectContaining({ kind: 'RUN_ERROR', severity: 'MEDIUM' })],
      quality: null,
      suite: null,
    });
  });

  it('makes an unstored report an infrastructure breach', () => {
    expect(observeRun(buildPassedReport(), false).infrastructure).toEqual([
      expect.objectContaining({ kind: 'REPORT_NOT_STORED', severity: 'HIGH' }),
    ]);
  });

  it('sends SUITE_STALE to the suite track and other regressions to quality, one breach per kind, latency left out', () => {
    const report = buildPassedReport();
    report.regression = buildRegression({
      findings: [
        finding({ kind: 'SUITE_STALE', severity: 'LOW', message: 'q1 stale' }),
        finding({ kind: 'QUERY_REGRESSED', severity: 'MEDIUM', message: 'q2 fails' }),
        finding({ kind: 'QUERY_REGRESSED', severity: 'MEDIUM', message: 'q3 fails' }),
        finding({ kind: 'METRIC_DROPPED', severity: 'MEDIUM', message: 'mrr', metric: 'mrr' }),
        finding({ kind: 'METRIC_DROPPED', severity: 'LOW', message: 'p95', metric: 'p95_latency_ms' }),
      ],
      stale_queries: ['q1'],
    });
    const observed = observeRun(report, true);
    expect(observed.suite?.map((b) => b.kind)).toEqual(['SUITE_STALE']);
    expect(observed.quality?.map((b) => b.kind)).toEqual(['QUERY_REGRESSED', 'METRIC_DROPPED:mrr']);
  });
});

describe('observeRun: LOW regression findings', () => {
  const withFindings = (...findings: ReturnType<typeof finding>[]) => {
    const report = buildPassedReport();
    report.regression = buildRegression({ findings });
    return observeRun(report, true);
  };

  it('makes no quality breach of a LOW regression finding, alone or beside others', () => {
    const similarity = finding({ kind: 'SIMILARITY_DROPPED', severity: 'LOW', message: 'q1: 0.23, usually 0.5' });
    const rank = finding({ kind: 'RANK_DROPPED', severity: 'LOW', message: 'q1: /docs/a out of the top 5' });
    const orphaned = finding({ kind: 'COVERAGE_NEWLY_ORPHANED', severity: 'LOW', message: '/old' });
    expect(withFindings(similarity, rank, orphaned).quality).toEqual([]);
    const shift = finding({ kind: 'SCORE_SHIFT', severity: 'HIGH', message: 'shift' });
    expect(withFindings(similarity, shift).quality).toEqual([
      { kind: 'SCORE_SHIFT', severity: 'HIGH', summary: 'shift' },
    ]);
    // The same kind at MEDIUM is a breach.
    const medium = finding({ kind: 'RANK_DROPPED', severity: 'MEDIUM', message: 'q2 out' });
    expect(withFindings(medium).quality).toEqual([{ kind: 'RANK_DROPPED', severity: 'MEDIUM', summary: 'q2 out' }]);
  });

  it('still makes a LOW breached criterion and a LOW finding for the suite maintainer breaches', () => {
    const report = buildPassedReport();
    const criterion = report.success_criteria[0];
    if (criterion) Object.assign(criterion, { passed: false, severity: 'LOW' });
    report.regression = buildRegression({
      findings: [
        finding({ kind: 'NEW_QUERY_FAILING', severity: 'LOW', message: 'q9 new', addressed_to: 'suite maintainer' }),
      ],
    });
    const observed = observeRun(report, true);
    expect(observed.quality?.map((b) => b.severity)).toEqual(['LOW']);
    expect(observed.suite).toEqual([{ kind: 'NEW_QUERY_FAILING', severity: 'LOW', summary: 'q9 new' }]);
  });
});

describe('observeRun: the breaches’ facts', () => {
  it('says why the run failed and that the report was not stored', () => {
    const report = buildErrorReport();
    expect(observeRun(report, false).infrastructure).toEqual([
      { kind: 'RUN_ERROR', severity: 'MEDIUM', summary: `run ERROR: ${report.status_reason}` },
      { kind: 'REPORT_NOT_STORED', severity: 'HIGH', summary: 'the report could not be stored' },
    ]);
  });

  it('writes a breached ceiling with ">" and its unit, a figure that could not be computed as n/a, a ratio bare', () => {
    const report = buildPassedReport();
    const base = report.success_criteria[0];
    if (!base) throw new Error('fixture has criteria');
    report.success_criteria = [
      { ...base, name: 'max_p95_latency_ms', value: 812.345, threshold: 500, comparator: '<=', passed: false },
      { ...base, name: 'pass_rate', value: null, threshold: 90, comparator: '>=', passed: false },
      { ...base, name: 'mrr', value: 0.4, threshold: 0.5, comparator: '>=', passed: false },
      { ...base, name: 'coverage', value: 100, threshold: 100, comparator: '>=', passed: true },
    ];
    expect(observeRun(report, true).quality?.map((b) => b.summary)).toEqual([
      'max p95 latency ms 812.35 ms > 500 ms',
      'pass rate n/a < 90%',
      'mrr 0.4 < 0.5',
    ]);
  });

  it('writes a pass rate no query completed for as n/a, whatever figure the criterion holds, and only the pass rate', () => {
    const report = buildPassedReport();
    const base = report.success_criteria[0];
    if (!base) throw new Error('fixture has criteria');
    report.success_criteria = [
      { ...base, name: 'pass_rate', value: 0, threshold: 90, comparator: '>=', passed: false },
      { ...base, name: 'mrr', value: 0, threshold: 0.5, comparator: '>=', passed: false },
    ];
    report.passed_queries = 0;
    report.failed_queries = 0;
    expect(observeRun(report, true).quality?.map((b) => b.summary)).toEqual([
      'pass rate n/a < 90% (no query completed)',
      'mrr 0 < 0.5',
    ]);
    // One passed and one failed (their difference 0): a figure, 50 %.
    report.success_criteria = [
      { ...base, name: 'pass_rate', value: 50, threshold: 90, comparator: '>=', passed: false },
    ];
    report.passed_queries = 1;
    report.failed_queries = 1;
    expect(observeRun(report, true).quality?.map((b) => b.summary)).toEqual(['pass rate 50% < 90%']);
  });

  it('keeps one breach per kind: the first one’s summary, the worst severity', () => {
    const report = buildPassedReport();
    const f =
      (kind: 'QUERY_REGRESSED' | 'RANK_DROPPED' | 'SIMILARITY_DROPPED' | 'COVERAGE_NEWLY_MISSING') =>
      (severity: 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL', message: string) =>
        finding({ kind, severity, message });
    report.regression = buildRegression({
      findings: [
        f('QUERY_REGRESSED')('MEDIUM', 'first a'),
        f('QUERY_REGRESSED')('HIGH', 'second a'),
        f('RANK_DROPPED')('MEDIUM', 'first b'),
        f('RANK_DROPPED')('HIGH', 'second b'),
        f('SIMILARITY_DROPPED')('HIGH', 'first c'),
        f('SIMILARITY_DROPPED')('CRITICAL', 'second c'),
        f('COVERAGE_NEWLY_MISSING')('CRITICAL', 'first d'),
        f('COVERAGE_NEWLY_MISSING')('MEDIUM', 'second d'),
      ],
    });
    expect(observeRun(report, true).quality).toEqual([
      { kind: 'QUERY_REGRESSED', severity: 'HIGH', summary: 'first a' },
      { kind: 'RANK_DROPPED', severity: 'HIGH', summary: 'first b' },
      { kind: 'SIMILARITY_DROPPED', severity: 'CRITICAL', summary: 'first c' },
      { kind: 'COVERAGE_NEWLY_MISSING', severity: 'CRITICAL', summary: 'first d' },
    ]);
  });

  it('sends rot addressed to the suite maintainer to the suite track, and names a dropped metric only for METRIC_DROPPED', () => {
    const report = buildPassedReport();
    report.regression = buildRegression({
      findings: [
        finding({ kind: 'SUITE_STALE', severity: 'LOW', message: 'q1 stale', addressed_to: 'suite maintainer' }),
        finding({ kind: 'SCORE_SHIFT', severity: 'HIGH', message: 'shift', metric: 'best_similarity_distribution' }),
        finding({ kind: 'METRIC_DROPPED', severity: 'MEDIUM', message: 'no metric named' }),
      ],
      stale_queries: ['q1'],
    });
    const observed = observeRun(report, true);
    expect(observed.suite).toEqual([{ kind: 'SUITE_STALE', severity: 'LOW', summary: 'q1 stale' }]);
    expect(observed.quality?.map((b) => b.kind)).toEqual(['SCORE_SHIFT', 'METRIC_DROPPED']);
  });
});

describe('observeRun: confirmation and suite changes', () => {
  it('opens nothing for regressions awaiting confirmation, but still for a breached criterion', () => {
    const report = buildPassedReport();
    report.regression = buildRegression({
      findings: [finding({ kind: 'SCORE_SHIFT', severity: 'HIGH', message: 'fell' })],
      awaiting_confirmation: true,
    });
    expect(observeRun(report, true).quality).toEqual([]);
    report.regression.awaiting_confirmation = false;
    expect(observeRun(report, true).quality?.map((b) => b.kind)).toEqual(['SCORE_SHIFT']);
  });

  it('sends NEW_QUERY_FAILING to the suite track, and a pass-rate breach only new queries cause nowhere', () => {
    const report = buildPassedReport();
    const [first, second] = report.query_results;
    if (!first || !second) throw new Error('fixture has two queries');
    second.status = 'FAIL';
    report.success_criteria = [
      {
        ...(report.success_criteria[0] as (typeof report.success_criteria)[number]),
        name: 'pass_rate',
        passed: false,
        value: 50,
        threshold: 90,
        comparator: '>=',
      },
    ];
    report.regression = buildRegression({
      findings: [
        finding({
          kind: 'NEW_QUERY_FAILING',
          severity: 'LOW',
          message: 'new',
          addressed_to: 'suite maintainer',
          query_id: second.id,
        }),
      ],
    });
    const observed = observeRun(report, true);
    expect(observed.suite?.map((b) => b.kind)).toEqual(['NEW_QUERY_FAILING']);
    expect(observed.quality).toEqual([]);
    first.status = 'FAIL';
    expect(observeRun(report, true).quality?.map((b) => b.kind)).toEqual(['criterion:pass_rate']);
  });

  describe('a pass-rate breach with new failing queries set aside (onlyNewQueries)', () => {
    /** A report of `statuses` (one query each, ids q0, q1, ...) whose pass-rate criterion at `threshold` failed. */
    function withNew(
      statuses: ('PASS' | 'FAIL')[],
      options: { threshold: number; added: number[]; stale?: number[]; name?: string },
    ) {
      const report = buildPassedReport();
      const template = report.query_results[0];
      if (!template) throw new Error('fixture has a query');
      report.query_results = statuses.map((status, i) => ({ ...structuredClone(template), id: `q${i}`, status }));
      report.success_criteria = [
        {
          ...(report.success_criteria[0] as (typeof report.success_criteria)[number]),
          name: options.name ?? 'pass_rate',
          passed: false,
          value: 10,
          threshold: options.threshold,
          comparator: '>=',
        },
      ];
      report.regression = buildRegression({
        stale_queries: (options.stale ?? []).map((i) => `q${i}`),
        findings: options.added.map((i) =>
          finding({
            kind: 'NEW_QUERY_FAILING',
            severity: 'LOW',
            message: `q${i} new`,
            addressed_to: 'suite maintainer',
            query_id: `q${i}`,
          }),
        ),
      });
      return observeRun(report, true).quality?.map((b) => b.kind);
    }

    it('judges the pass rate of the other queries against the threshold, on both sides of it', () => {
      // Without the new q2: 1 of 2 pass, 50 %.
      expect(withNew(['PASS', 'FAIL', 'FAIL'], { threshold: 50, added: [2] })).toEqual([]);
      expect(withNew(['PASS', 'FAIL', 'FAIL'], { threshold: 50.01, added: [2] })).toEqual(['criterion:pass_rate']);
    });

    it('leaves stale queries out of that pass rate too', () => {
      // q1 stale and q2 new: q0 alone passes, 100 %; with q1 counted, 50 %.
      expect(withNew(['PASS', 'FAIL', 'FAIL'], { threshold: 90, added: [2], stale: [1] })).toEqual([]);
      expect(withNew(['PASS', 'FAIL', 'FAIL'], { threshold: 90, added: [2] })).toEqual(['criterion:pass_rate']);
    });

    it('sets the breach aside when every query is new, and keeps it when none is', () => {
      expect(withNew(['FAIL', 'FAIL'], { threshold: 90, added: [0, 1] })).toEqual([]);
      expect(withNew(['PASS', 'FAIL'], { threshold: 90, added: [] })).toEqual(['criterion:pass_rate']);
    });

    it('sets aside only the queries NEW_QUERY_FAILING names, not those other findings name', () => {
      // q1 fails and is named by QUERY_REGRESSED, q2 is new: q0 and q1 remain, 50 % < 90 %, the breach stays.
      const report = buildPassedReport();
      const template = report.query_results[0];
      if (!template) throw new Error('fixture has a query');
      report.query_results = (['PASS', 'FAIL', 'FAIL'] as const).map((status, i) => ({
        ...structuredClone(template),
        id: `q${i}`,
        status,
      }));
      report.success_criteria = [
        {
          ...(report.success_criteria[0] as (typeof report.success_criteria)[number]),
          name: 'pass_rate',
          passed: false,
          value: 33.33,
          threshold: 90,
          comparator: '>=',
        },
      ];
      report.regression = buildRegression({
        findings: [
          finding({ kind: 'QUERY_REGRESSED', severity: 'MEDIUM', message: 'q1 regressed', query_id: 'q1' }),
          finding({
            kind: 'NEW_QUERY_FAILING',
            severity: 'LOW',
            message: 'q2 new',
            addressed_to: 'suite maintainer',
            query_id: 'q2',
          }),
        ],
      });
      expect(observeRun(report, true).quality?.map((b) => b.kind)).toEqual(['criterion:pass_rate', 'QUERY_REGRESSED']);
    });

    it('keeps another criterion breached, whatever the new queries', () => {
      expect(withNew(['PASS', 'FAIL'], { threshold: 0.9, added: [1], name: 'min_mrr' })).toEqual(['criterion:min_mrr']);
    });
  });
});
