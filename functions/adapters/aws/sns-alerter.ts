/**
 * Publishes an alert to the SNS topic ops subscribe to: Subject for the mail's subject line, the body as the
 * message, and severity (plus collection and environment) as message attributes so subscriptions can filter.
 */

import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import type { AlertMessage } from '../../core/delivery/alert-message.ts';
import { redactUrlsIn } from '../../core/shared/redact-url.ts';
import { abortable } from './clients.ts';
import { awsSinkError } from './errors.ts';

export interface SnsAlerterOptions {
  client: SNSClient;
  topicArn: string;
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
    const { client, topicArn } = this.#options;
    const attribute = (value: string) => ({ DataType: 'String', StringValue: value });
    try {
      const result = await client.send(
        new PublishCommand({
          TopicArn: topicArn,
          // The one URL redaction (core/shared/redact-url.ts): no credential of a URL leaves in an email.
          Subject: redactUrlsIn(alert.subject),
          Message: redactUrlsIn(alert.body),
          MessageAttributes: {
            severity: attribute(alert.severity),
            collection: attribute(labels.collection || 'unknown'),
            environment: attribute(labels.environment || 'unknown'),
            // One alert per incident: onset, reopened, escalation, reminder or recovery, and which incident (quality, ...).
            ...(labels.kind ? { alert_kind: attribute(labels.kind) } : {}),
            ...(labels.track ? { incident_track: attribute(labels.track) } : {}),
          },
        }),
        abortable(options.signal),
      );
      return { messageId: result.MessageId ?? '' };
    } catch (error) {
      throw awsSinkError(`SNS Publish to ${topicArn} failed`, error);
    }
  }
}
