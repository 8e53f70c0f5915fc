/**
 * The alert step: one message per incident. The incident state is settled with this run (core/incident), then each
 * notice the run owes (onset, reopened, escalation, reminder, recovery) is composed and sent. When the state cannot be read
 * or written, the run falls back to its own alert: a repeated message is better than a silent one. When a notice
 * cannot be sent, the state is put back, so the next run sends it again instead of staying silent. A run that owes no
 * notice but whose metrics (or another sink) failed sends its own alert naming the failure.
 */
import type { IncidentPolicy } from '../incident/advance-incidents.ts';
import { settleIncidents } from '../incident/settle-incidents.ts';
import { describeError } from '../shared/errors.ts';
import type { AlertOutcome } from './outcome.ts';
import type { Delivery, PostRunPorts, SentNotice, StoredReport } from './ports.ts';

/** Sends the notices this run owes under the incident policy, or the run's own alert; never throws. */
export async function sendNotices<S extends StoredReport>(
  ports: PostRunPorts<S>,
  delivery: Delivery<S>,
  policy: IncidentPolicy,
): Promise<AlertOutcome> {
  const { report, stored } = delivery;
  const settled = await settleIncidents({
    store: ports.incidents,
    report,
    reportLocation: stored.ok ? stored.value.location : null,
    newId: ports.newId,
    policy,
    previous: delivery.previous,
  });
  if (!settled.ok) {
    ports.log({ kind: 'incidents_unavailable', reason: settled.error });
    return sendRunAlert(ports, delivery);
  }
  if (settled.warning) ports.log({ kind: 'incidents_replaced', reason: settled.warning });
  if (settled.skipped) ports.log({ kind: 'incidents_not_applied', reason: settled.skipped });
  // No incident moved, but a sink failed (metrics refused on a passing night): the run's own alert names it, since
  // nobody would hear of it otherwise.
  if (settled.notices.length === 0)
    return delivery.failedSinks.length > 0 ? sendRunAlert(ports, delivery) : { ok: true, value: { sent: false } };
  const sent: SentNotice[] = [];
  try {
    for (const notice of settled.notices) {
      const message = ports.notifier.composeNotice(notice, delivery);
      const labels = { collection: report.collection, environment: report.environment };
      const { messageId } = await ports.notifier.send(message, { ...labels, kind: notice.kind, track: notice.track });
      const email = { kind: notice.kind, track: notice.track, severity: message.severity, subject: message.subject };
      sent.push({ ...email, messageId });
      ports.log({ kind: 'notice_sent', notice: { ...email, messageId } });
    }
  } catch (error) {
    ports.log({ kind: 'notice_not_sent', reason: describeError(error) });
    await settled
      .revert()
      .catch((revertError: unknown) =>
        ports.log({ kind: 'incidents_not_put_back', reason: describeError(revertError) }),
      );
    return { ok: false, error: describeError(error) };
  }
  const first = sent[0] as SentNotice;
  return {
    ok: true,
    value: { sent: true, messageId: first.messageId, severity: first.severity, emails: sent },
  };
}

/** The run's own alert, when the incident state is out of reach; nothing when the run needs none. */
async function sendRunAlert<S extends StoredReport>(
  ports: PostRunPorts<S>,
  delivery: Delivery<S>,
): Promise<AlertOutcome> {
  const alert = ports.notifier.composeRunAlert(delivery);
  if (alert === null) return { ok: true, value: { sent: false } };
  const { severity, subject } = alert;
  try {
    const { report } = delivery;
    const { messageId } = await ports.notifier.send(alert, {
      collection: report.collection,
      environment: report.environment,
    });
    ports.log({ kind: 'run_alert_sent', severity, subject, messageId });
    return { ok: true, value: { sent: true, messageId, severity } };
  } catch (error) {
    ports.log({ kind: 'run_alert_not_sent', severity, subject, reason: describeError(error) });
    return { ok: false, error: describeError(error) };
  }
}
