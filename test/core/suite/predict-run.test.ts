/** calibrate's prediction, read from the report of the suite run at the proposed thresholds. */
import { describe, expect, it } from 'vitest';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import { formatPrediction, predictRun } from '../../../functions/core/suite/predict-run.ts';

type Row = { id: string; status: string; fail_reason: string | null; best: number | null; threshold?: number };

function report(rows: Row[], passRate: number, minPassRate = 90, setAside: string[] = []): ValidationReport {
  const passed = rows.filter((r) => r.status === 'PASS').length;
  return {
    suite: {
      name: 's',
      source: 's.json',
      query_count: rows.length,
      ...(setAside.length > 0 ? { set_aside: setAside.map((id) => ({ id, reason: 'calibrate: ...' })) } : {}),
    },
    status: passRate >= minPassRate ? 'PASSED' : 'FAILED',
    pass_rate: passRate,
    passed_queries: passed,
    total_queries: rows.length,
    query_results: rows.map((r) => ({
      id: r.id,
      status: r.status,
      fail_reason: r.fail_reason,
      best_similarity: r.best,
      query: r.threshold === undefined ? {} : { min_similarity: r.threshold },
    })),
    success_criteria: [
      {
        name: 'pass_rate',
        description: 'pass rate',
        value: passRate,
        threshold: minPassRate,
        comparator: '>=',
        passed: passRate >= minPassRate,
        severity: 'HIGH',
      },
    ],
  } as unknown as ValidationReport;
}

describe('predictRun', () => {
  const rows: Row[] = [
    { id: 'a', status: 'PASS', fail_reason: null, best: 0.5, threshold: 0.3 },
    { id: 'b', status: 'PASS', fail_reason: null, best: 0.31, threshold: 0.3 },
    { id: 'c', status: 'FAIL', fail_reason: 'best similarity 0.29 < 0.3', best: 0.29, threshold: 0.3 },
    { id: 'd', status: 'PASS', fail_reason: null, best: 0.32, threshold: 0.3 },
    { id: 'e', status: 'ERROR', fail_reason: null, best: null, threshold: 0.3 },
  ];

  it('gives the pass rate, each failure with its reason, and the queries within 0.02 of their threshold', () => {
    const p = predictRun(report(rows, 60));
    expect(p).toMatchObject({ passRate: 60, passed: 3, total: 5, status: 'FAILED', minPassRate: 90 });
    expect(p.failures).toEqual([
      { id: 'c', reason: 'best similarity 0.29 < 0.3' },
      { id: 'e', reason: 'ERROR' },
    ]);
    // 0.31 and 0.29 are within 0.02; 0.32 is not (0.02 away, pinned on both sides).
    expect(p.near.map((n) => [n.id, n.side])).toEqual([
      ['b', 'over'],
      ['c', 'under'],
    ]);
    expect(p.breached).toEqual(['pass_rate 60 < 90']);
    expect(p.warning).toContain("under the suite's min_pass_rate 90 %");
  });

  it('warns only under min_pass_rate, not at it', () => {
    expect(predictRun(report(rows, 90)).warning).toBeNull();
    expect(predictRun(report(rows, 89.99)).warning).not.toBeNull();
  });

  it('prints the predicted pass rate in the form the day-one walk reads', () => {
    const text = formatPrediction(predictRun(report(rows, 60)));
    expect(text).toMatch(/^Predicted pass rate at these thresholds: 60 % \(3\/5\); the run would be FAILED/);
    expect(text).toContain('would fail c: best similarity 0.29 < 0.3');
    expect(text).toContain('b: best 0.3100 >= 0.3');
  });

  it('says how many queries the suite sets aside, outside the counts, and nothing when none is', () => {
    const aside = predictRun(report(rows, 60, 90, ['x', 'y']));
    expect(aside.setAside).toBe(2);
    expect(formatPrediction(aside)).toMatch(
      /^Predicted pass rate at these thresholds: 60 % \(3\/5; 2 set aside, not counted\);/,
    );
    expect(predictRun(report(rows, 60)).setAside).toBe(0);
  });

  it('lists a query exactly at its threshold as over it, one exactly 0.02 away not at all, and none without a result', () => {
    const p = predictRun(
      report(
        [
          { id: 'at', status: 'PASS', fail_reason: null, best: 0.3, threshold: 0.3 },
          // 0.04 - 0.02 is exactly 0.02 in floating point (0.32 - 0.3 is not).
          { id: 'gap', status: 'PASS', fail_reason: null, best: 0.04, threshold: 0.02 },
          { id: 'none', status: 'FAIL', fail_reason: 'no results', best: null, threshold: 0.01 },
        ],
        66.67,
      ),
    );
    expect(p.near).toEqual([{ id: 'at', best: 0.3, threshold: 0.3, side: 'over' }]);
  });

  it('reads min_pass_rate from the pass_rate criterion wherever it is, and lists only the breached criteria', () => {
    // Prepare: a passing latency criterion first, a breached orphan count that could not be read, then pass_rate.
    const base = report(rows, 60);
    const latency = { name: 'p95_latency_ms', value: 120, threshold: 340, comparator: '<=', passed: true };
    const orphans = { name: 'orphan_urls', value: null, threshold: 0, comparator: '<=', passed: false };
    const r = { ...base, success_criteria: [latency, orphans, ...base.success_criteria] } as ValidationReport;

    // Act
    const p = predictRun(r);

    // Assess
    expect([p.minPassRate, p.breached]).toEqual([90, ['orphan_urls n/a > 0', 'pass_rate 60 < 90']]);
  });

  it('gives no min_pass_rate and no warning when the run judged no pass_rate criterion', () => {
    const p = predictRun({ ...report(rows, 60), success_criteria: [] } as unknown as ValidationReport);
    expect([p.minPassRate, p.warning, p.breached]).toEqual([null, null, []]);
  });

  it('prints every line: the figure with the breached criteria, failures, near queries on each side, the warning', () => {
    const r = report(rows, 60);
    const latency = { name: 'p95_latency_ms', value: 412, threshold: 340, comparator: '<=', passed: false };
    const text = formatPrediction(
      predictRun({ ...r, success_criteria: [...r.success_criteria, latency] } as ValidationReport),
    );
    expect(text).toBe(
      [
        'Predicted pass rate at these thresholds: 60 % (3/5); the run would be FAILED (pass_rate 60 < 90; p95_latency_ms 412 > 340)',
        '  would fail c: best similarity 0.29 < 0.3',
        '  would fail e: ERROR',
        '  within 0.02 of their threshold (may tip on another night):',
        '    b: best 0.3100 >= 0.3',
        '    c: best 0.2900 < 0.3',
        "  warning: the predicted pass rate 60 % is under the suite's min_pass_rate 90 %: the first night would fail",
      ].join('\n'),
    );
  });

  it('prints one line for a clean prediction: no breach, failure, near query or warning', () => {
    const clean: Row[] = [{ id: 'a', status: 'PASS', fail_reason: null, best: 0.5, threshold: 0.3 }];
    expect(formatPrediction(predictRun(report(clean, 100)))).toBe(
      'Predicted pass rate at these thresholds: 100 % (1/1); the run would be PASSED',
    );
  });
});
