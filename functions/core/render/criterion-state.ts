/**
 * Whether a success criterion was evaluated, for every place a person reads the report (the terminal summary, the
 * HTML). A criterion whose figure could not be computed is stored as breached with a null value (so a nightly
 * wrapper never reads it as a pass), but shown as a figure it would read as a measurement: "pass_rate 0 (CRITICAL)"
 * when every query errored says the index rotted, while the truth is that nothing was measured.
 */
import type { CriterionResult } from '../report/findings.ts';
import type { ValidationReport } from '../report/report.ts';

/** Why `c` was not evaluated on this run, or null when its value is a measurement. */
export function notEvaluatedReason(
  report: Pick<ValidationReport, 'passed_queries' | 'failed_queries' | 'total_queries'>,
  c: Pick<CriterionResult, 'name' | 'value'>,
): string | null {
  if (c.value === null) return 'its input could not be read';
  // The pass rate counts ERROR queries in its denominator: with none judged, its 0 is a count of errors, not a rate.
  if (c.name === 'pass_rate' && report.total_queries > 0 && report.passed_queries + report.failed_queries === 0)
    return 'no query completed';
  return null;
}
