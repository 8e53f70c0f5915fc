/**
 * A stale query (SUITE_STALE) does not count as a retrieval failure: the pass-rate criterion is judged again over
 * the other queries, and the run's status follows. The query's own result keeps its FAIL and its reason (the
 * report stays true to what retrieval returned); only the verdict on the index changes.
 */
import { criteriaErrors, decideRunStatus } from '../criteria/criteria.ts';
import type { ValidationReport } from '../report/report.ts';

/** The report with the pass-rate criterion re-judged without the stale failing queries; unchanged when none. */
export function discountStaleQueries(
  report: ValidationReport,
  stale: ReadonlySet<string>,
  newId: () => string,
): ValidationReport {
  const setAside = report.query_results.filter((q) => stale.has(q.id) && q.status === 'FAIL');
  const criterion = report.success_criteria.find((c) => c.name === 'pass_rate');
  if (setAside.length === 0 || !criterion || report.status === 'ERROR') return report;
  const counted = report.query_results.length - setAside.length;
  const passed = report.query_results.filter((q) => q.status === 'PASS').length;
  const value = counted === 0 ? null : Math.round((passed / counted) * 10_000) / 100;
  const rejudged = {
    ...criterion,
    description: `${criterion.description}; ${setAside.length} stale quer${setAside.length === 1 ? 'y' : 'ies'} set aside (regression.stale_queries)`,
    value,
    passed: value !== null && value >= criterion.threshold,
  };
  const criteria = report.success_criteria.map((c) => (c === criterion ? rejudged : c));
  const others = report.errors.filter(
    (e) => !(e.error_type === 'CRITERION_BREACHED' && e.details.criterion === 'pass_rate'),
  );
  const { status, statusReason } = decideRunStatus([], criteria);
  return {
    ...report,
    status,
    status_reason: statusReason,
    success_criteria: criteria,
    errors: [...others, ...criteriaErrors([rejudged], report.run_id, newId)],
  };
}
