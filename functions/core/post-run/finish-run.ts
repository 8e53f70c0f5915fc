/**
 * The post-run use case: what follows a validation run, the same in the Lambda and the CLI; only the ports differ
 * (ports.ts). It never throws: whatever fails, the outcome says which sink and why.
 *
 * What happens, in order:
 * 1. History: the run is compared with the earlier runs (its regression section) while the trend's points are
 *    read, both through the history port. History that cannot be read costs the comparison and the trend only.
 * 2. The report as stored: each coverage URL list cut to its first URLs (render/url-lists.ts), the full lists an
 *    attachment the store gzips as a stream. Attachments: the HTML report (with the trend), the CSV of query rows,
 *    and those full lists when a list was cut.
 * 3. The report is archived and the metrics published, side by side. A report that could not be archived goes to
 *    the log whole (nothing is lost); a metrics sink that failed is named in the messages.
 * 4. The alert step (alert-step.ts), within the root's backstop: incidents settled, one message per notice, or the
 *    run's own alert when the incident state is out of reach; then the page of past runs (runs-page-step.ts) with
 *    the incidents as it left them. Beside them, the latest copies. The copies' and the page's failures are logged.
 * 5. The outcome: the report as compared, what the store said of it, and what became of each sink.
 */
import type { IncidentPolicy } from '../incident/advance-incidents.ts';
import { buildReportAttachments, type ReportAttachment } from '../render/attachments.ts';
import { readTrendHistory } from '../render/read-trend.ts';
import { cutUrlLists } from '../render/url-lists.ts';
import type { ValidationReport } from '../report/report.ts';
import { describeError } from '../shared/errors.ts';
import { sendNotices } from './alert-step.ts';
import { compareWithStoredHistory } from './compare-history.ts';
import type { AlertOutcome, PostRunOutcome } from './outcome.ts';
import type { Delivery, PostRunPorts, PreviousRun, SinkOutcome, StoredReport } from './ports.ts';
import { saveRunsPage, watchIncidents } from './runs-page-step.ts';

export interface FinishRunOptions {
  /** Write the HTML report beside the JSON (the CSV is always written). */
  html: boolean;
  /** When an incident recovers, and how often a reminder goes out. */
  policy: IncidentPolicy;
  /** Where README.md and docs/ are (a URL): the HTML report's "Act on this first" links under it. */
  docsRoot?: string;
}

/** Compares, stores, publishes and notifies for one finished run; never throws. */
export async function finishRun<S extends StoredReport>(
  ports: PostRunPorts<S>,
  run: { report: ValidationReport; previous: PreviousRun | null | undefined },
  options: FinishRunOptions,
): Promise<PostRunOutcome<S>> {
  const trend = readTrendHistory(ports.history, run.report);
  const compared = await compareWithStoredHistory(run.report, ports.history, ports.newId);
  if (compared.historyError !== null) ports.log({ kind: 'history_not_read', reason: compared.historyError });
  const { report, fullLists } = cutUrlLists(compared.report);
  ports.log({ kind: 'compared', report });

  const attachments: ReportAttachment[] = [
    ...buildReportAttachments(report, {
      history: await trend,
      html: options.html,
      ...(options.docsRoot === undefined ? {} : { docsRoot: options.docsRoot }),
    }),
    ...(fullLists === null ? [] : [fullLists]),
  ];
  const [stored, published] = await Promise.all([
    outcomeOf(() => ports.reports.saveArchive(report, attachments)),
    outcomeOf(() => ports.metrics.publish(report)),
  ]);
  if (!stored.ok) ports.log({ kind: 'report_not_stored', reason: stored.error, report });
  if (!published.ok) ports.log({ kind: 'metrics_not_published', reason: published.error });

  const delivery: Delivery<S> = {
    report,
    stored,
    failedSinks: published.ok ? [] : [{ sink: ports.metrics.name, reason: published.error }],
    previous: run.previous,
  };
  // The latest copies and the runs page only beside an archived report: they would otherwise stand for a run that
  // has no archive. The page follows the alert step, to show the incidents as this run left them.
  const incidents = watchIncidents(ports.incidents);
  const [alert, latestUpdated] = await Promise.all([
    alertStep({ ...ports, incidents: incidents.store }, delivery, options.policy).then(async (outcome) => {
      if (stored.ok) await saveRunsPage(ports, report, incidents.last());
      return outcome;
    }),
    stored.ok ? saveLatest(ports, report, attachments) : null,
  ]);
  return {
    report,
    stored,
    sinks: {
      report: stored.ok
        ? {
            ok: true,
            value: {
              location: stored.value.location,
              latestUpdated: latestUpdated === true,
              ...(stored.value.htmlLocation === null ? {} : { htmlLocation: stored.value.htmlLocation }),
            },
          }
        : stored,
      metrics: published,
      alert,
    },
  };
}

/** The latest copies: a convenience, so their failure is logged and reported, never thrown. */
async function saveLatest<S extends StoredReport>(
  ports: PostRunPorts<S>,
  report: ValidationReport,
  attachments: ReportAttachment[],
): Promise<boolean> {
  try {
    await ports.reports.saveLatest(report, attachments);
    return true;
  } catch (error) {
    ports.log({ kind: 'latest_not_updated', reason: describeError(error) });
    return false;
  }
}

/** The alert step within the root's backstop: past it, the step's outcome is that bound's error. */
async function alertStep<S extends StoredReport>(
  ports: PostRunPorts<S>,
  delivery: Delivery<S>,
  policy: IncidentPolicy,
): Promise<AlertOutcome> {
  // A planned maintenance window: no incident moves (so the first run after it opens what is still broken, as an
  // onset) and nothing is sent.
  const window = delivery.report.maintenance;
  if (window !== undefined) {
    ports.log({ kind: 'alerts_held', until: window.until, reason: window.reason });
    return { ok: true, value: { sent: false } };
  }
  try {
    return await ports.withinStepBound('alert step', () => sendNotices(ports, delivery, policy));
  } catch (error) {
    return { ok: false, error: describeError(error) };
  }
}

async function outcomeOf<T>(work: () => Promise<T>): Promise<SinkOutcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error: describeError(error) };
  }
}
