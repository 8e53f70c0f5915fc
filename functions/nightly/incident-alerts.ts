/**
 * The handler's alert sink with one alert per incident: settle the incident state (core/incident), then send
 * each notice the run owes (onset, escalation, reminder, recovery) through SNS. When the state cannot be read or
 * written, the run falls back to its own alert (buildAlertMessage): a repeated email is better than a silent one.
 * When an email cannot be sent, the state is put back, so the next run sends it again instead of staying silent.
 */
import type { PublishedMetrics } from '../adapters/aws/cloudwatch-metrics.ts';
import type { AlertContext } from '../core/delivery/alert-message.ts';
import { buildIncidentMessage } from '../core/incident/incident-message.ts';
import { settleIncidents } from '../core/incident/settle-incidents.ts';
import type { ValidationReport } from '../core/report/report.ts';
import { describeError } from '../core/shared/errors.ts';
import type { NightlyDeps, NightlyResult } from './handler.ts';

type AlertOutcome = NightlyResult['sinks']['alert'];

/** Sends the emails this run owes under the incident policy; `fallback` sends the run's own alert. */
export async function alertIncidents(
  deps: NightlyDeps,
  report: ValidationReport,
  context: Pick<AlertContext, 'placement' | 'links'>,
  published: PromiseSettledResult<PublishedMetrics>,
  fallback: () => Promise<AlertOutcome>,
): Promise<AlertOutcome> {
  const { config, logger } = deps;
  const { placement } = context;
  const settled = await settleIncidents({
    store: deps.incidents,
    report,
    reportLocation: placement.stored ? `s3://${placement.bucket}/${placement.key}` : null,
    newId: deps.newId,
    policy: config.incidents,
  });
  if (!settled.ok) {
    logger.error('incident state unavailable; sending this run’s own alert', { reason: settled.error });
    return fallback();
  }
  if (settled.warning) logger.warn('incident state replaced', { reason: settled.warning });
  if (settled.notices.length === 0) return { ok: true, value: { sent: false } };
  const failedSinks =
    published.status === 'rejected' ? [{ sink: 'CloudWatch metrics', reason: describeError(published.reason) }] : [];
  const emails: { kind: string; track: string; severity: string; subject: string; messageId: string }[] = [];
  try {
    for (const notice of settled.notices) {
      const message = buildIncidentMessage(notice, report, {
        placement,
        failedSinks,
        ...(context.links ? { links: context.links } : {}),
        region: config.region,
        reminderDays: config.incidents.reminderDays,
      });
      const { messageId } = await deps.alerter.send(message, {
        collection: report.collection,
        environment: report.environment,
        kind: message.kind,
        track: notice.track,
      });
      logger.info('alert sent', {
        kind: message.kind,
        track: notice.track,
        severity: message.severity,
        subject: message.subject,
        message_id: messageId,
      });
      emails.push({
        kind: message.kind,
        track: notice.track,
        severity: message.severity,
        subject: message.subject,
        messageId,
      });
    }
  } catch (error) {
    logger.error('alert not sent; incident state put back so the next run sends it', { reason: describeError(error) });
    await settled
      .revert()
      .catch((revertError: unknown) =>
        logger.error('incident state not put back', { reason: describeError(revertError) }),
      );
    return { ok: false, error: describeError(error) };
  }
  const first = emails[0] as (typeof emails)[number];
  return {
    ok: true,
    value: {
      sent: true,
      messageId: first.messageId,
      severity: first.severity as ValidationReport['errors'][number]['severity'],
      emails,
    },
  };
}
