/**
 * The post-run use case's first step: read the history through its port and compare (regression/). Reading history
 * is best effort: when it fails, the run still gets its report, with a regression section that says it was not
 * compared and why.
 */
import { HISTORY_RUNS } from '../history/baseline.ts';
import type { RunHistory } from '../ports.ts';
import { compareWithHistory } from '../regression/compare-with-history.ts';
import type { ValidationReport } from '../report/report.ts';
import { describeError } from '../shared/errors.ts';

/** The report with its regression section, and why history could not be read (null when it could). */
export async function compareWithStoredHistory(
  report: ValidationReport,
  history: RunHistory,
  /** Kept for the composition roots' calls; the comparison itself makes no finding id. */
  _newId?: () => string,
): Promise<{ report: ValidationReport; historyError: string | null }> {
  try {
    const runs = await history.recentRuns({
      collection: report.collection,
      environment: report.environment,
      limit: HISTORY_RUNS,
      before: report.timestamp,
    });
    return { report: compareWithHistory(report, runs), historyError: null };
  } catch (error) {
    return { report: compareWithHistory(report, null), historyError: describeError(error) };
  }
}
