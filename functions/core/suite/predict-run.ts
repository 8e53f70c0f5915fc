/**
 * What calibrate predicts of the first night (issue 23 §1): the suite run again with the thresholds calibrate
 * proposes, judged by the run's own judge, gives the pass rate, the status and each failing query with its reason.
 * Printed with the queries within NEAR of their threshold (a night's noise can tip them either way) and a warning
 * when the prediction is under the suite's min_pass_rate. Pure: the CLI runs the suite, this reads the report.
 */
import type { ValidationReport } from '../report/report.ts';

/** A best score this close to its threshold may fall on either side of it on another night. */
const NEAR = 0.02;

export interface RunPrediction {
  passRate: number;
  passed: number;
  total: number;
  status: string;
  /** Success criteria the predicted run breaches: "pass_rate 84.06 < 90". */
  breached: string[];
  failures: { id: string; reason: string }[];
  /** Queries whose best score is within NEAR of their min_similarity. */
  near: { id: string; best: number; threshold: number; side: 'over' | 'under' }[];
  minPassRate: number | null;
  warning: string | null;
  /** Queries the suite sets aside (set_aside): not run, so not in passed/total. */
  setAside: number;
}

/** Reads the prediction from the report of the suite run at the proposed thresholds. */
export function predictRun(report: ValidationReport): RunPrediction {
  const failures = report.query_results
    .filter((r) => r.status !== 'PASS')
    .map((r) => ({ id: r.id, reason: r.fail_reason ?? r.status }));
  const near: RunPrediction['near'] = [];
  for (const r of report.query_results) {
    const threshold = (r.query as { min_similarity?: unknown }).min_similarity;
    if (r.best_similarity === null || typeof threshold !== 'number') continue;
    const gap = r.best_similarity - threshold;
    if (Math.abs(gap) < NEAR)
      near.push({ id: r.id, best: r.best_similarity, threshold, side: gap >= 0 ? 'over' : 'under' });
  }
  const passCriterion = report.success_criteria.find((c) => c.name === 'pass_rate');
  const minPassRate = passCriterion?.threshold ?? null;
  const breached = report.success_criteria
    .filter((c) => !c.passed)
    .map((c) => `${c.name} ${c.value ?? 'n/a'} ${c.comparator === '>=' ? '<' : '>'} ${c.threshold}`);
  return {
    passRate: report.pass_rate,
    passed: report.passed_queries,
    total: report.total_queries,
    status: report.status,
    breached,
    failures,
    near,
    minPassRate,
    setAside: report.suite.set_aside?.length ?? 0,
    warning:
      minPassRate !== null && report.pass_rate < minPassRate
        ? `the predicted pass rate ${report.pass_rate} % is under the suite's min_pass_rate ${minPassRate} %: the first night would fail`
        : null,
  };
}

/** The prediction as lines a person reads. */
export function formatPrediction(p: RunPrediction): string {
  const lines = [
    `Predicted pass rate at these thresholds: ${p.passRate} % (${p.passed}/${p.total}${p.setAside > 0 ? `; ${p.setAside} set aside, not counted` : ''}); the run would be ${p.status}${p.breached.length > 0 ? ` (${p.breached.join('; ')})` : ''}`,
  ];
  for (const f of p.failures) lines.push(`  would fail ${f.id}: ${f.reason}`);
  if (p.near.length > 0) {
    lines.push(`  within ${NEAR} of their threshold (may tip on another night):`);
    for (const n of p.near)
      lines.push(`    ${n.id}: best ${n.best.toFixed(4)} ${n.side === 'over' ? '>=' : '<'} ${n.threshold}`);
  }
  if (p.warning !== null) lines.push(`  warning: ${p.warning}`);
  return lines.join('\n');
}
