/**
 * The nightly run's delivery: the report to S3 and the metrics to CloudWatch in parallel, then the alert through
 * SNS beside the latest.json copy. Each sink runs within its own bound (adapters/bounded.ts), so a hung endpoint costs at most that bound and
 * never holds up another sink past it: the alert waits for S3 only to say where the report is, or that it is not.
 *
 * Loud failure: when the report was not stored and no alert was delivered, nothing a person reads holds the run's
 * findings (the metrics alone would even say RunSucceeded = 1 for a PASSED run), so the invocation throws. Lambda
 * counts it in Errors (the FunctionErrors alarm) and, with no async retries, puts the event in the dead-letter
 * queue. A partial delivery returns normally, naming the failed sink: the alert or the stored report already tells
 * ops, and throwing would only add a dead letter for a run whose findings arrived.
 */

import type { StoredReport } from '../adapters/aws/s3-report-store.ts';
import { withinBound } from '../adapters/bounded.ts';
import { type AlertContext, buildAlertMessage, type ReportPlacement } from '../core/delivery/alert-message.ts';
import { buildRunLinks } from '../core/delivery/links.ts';
import type { ReportAttachment } from '../core/render/attachments.ts';
import type { ValidationReport } from '../core/report/report.ts';
import { describeError } from '../core/shared/errors.ts';
import type { NightlyDeps, NightlyResult } from './handler.ts';
import { alertIncidents } from './incident-alerts.ts';

/** Thrown when a run delivered nothing a person reads: neither a stored report nor an alert. */
export class NothingDeliveredError extends Error {
  constructor(runId: string, sinks: NightlyResult['sinks']) {
    const why = (s: { ok: boolean; error?: string }) => (s.ok ? 'ok' : s.error);
    const alert = sinks.alert.ok ? 'no alert was due' : `alert not sent (${sinks.alert.error})`;
    super(
      `ragwatch run ${runId} delivered nothing: report not stored (${why(sinks.report)}), ${alert}; ` +
        `metrics: ${why(sinks.metrics)}. The full report is in the log line "validation report (not stored)".`,
    );
    this.name = 'NothingDeliveredError';
  }
}

/** True when neither the report was stored nor an alert was delivered. */
export function deliveredNothing(sinks: NightlyResult['sinks']): boolean {
  return !sinks.report.ok && !(sinks.alert.ok && sinks.alert.value.sent);
}

/** Stores the report, publishes the metrics, sends the alert; each within its bound. Never throws. */
export async function deliver(
  deps: NightlyDeps,
  report: ValidationReport,
  extras: { previous: AlertContext['previous']; attachments: ReportAttachment[] },
): Promise<NightlyResult['sinks']> {
  const { previous, attachments } = extras;
  const { config, logger } = deps;
  const bound = (what: string) => ({ what, ms: config.sinkTimeoutMs });
  const [stored, published] = await Promise.allSettled([
    withinBound(bound('S3 report'), (signal) => deps.reportStore.saveArchive(report, { signal, attachments })),
    withinBound(bound('CloudWatch metrics'), (signal) => deps.metrics.publish(report, { signal })),
  ]);
  const placement = placementOf(stored, deps);
  // The HTML report, the dashboard and this run's logs, for every email (core/delivery/links.ts).
  const links = buildRunLinks({
    region: config.region,
    runId: report.run_id,
    startedAt: report.timestamp,
    finishedAt: report.finished_at,
    ...(stored.status === 'fulfilled' ? { report: reportKeys(stored.value) } : {}),
    ...(config.dashboardName ? { dashboardName: config.dashboardName } : {}),
    ...(config.logGroupName ? { logGroupName: config.logGroupName } : {}),
  });
  if (stored.status === 'rejected') {
    // Nothing is lost: the log keeps the whole report when S3 will not.
    logger.error('validation report (not stored)', { reason: describeError(stored.reason), report });
  }
  if (published.status === 'rejected')
    logger.error('metrics not published', { reason: describeError(published.reason) });

  const failedSinks =
    published.status === 'rejected' ? [{ sink: 'CloudWatch metrics', reason: describeError(published.reason) }] : [];
  // The alert needs only where the dated report is; the latest.json copy goes out beside it, bounded on its own.
  // One alert per incident (core/incident); the run's own alert when the incident state is unavailable.
  const bounded = withBoundedAlerting(deps);
  const [alert, latestUpdated] = await Promise.all([
    // A backstop over the whole step (state write, emails, putting the state back): never more than three bounds.
    withinBound({ what: 'alert step', ms: 3 * config.sinkTimeoutMs }, () =>
      alertIncidents(bounded, report, { placement, links }, published, () =>
        sendAlert(bounded, report, { placement, previous, failedSinks, links }),
      ),
    ).catch((error: unknown): NightlyResult['sinks']['alert'] => ({ ok: false, error: describeError(error) })),
    stored.status === 'fulfilled' ? updateLatest(deps, report, attachments) : Promise.resolve(false),
  ]);
  return {
    report:
      stored.status === 'fulfilled'
        ? { ok: true, value: { location: stored.value.location, latestUpdated, ...htmlOf(stored.value) } }
        : { ok: false, error: describeError(stored.reason) },
    metrics:
      published.status === 'fulfilled'
        ? { ok: true, value: published.value }
        : { ok: false, error: describeError(published.reason) },
    alert,
  };
}

/**
 * The deps the alert step uses: the incident state's S3 calls and each SNS publish within a sink bound of their own,
 * so a hung incident store costs its bound and then the run's own alert goes out (alertIncidents' fallback).
 */
function withBoundedAlerting(deps: NightlyDeps): NightlyDeps {
  const ms = deps.config.sinkTimeoutMs;
  return {
    ...deps,
    incidents: {
      read: (key) => deps.incidents.read(key),
      write: (key, state, version) =>
        withinBound({ what: 'S3 incident state write', ms }, () => deps.incidents.write(key, state, version)),
    },
    alerter: {
      send: (alert, labels) =>
        withinBound({ what: 'SNS alert', ms }, (signal) => deps.alerter.send(alert, labels, { signal })),
    },
  };
}

/**
 * The incident state read, started beside the engine (it needs nothing the run produces) and bounded: the alert
 * step then only writes. Reads of any other key go to the store as they come.
 */
export function prefetchIncidentState(deps: NightlyDeps): NightlyDeps['incidents'] {
  const { config } = deps;
  const own = { collection: config.engine.collection, environment: config.engine.environment };
  const early = withinBound({ what: 'S3 incident state read', ms: config.sinkTimeoutMs }, () =>
    deps.incidents.read(own),
  );
  early.catch(() => undefined); // observed when the alert step reads it
  return {
    read: (key) =>
      key.collection === own.collection && key.environment === own.environment ? early : deps.incidents.read(key),
    write: (key, state, version) => deps.incidents.write(key, state, version),
  };
}

/** The latest.json copy: a convenience, so its failure is logged and reported, never thrown. */
async function updateLatest(
  deps: NightlyDeps,
  report: ValidationReport,
  attachments: ReportAttachment[],
): Promise<boolean> {
  try {
    await withinBound({ what: 'S3 latest.json copy', ms: deps.config.sinkTimeoutMs }, (signal) =>
      deps.reportStore.saveLatest(report, { signal, attachments }),
    );
    return true;
  } catch (error) {
    deps.logger.warn('latest.json not updated', { reason: describeError(error) });
    return false;
  }
}

async function sendAlert(
  deps: NightlyDeps,
  report: ValidationReport,
  context: AlertContext,
): Promise<NightlyResult['sinks']['alert']> {
  const alert = buildAlertMessage(report, context);
  if (alert === null) return { ok: true, value: { sent: false } };
  try {
    const { messageId } = await deps.alerter.send(alert, {
      collection: report.collection,
      environment: report.environment,
    });
    deps.logger.info('alert sent', { severity: alert.severity, subject: alert.subject, message_id: messageId });
    return { ok: true, value: { sent: true, messageId, severity: alert.severity } };
  } catch (error) {
    deps.logger.error('alert not sent', {
      severity: alert.severity,
      subject: alert.subject,
      reason: describeError(error),
    });
    return { ok: false, error: describeError(error) };
  }
}

/** The stored report's keys, for the email's links: the HTML's when it was stored. */
function reportKeys(stored: Omit<StoredReport, 'latest'>): { bucket: string; jsonKey: string; htmlKey?: string } {
  const html = stored.attachments.find((a) => a.suffix === '.html' && a.stored);
  return { bucket: stored.bucket, jsonKey: stored.key, ...(html ? { htmlKey: html.key } : {}) };
}

/** Where the HTML report went, when it was stored. */
function htmlOf(stored: Omit<StoredReport, 'latest'>): { htmlLocation?: string } {
  const html = stored.attachments.find((a) => a.suffix === '.html' && a.stored);
  return html === undefined ? {} : { htmlLocation: `s3://${stored.bucket}/${html.key}` };
}

function placementOf(stored: PromiseSettledResult<Omit<StoredReport, 'latest'>>, deps: NightlyDeps): ReportPlacement {
  const { config } = deps;
  if (stored.status === 'fulfilled')
    return { stored: true, bucket: stored.value.bucket, key: stored.value.key, region: config.region };
  return {
    stored: false,
    reason: describeError(stored.reason),
    fallback: `the function's log (${config.logGroupName ?? 'its CloudWatch Logs group'}), message "validation report (not stored)"`,
  };
}
