/** What the post-run use case hands back: the report as compared, and what became of each sink. */
import type { Severity } from '../report/findings.ts';
import type { ValidationReport } from '../report/report.ts';
import type { PublishedMetrics, SentNotice, SinkOutcome, StoredReport } from './ports.ts';

/** The alert step's outcome: nothing due, the emails sent (one per notice), or why sending failed. */
export type AlertOutcome = SinkOutcome<
  | { sent: false }
  | {
      sent: true;
      messageId: string;
      severity: Severity;
      /** One per incident notice this run sent (onset, reopened, escalation, reminder, recovery); absent for the run alert. */
      emails?: SentNotice[];
    }
>;

export interface PostRunSinks {
  report: SinkOutcome<{ location: string; latestUpdated: boolean; htmlLocation?: string }>;
  metrics: SinkOutcome<PublishedMetrics>;
  alert: AlertOutcome;
}

export interface PostRunOutcome<S extends StoredReport> {
  /** The report with its regression section: what was stored, sent and is to be shown. */
  report: ValidationReport;
  /** What the store said of the archived report, or why it could not store it. */
  stored: SinkOutcome<S>;
  sinks: PostRunSinks;
}

/** True when nothing a person reads holds the run's findings: the report was not stored and no alert went out. */
export function deliveredNothing(sinks: PostRunSinks): boolean {
  return !sinks.report.ok && !(sinks.alert.ok && sinks.alert.value.sent);
}
