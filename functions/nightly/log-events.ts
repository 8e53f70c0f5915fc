/**
 * The post-run use case's events as the Lambda's log lines (Powertools' Logger, one JSON line each): the messages
 * and fields ops search for in CloudWatch Logs, and the whole report when S3 would not take it.
 */
import { UNSTORED_REPORT_LOG } from '../core/post-run/emails.ts';
import type { PostRunEvent } from '../core/post-run/ports.ts';
import type { NightlyLogger } from './deps.ts';

/** Logs each event; `runId` is the id already on every line. */
export function logPostRunEvents(logger: NightlyLogger, runId: string): (event: PostRunEvent) => void {
  return (event) => {
    switch (event.kind) {
      case 'history_not_read':
        return logger.warn('history not read', { reason: event.reason });
      case 'compared': {
        const { report } = event;
        if (report.run_id !== runId) logger.appendKeys({ run_id: report.run_id });
        return logger.info('validation finished', {
          status: report.status,
          status_reason: report.status_reason,
          pass_rate: report.pass_rate,
          coverage_percentage: report.coverage_report?.coverage_percentage ?? null,
          duration_seconds: report.duration_seconds,
        });
      }
      case 'report_not_stored':
        // Nothing is lost: the log keeps the whole report when S3 will not.
        return logger.error(UNSTORED_REPORT_LOG, { reason: event.reason, report: event.report });
      case 'metrics_not_published':
        return logger.error('metrics not published', { reason: event.reason });
      case 'latest_not_updated':
        return logger.warn('latest.json not updated', { reason: event.reason });
      case 'runs_page_not_written':
        return logger.warn('runs page not written', { reason: event.reason });
      case 'incidents_unavailable':
        return logger.error('incident state unavailable; sending this run’s own alert', { reason: event.reason });
      case 'incidents_replaced':
        return logger.warn('incident state replaced', { reason: event.reason });
      case 'incidents_not_applied':
        return logger.warn('incident state not moved by an older run', { reason: event.reason });
      case 'notice_sent': {
        const { kind, track, severity, subject, messageId } = event.notice;
        return logger.info('alert sent', { kind, track, severity, subject, message_id: messageId });
      }
      case 'notice_not_sent':
        return logger.error('alert not sent; incident state put back so the next run sends it', {
          reason: event.reason,
        });
      case 'incidents_not_put_back':
        return logger.error('incident state not put back', { reason: event.reason });
      case 'run_alert_sent':
        return logger.info('alert sent', {
          severity: event.severity,
          subject: event.subject,
          message_id: event.messageId,
        });
      case 'alerts_held':
        return logger.info('maintenance: alerts held', { until: event.until, reason: event.reason });
      case 'run_alert_not_sent':
        return logger.error('alert not sent', {
          severity: event.severity,
          subject: event.subject,
          reason: event.reason,
        });
    }
  };
}
