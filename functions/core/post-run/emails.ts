/**
 * The Lambda's messages: each notice and the run's own alert as an email (core/incident, core/delivery), with where
 * the report is in S3 (or where its only copy is when S3 would not take it), the links to the HTML report, the
 * dashboard and the run's logs, and the sinks that failed.
 */
import { buildAlertMessage, type ReportPlacement } from '../delivery/alert-message.ts';
import { buildRunLinks, type RunLinks } from '../delivery/links.ts';
import { buildIncidentMessage } from '../incident/incident-message.ts';
import type { Delivery, Notifier, StoredReport } from './ports.ts';

/** The log line that holds the whole report when S3 would not take it; the emails point at it. */
export const UNSTORED_REPORT_LOG = 'validation report (not stored)';

/** A report archived in S3: its bucket, its JSON's key, and its HTML's key when that was stored. */
export interface StoredObject extends StoredReport {
  bucket: string;
  key: string;
  htmlKey: string | null;
  /** The collection's page of past runs (reports/<collection>/index.html), linked from every email. */
  runsPageKey?: string;
}

export interface EmailSettings {
  region: string;
  /** The deployment's CloudWatch dashboard, linked from every email. */
  dashboardName: string | null;
  /** The function's log group: where the report is when S3 would not take it, and the logs' link. */
  logGroupName: string | null;
  /** Days between reminders while an incident lasts (null: none), said in every incident email. */
  reminderDays: number | null;
  /** From which severity reminders go out (default HIGH). */
  reminderMinSeverity?: 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';
}

/** Composes the emails of a run whose report went (or should have gone) to S3. */
export function composeEmails(settings: EmailSettings): Omit<Notifier<StoredObject>, 'send'> {
  return {
    composeNotice: (notice, delivery) =>
      buildIncidentMessage(notice, delivery.report, {
        placement: placementOf(delivery, settings),
        failedSinks: delivery.failedSinks,
        links: linksOf(delivery, settings),
        region: settings.region,
        reminderDays: settings.reminderDays,
        ...(settings.reminderMinSeverity ? { reminderMinSeverity: settings.reminderMinSeverity } : {}),
      }),
    composeRunAlert: (delivery) =>
      buildAlertMessage(delivery.report, {
        placement: placementOf(delivery, settings),
        previous: delivery.previous,
        failedSinks: delivery.failedSinks,
        links: linksOf(delivery, settings),
      }),
  };
}

function placementOf(delivery: Delivery<StoredObject>, settings: EmailSettings): ReportPlacement {
  const { stored } = delivery;
  if (stored.ok) return { stored: true, bucket: stored.value.bucket, key: stored.value.key, region: settings.region };
  return {
    stored: false,
    reason: stored.error,
    fallback: `the function's log (${settings.logGroupName ?? 'its CloudWatch Logs group'}), message "${UNSTORED_REPORT_LOG}"`,
  };
}

/** The HTML report (or the JSON when the HTML was not stored), the dashboard and this run's logs. */
function linksOf(delivery: Delivery<StoredObject>, settings: EmailSettings): RunLinks {
  const { report, stored } = delivery;
  return buildRunLinks({
    region: settings.region,
    runId: report.run_id,
    startedAt: report.timestamp,
    finishedAt: report.finished_at,
    ...(stored.ok
      ? {
          report: {
            bucket: stored.value.bucket,
            jsonKey: stored.value.key,
            ...(stored.value.htmlKey === null ? {} : { htmlKey: stored.value.htmlKey }),
            ...(stored.value.runsPageKey === undefined ? {} : { runsPageKey: stored.value.runsPageKey }),
          },
        }
      : {}),
    ...(settings.dashboardName ? { dashboardName: settings.dashboardName } : {}),
    ...(settings.logGroupName ? { logGroupName: settings.logGroupName } : {}),
  });
}
