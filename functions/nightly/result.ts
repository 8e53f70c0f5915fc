/**
 * The invocation's result, and its loud failure. When the report was not stored and no alert was delivered, nothing
 * a person reads holds the run's findings (the metrics alone would even say RunSucceeded = 1 for a PASSED run), so
 * the invocation throws: Lambda counts it in Errors (the FunctionErrors alarm) and, with no async retries, puts the
 * event in the dead-letter queue. A partial delivery returns normally, naming the failed sink: the alert or the
 * stored report already tells ops, and throwing would only add a dead letter for a run whose findings arrived.
 */
import { UNSTORED_REPORT_LOG } from '../core/post-run/emails.ts';
import type { PostRunSinks } from '../core/post-run/outcome.ts';
import type { ValidationReport } from '../core/report/report.ts';

/** The invocation's result: the run and what became of each sink. */
export interface NightlyResult {
  runId: string;
  status: ValidationReport['status'];
  statusReason: string;
  sinks: PostRunSinks;
}

/** Thrown when a run delivered nothing a person reads: neither a stored report nor an alert. */
export class NothingDeliveredError extends Error {
  constructor(runId: string, sinks: PostRunSinks) {
    const why = (s: { ok: boolean; error?: string }) => (s.ok ? 'ok' : s.error);
    const alert = sinks.alert.ok ? 'no alert was due' : `alert not sent (${sinks.alert.error})`;
    super(
      `ragwatch run ${runId} delivered nothing: report not stored (${why(sinks.report)}), ${alert}; ` +
        `metrics: ${why(sinks.metrics)}. The full report is in the log line "${UNSTORED_REPORT_LOG}".`,
    );
    this.name = 'NothingDeliveredError';
  }
}
