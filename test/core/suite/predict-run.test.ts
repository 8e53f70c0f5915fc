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
});
