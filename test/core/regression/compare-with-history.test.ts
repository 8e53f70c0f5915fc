import { describe, expect, it } from 'vitest';
import type { RunDigest } from '../../../functions/core/history/run-digest.ts';
import { compareWithHistory } from '../../../functions/core/regression/compare-with-history.ts';
import { buildErrorReport } from '../../nightly/fixtures/reports.ts';
import { BOOK, buildReport, historyOf, hit, query } from './reports.ts';

const compare = (report = buildReport(), history = historyOf(7)) => compareWithHistory(report, history);
const kinds = (report: ReturnType<typeof compare>) => report.regression?.findings.map((f) => f.kind) ?? [];

describe('compareWithHistory: baseline', () => {
  it('says plainly that the first run has no baseline', () => {
    expect(compare(buildReport(), []).regression).toEqual({
      compared: false,
      note: 'no baseline: this is the first run with figures on record, so there is nothing to compare with yet',
      baseline_runs: [],
      findings: [],
      recovered_queries: [],
      stale_queries: [],
      score_shift: null,
      awaiting_confirmation: false,
    });
  });

  it('waits for three runs with figures before comparing', () => {
    expect(compare(buildReport(), historyOf(2)).regression?.note).toBe(
      'no baseline yet: 2 earlier run(s) with figures on record, 3 needed',
    );
    expect(compare(buildReport(), historyOf(3)).regression?.compared).toBe(true);
  });

  it('does not compare a run that could not complete', () => {
    expect(compare(buildErrorReport()).regression?.note).toMatch(/^not compared: the run could not complete/);
  });

  it('says so when the history could not be read', () => {
    expect(compareWithHistory(buildReport(), null).regression?.note).toMatch(/could not be read/);
  });

  it('counts only earlier runs with figures toward a baseline, never ERROR runs', () => {
    const errored = historyOf(2, (r) => {
      r.status = 'ERROR';
    });
    expect(compare(buildReport(), [...errored, ...historyOf(1)]).regression?.note).toBe(
      'no baseline yet: 1 earlier run(s) with figures on record, 3 needed',
    );
    expect(compare(buildReport(), errored).regression?.note).toMatch(/^no baseline: this is the first run/);
  });

  it('says how many runs the baseline is the median of', () => {
    expect(compare(buildReport(), historyOf(4)).regression?.note).toBe(
      'compared with the median of the last 4 PASSED or FAILED runs that were not regressions',
    );
  });

  it('names the seven newest runs it compared with', () => {
    const regression = compare(buildReport(), historyOf(9)).regression;
    expect(regression?.baseline_runs).toHaveLength(7);
    expect(regression?.baseline_runs[0]).toEqual({
      run_id: '00000000-0000-4000-8000-000000000000',
      status: 'PASSED',
      started_at: '2026-03-13T02:00:00.000Z',
      location: 's3://b/00000000-0000-4000-8000-000000000000.json',
    });
  });

  it('finds nothing when the run looks like its history', () => {
    const regression = compare().regression;
    expect(regression?.findings).toEqual([]);
    expect(regression?.score_shift).toMatchObject({ statistic: 0, p_value: 1 });
  });
});

describe('compareWithHistory: queries', () => {
  it('reports a query that passed in the baseline and fails now as QUERY_REGRESSED', () => {
    const report = buildReport();
    query(report, 'q2').status = 'FAIL';
    expect(compare(report).regression?.findings).toContainEqual(
      expect.objectContaining({ kind: 'QUERY_REGRESSED', query_id: 'q2', severity: 'MEDIUM' }),
    );
  });

  it('lists a query that failed in the baseline and passes now as recovered', () => {
    const history = historyOf(7, (r) => {
      query(r, 'q3').status = 'FAIL';
    });
    const regression = compare(buildReport(), history).regression;
    expect(regression?.recovered_queries).toEqual(['q3']);
    expect(kinds(compare(buildReport(), history))).not.toContain('QUERY_REGRESSED');
  });

  it('reports an expected page gone from the top results as RANK_DROPPED', () => {
    const report = buildReport();
    query(report, 'q1').top_results = [hit(1, `${BOOK}/docs/other`)];
    expect(compare(report).regression?.findings).toContainEqual(
      expect.objectContaining({ kind: 'RANK_DROPPED', query_id: 'q1', value: null, baseline: 1 }),
    );
  });

  it('reports a fall of four places but not of three', () => {
    const at = (rank: number) => {
      const report = buildReport();
      const filler = Array.from({ length: rank - 1 }, (_, i) => hit(i + 1, `${BOOK}/docs/f${i}`));
      query(report, 'q1').top_results = [...filler, hit(rank, `${BOOK}/docs/intro`)];
      return kinds(compare(report));
    };
    expect(at(4)).not.toContain('RANK_DROPPED');
    expect(at(5)).toContain('RANK_DROPPED');
  });

  it('reports a best similarity below its baseline by more than 0.05, not by 0.05 exactly', () => {
    const at = (drop: number) => {
      const report = buildReport();
      query(report, 'q1').best_similarity = 0.75 - drop + 0.05;
      return kinds(compare(report));
    };
    expect(at(0.05)).not.toContain('SIMILARITY_DROPPED');
    expect(at(0.051)).toContain('SIMILARITY_DROPPED');
  });
});

describe('compareWithHistory: run figures', () => {
  it('reports MRR beyond its band with value, baseline and band (floored at 1/N: ten queries, 0.1)', () => {
    const report = buildReport();
    report.validation_metrics.mrr = 0.89;
    expect(compare(report).regression?.findings).toContainEqual(
      expect.objectContaining({ kind: 'METRIC_DROPPED', metric: 'mrr', value: 0.89, baseline: 1, band: 0.1 }),
    );
  });

  it('leaves MRR inside its band alone', () => {
    const report = buildReport();
    report.validation_metrics.mrr = 0.9;
    expect(kinds(compare(report))).not.toContain('METRIC_DROPPED');
  });

  it('reports latency only past four times its usual value (a rise of 3 x 60 ms), and at LOW severity', () => {
    const at = (p95: number) => {
      const report = buildReport();
      report.validation_metrics.p95_latency_ms = p95;
      return compare(report).regression?.findings ?? [];
    };
    expect(at(240)).toEqual([]);
    expect(at(240.5)).toEqual([expect.objectContaining({ metric: 'p95_latency_ms', severity: 'LOW' })]);
  });

  it('reports best similarities that all fell against their own baselines as SCORE_SHIFT with its paired test', () => {
    const report = buildReport();
    for (const [i, q] of report.query_results.entries())
      q.best_similarity = (q.best_similarity ?? 0) - 0.03 - i * 0.001;
    const regression = compare(report).regression;
    expect(regression?.findings).toContainEqual(expect.objectContaining({ kind: 'SCORE_SHIFT', severity: 'HIGH' }));
    expect(regression?.score_shift).toMatchObject({
      test: 'Wilcoxon signed-rank, paired, one-sided (fell)',
      statistic: 0,
      pairs: 10,
      p_value: 1 / 1024,
    });
  });

  it('keeps the test of a whole-distribution rise but does not call it a SCORE_SHIFT', () => {
    const report = buildReport();
    for (const q of report.query_results) q.best_similarity = (q.best_similarity ?? 0) + 0.1;
    const regression = compare(report).regression;
    expect(regression?.score_shift?.median_shift).toBeCloseTo(0.1, 5);
    expect(regression?.findings.map((f) => f.kind)).not.toContain('SCORE_SHIFT');
  });

  it('does not call a shift of the median under 0.02 a SCORE_SHIFT, however significant', () => {
    const report = buildReport();
    for (const q of report.query_results) q.best_similarity = (q.best_similarity ?? 0) - 0.0199;
    expect(kinds(compare(report))).not.toContain('SCORE_SHIFT');
  });

  it('does not call a few queries dropping a SCORE_SHIFT', () => {
    const report = buildReport();
    for (const id of ['q1', 'q2']) query(report, id).best_similarity = 0.2;
    expect(kinds(compare(report))).not.toContain('SCORE_SHIFT');
  });
});

describe('compareWithHistory: coverage', () => {
  it('reports sitemap URLs newly missing and indexed URLs newly orphaned', () => {
    const report = buildReport();
    const coverage = report.coverage_report;
    if (!coverage) throw new Error('fixture has coverage');
    coverage.missing_urls = [`${BOOK}/docs/new-page`];
    coverage.extra_urls = [`${BOOK}/docs/old-page`];
    const findings = compare(report).regression?.findings ?? [];
    expect(findings).toContainEqual(
      expect.objectContaining({ kind: 'COVERAGE_NEWLY_MISSING', urls: [`${BOOK}/docs/new-page`] }),
    );
    expect(findings).toContainEqual(
      expect.objectContaining({ kind: 'COVERAGE_NEWLY_ORPHANED', urls: [`${BOOK}/docs/old-page`], severity: 'LOW' }),
    );
  });

  it('does not report a gap the baseline already had', () => {
    const gap = `${BOOK}/docs/new-page`;
    const history = historyOf(7, (r) => {
      if (r.coverage_report) r.coverage_report.missing_urls = [gap];
    });
    const report = buildReport();
    if (report.coverage_report) report.coverage_report.missing_urls = [gap];
    expect(kinds(compare(report, history))).toEqual([]);
  });
});

describe('compareWithHistory: noise and persistent faults', () => {
  const lowered = (by: number) => {
    const report = buildReport();
    for (const [i, q] of report.query_results.entries()) q.best_similarity = (q.best_similarity ?? 0) - by - i * 0.001;
    return report;
  };

  it('holds a regression that breaches no criterion until the next run confirms it', () => {
    // -0.03 on 0.75 (-4 %): a shift, and not yet a drift (CUSUM 3 % < 4 %), which would need no confirmation.
    const first = compare(lowered(0.03)).regression;
    expect(first?.findings.map((f) => f.kind)).toContain('SCORE_SHIFT');
    expect(first?.awaiting_confirmation).toBe(true);
    expect(first?.note).toMatch(/awaiting confirmation/);
    const confirmed = compare(
      lowered(0.03),
      historyOf(8).map((d, i) => (i === 0 ? { ...d, regressed: true } : d)),
    ).regression;
    expect(confirmed?.awaiting_confirmation).toBe(false);
  });

  it('pages on the first night when a criterion is breached', () => {
    const report = lowered(0.1);
    const criterion = report.success_criteria[0];
    if (!criterion) throw new Error('fixture has criteria');
    criterion.passed = false;
    expect(compare(report).regression?.awaiting_confirmation).toBe(false);
  });

  it('awaits nothing when nothing alerts', () => {
    expect(compare().regression?.awaiting_confirmation).toBe(false);
  });

  it('keeps comparing with the baseline from before the onset while the fault lasts', () => {
    // Seven nights of the fault, each judged a regression: the baseline is still the seven clean nights before.
    const faulty = historyOf(7, (r) => {
      for (const q of r.query_results) q.best_similarity = (q.best_similarity ?? 0) - 0.1;
    }).map((d) => ({ ...d, regressed: true }));
    const clean = historyOf(7).map((d) => ({ ...d, startedAt: `2026-02-0${d.startedAt.slice(9, 10)}T02:00:00.000Z` }));
    const regression = compare(lowered(0.1), [...faulty, ...clean]).regression;
    expect(regression?.findings.map((f) => f.kind)).toContain('SCORE_SHIFT');
    expect(regression?.baseline_runs.map((r) => r.started_at)).toEqual(clean.map((d) => d.startedAt));
  });

  it('reports a query flipping back and forth as FLAKY, not QUERY_REGRESSED, and alerts nothing for it', () => {
    const report = buildReport();
    query(report, 'q1').status = 'FAIL';
    const history = historyOf(7, () => {}).map((d, i) =>
      i === 1
        ? {
            ...d,
            queries: {
              ...d.queries,
              q1: { ...(d.queries.q1 as RunDigest['queries'][string]), status: 'FAIL' as const },
            },
          }
        : d,
    );
    const regression = compare(report, history).regression;
    expect(regression?.findings.map((f) => f.kind)).toEqual(['FLAKY']);
    expect(regression?.awaiting_confirmation).toBe(false);
  });

  it('reports a new query that fails as NEW_QUERY_FAILING for the suite maintainer, and judges the run figures without it', () => {
    const report = buildReport();
    const added = structuredClone(query(report, 'q1'));
    added.id = 'q-new';
    added.status = 'FAIL';
    added.best_similarity = 0.1;
    report.query_results.push(added);
    report.validation_metrics.avg_similarity = 0.1;
    const regression = compare(report).regression;
    expect(regression?.findings).toEqual([
      expect.objectContaining({ kind: 'NEW_QUERY_FAILING', addressed_to: 'suite maintainer', query_id: 'q-new' }),
    ]);
    expect(regression?.note).toMatch(/over the 10 queries they share unchanged/);
  });
});
