/**
 * What the post-run use case (finish-run.ts) needs from outside. Each root plugs in its own: the Lambda S3,
 * CloudWatch, SNS emails and its logger, each call within a bound of its own; the CLI the report folder, no metrics
 * and lines on stderr. The history and the incident state are the core's own ports (../ports.ts).
 */
import type { AlertMessage } from '../delivery/alert-message.ts';
import type { Notice } from '../incident/advance-incidents.ts';
import type { IncidentStore, RunHistory } from '../ports.ts';
import type { ReportAttachment } from '../render/attachments.ts';
import type { RunsPageRow } from '../render/html/runs-page.ts';
import type { Severity } from '../report/findings.ts';
import type { ValidationReport } from '../report/report.ts';

/** What every store says of a report it archived: where it is (a path, an s3:// URI), and its HTML's when stored. */
export interface StoredReport {
  location: string;
  htmlLocation: string | null;
}

/** Where finished reports go (the report folder, S3). `S` is what the store says of an archived report. */
export interface ReportSink<S extends StoredReport> {
  /** The dated report and its attachments: the copy that must not be lost, so its failure throws. */
  saveArchive(report: ValidationReport, attachments: ReportAttachment[]): Promise<S>;
  /** latest.json and its attachments, what a person opens first: a convenience, so its failure is only logged. */
  saveLatest(report: ValidationReport, attachments: ReportAttachment[]): Promise<void>;
  /**
   * The page of past runs (<collection>/index.html): `render` turns the last runs the sink knows (a bounded read:
   * the run index, never a listing) into the page. Optional: a sink without one writes no page. A convenience, so
   * its failure is only logged.
   */
  saveRunsPage?(report: ValidationReport, render: (runs: RunsPageRow[]) => string): Promise<void>;
}

export interface PublishedMetrics {
  namespace: string;
  datums: number;
  calls: number;
}

/** Where a run's figures go (CloudWatch). `name` names the sink in the emails when it fails. */
export interface MetricsSink {
  readonly name: string;
  publish(report: ValidationReport): Promise<PublishedMetrics>;
}

/** The metrics sink of a root that publishes none (the CLI): nothing sent, nothing to fail. */
export const NO_METRICS: MetricsSink = {
  name: 'no metrics',
  publish: async () => ({ namespace: '', datums: 0, calls: 0 }),
};

/** The headline of the run before this one, for the run alert's "since when". */
export interface PreviousRun {
  runId: string;
  status: string;
  startedAt: string;
}

export type SinkOutcome<T> = { ok: true; value: T } | { ok: false; error: string };

/** What a run's messages are made of: the report, where it went, what else failed, and the run before it. */
export interface Delivery<S extends StoredReport> {
  report: ValidationReport;
  stored: SinkOutcome<S>;
  /** Other sinks that failed this run (the metrics), each with a one-line reason. */
  failedSinks: { sink: string; reason: string }[];
  /** The run before this one: null when there was none, undefined when it could not be read. */
  previous: PreviousRun | null | undefined;
}

/** The labels a message travels with (SNS message attributes, for subscription filters). */
interface MessageLabels {
  collection: string;
  environment: string;
  kind?: string;
  track?: string;
}

/** Where a run's notices go: emails through SNS in the Lambda, lines on stderr in the CLI. */
export interface Notifier<S extends StoredReport> {
  /** The message for one incident notice (onset, reopened, escalation, reminder, recovery). */
  composeNotice(notice: Notice, delivery: Delivery<S>): AlertMessage;
  /** The run's own alert, for when the incident state is out of reach; null when nobody needs to hear of the run. */
  composeRunAlert(delivery: Delivery<S>): AlertMessage | null;
  /** Sends one message; throws when it cannot. */
  send(message: AlertMessage, labels: MessageLabels): Promise<{ messageId: string }>;
}

/** One email (or line) a run sent, for the outcome and the log. */
export interface SentNotice {
  kind: string;
  track: string;
  severity: Severity;
  subject: string;
  messageId: string;
}

/** What happened on the way, for the root to log (the Lambda) or print (the CLI), each as it sees fit. */
export type PostRunEvent =
  | { kind: 'history_not_read'; reason: string }
  | { kind: 'compared'; report: ValidationReport }
  | { kind: 'report_not_stored'; reason: string; report: ValidationReport }
  | { kind: 'metrics_not_published'; reason: string }
  | { kind: 'latest_not_updated'; reason: string }
  | { kind: 'runs_page_not_written'; reason: string }
  | { kind: 'incidents_unavailable'; reason: string }
  | { kind: 'incidents_replaced'; reason: string }
  | { kind: 'incidents_not_applied'; reason: string }
  | { kind: 'notice_sent'; notice: SentNotice }
  | { kind: 'notice_not_sent'; reason: string }
  | { kind: 'incidents_not_put_back'; reason: string }
  | { kind: 'run_alert_sent'; severity: Severity; subject: string; messageId: string }
  | { kind: 'run_alert_not_sent'; severity: Severity; subject: string; reason: string }
  | { kind: 'alerts_held'; until: string; reason: string };

export interface PostRunPorts<S extends StoredReport> {
  /** Earlier runs, for the regression section and the trend. */
  history: RunHistory;
  reports: ReportSink<S>;
  metrics: MetricsSink;
  /** The incident state, written conditionally. */
  incidents: IncidentStore;
  notifier: Notifier<S>;
  /** Runs one whole step within the root's backstop (the Lambda: three sink bounds over the alert step). */
  withinStepBound<T>(step: string, run: () => Promise<T>): Promise<T>;
  log(event: PostRunEvent): void;
  newId(): string;
}
