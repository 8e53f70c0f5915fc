/**
 * Publishes an alert to the SNS topic ops subscribe to: Subject for the mail's subject line, the body as the
 * message, and severity (plus collection and environment) as message attributes so subscriptions can filter.
 * With a page topic, a HIGH or CRITICAL alert also goes there, as a Chatbot custom notification
 * (core/delivery/page-message.ts says why that format, docs/DEPLOY.md why a topic and not a filter policy).
 */

import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import type { AlertMessage } from '../../core/delivery/alert-message.ts';
import { isPaged, pageMessage } from '../../core/delivery/page-message.ts';
import { redactUrlsIn } from '../../core/shared/redact-url.ts';
import { abortable } from './clients.ts';
import { awsSinkError } from './errors.ts';

export interface SnsAlerterOptions {
  client: SNSClient;
  topicArn: string;
  /** The page route's topic (Slack through Chatbot, a pager): HIGH and CRITICAL alerts only; none when unset. */
  pageTopicArn?: string | undefined;
}

/** Sends alerts through SNS. */
export class SnsAlerter {
  readonly #options: SnsAlerterOptions;

  constructor(options: SnsAlerterOptions) {
    this.#options = options;
  }

  /** `signal` aborts the publish (the sink's bound, see adapters/bounded.ts). */
  async send(
    alert: AlertMessage,
    labels: { collection: string; environment: string; kind?: string; track?: string },
    options: { signal?: AbortSignal } = {},
  ): Promise<{ messageId: string }> {
    const { client, topicArn, pageTopicArn } = this.#options;
    const attribute = (value: string) => ({ DataType: 'String', StringValue: value });
    const attributes = {
      severity: attribute(alert.severity),
      collection: attribute(labels.collection || 'unknown'),
      environment: attribute(labels.environment || 'unknown'),
      // One alert per incident: onset, reopened, escalation, reminder or recovery, and which incident (quality, ...).
      ...(labels.kind ? { alert_kind: attribute(labels.kind) } : {}),
      ...(labels.track ? { incident_track: attribute(labels.track) } : {}),
    };
    // The one URL redaction (core/shared/redact-url.ts): no credential of a URL leaves in an email or a page.
    const subject = redactUrlsIn(alert.subject);
    const body = redactUrlsIn(alert.body);
    const publish = async (arn: string, message: string) => {
      try {
        const result = await client.send(
          new PublishCommand({
            TopicArn: arn,
            Subject: subject,
            Message: message,
            MessageAttributes: attributes,
          }),
          abortable(options.signal),
        );
        return result.MessageId ?? '';
      } catch (error) {
        throw awsSinkError(`SNS Publish to ${arn} failed`, error);
      }
    };
    const paged = pageTopicArn !== undefined && isPaged(alert.severity);
    // Both at once, both awaited: a failed page is an alert not sent like a failed email (the alert step puts the
    // incident state back and the alert-not-sent alarm fires), even when the email went out.
    const [email, page] = await Promise.allSettled([
      publish(topicArn, body),
      paged ? publish(pageTopicArn, pageMessage({ ...alert, subject, body }, labels)) : Promise.resolve(''),
    ]);
    if (email.status === 'rejected') throw email.reason;
    if (page.status === 'rejected') throw page.reason;
    return { messageId: email.value };
  }
}
