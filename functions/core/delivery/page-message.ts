/**
 * The page route: which alerts wake someone, and the message they get there. Pure: no SDK, no clock.
 *
 * The page topic's subscribers are an AWS Chatbot (Amazon Q Developer) Slack channel and an HTTPS pager endpoint.
 * Chatbot shows only the messages it can parse: a CloudWatch alarm (the not-running alarm) or a "custom
 * notification" in its own JSON schema; plain text is dropped. So the page copy of an alert is that JSON, and a pager
 * endpoint receives the same title and description.
 */

import type { Severity } from '../report/findings.ts';
import type { AlertMessage } from './alert-message.ts';

/** The severities that page: an onset, escalation, reminder or recovery of an incident at this level or above. */
export const PAGED_SEVERITIES: readonly Severity[] = ['HIGH', 'CRITICAL'];

/** A Slack message stays readable well under Chatbot's limits; the email carries everything past this. */
const DESCRIPTION_MAX_CHARS = 3500;

export function isPaged(severity: Severity): boolean {
  return PAGED_SEVERITIES.includes(severity);
}

/**
 * The alert as a Chatbot custom notification. Every message of one incident (onset, reminder, recovery) shares a
 * thread id, so Slack keeps them in one thread instead of scattering them across the channel.
 */
export function pageMessage(
  alert: AlertMessage,
  labels: { collection: string; environment: string; track?: string },
): string {
  return JSON.stringify({
    version: '1.0',
    source: 'custom',
    content: {
      textType: 'client-markdown',
      title: alert.subject,
      description: cutAtLine(alert.body, DESCRIPTION_MAX_CHARS),
      keywords: [alert.severity, labels.environment, labels.collection],
    },
    metadata: {
      threadId: `ragwatch/${labels.environment}/${labels.collection}/${labels.track ?? 'run'}`,
      summary: alert.subject,
    },
  });
}

/** The body up to the last whole line within `max` characters, with a note saying where the rest is. */
function cutAtLine(body: string, max: number): string {
  if (body.length <= max) return body;
  const note = '\n… (cut here: the email has the rest)';
  const head = body.slice(0, max - note.length);
  const lastBreak = head.lastIndexOf('\n');
  return `${lastBreak > 0 ? head.slice(0, lastBreak) : head}${note}`;
}
