import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SnsAlerter } from '../../../functions/adapters/aws/sns-alerter.ts';
import { SinkError } from '../../../functions/core/shared/errors.ts';
import { type AwsStandIns, startAwsStandIns } from '../../../sandbox/aws/index.ts';
import { buildStandInClients, type StandInClients } from '../../nightly/stand-in-clients.ts';

let aws: AwsStandIns;
let clients: StandInClients;

beforeAll(async () => {
  aws = await startAwsStandIns();
  clients = buildStandInClients(aws.endpoints, { maxAttempts: 1 });
});

afterAll(async () => {
  clients.destroy();
  await aws.stop();
});

beforeEach(() => {
  aws.fauxqs.reset();
});

const ALERT = {
  subject: '[HIGH] RagWatch prod/book: pass rate 40% < 90%',
  body: 'The nightly validation of "book" (prod) breached 1 success criteria.\nSeverity: HIGH',
  severity: 'HIGH' as const,
};

describe('SnsAlerter', () => {
  it('publishes subject, body and severity, collection and environment attributes to the topic', async () => {
    // Prepare
    const alerter = new SnsAlerter({ client: clients.sns, topicArn: aws.topicArn });

    // Act
    const sent = await alerter.send(ALERT, { collection: 'book', environment: 'prod' });

    // Assess
    expect(sent.messageId).not.toBe('');
    expect(aws.deliveredAlerts()).toEqual([
      {
        subject: ALERT.subject,
        message: ALERT.body,
        attributes: { severity: 'HIGH', collection: 'book', environment: 'prod' },
      },
    ]);
  });

  it('throws a not_found SinkError naming the topic when it does not exist', async () => {
    // Prepare
    const topicArn = 'arn:aws:sns:us-east-1:000000000000:no-such-topic';
    const alerter = new SnsAlerter({ client: clients.sns, topicArn });

    // Act
    const sending = alerter.send(ALERT, { collection: 'book', environment: 'prod' });

    // Assess
    await expect(sending).rejects.toBeInstanceOf(SinkError);
    await expect(sending).rejects.toMatchObject({
      kind: 'not_found',
      message: expect.stringContaining(`SNS Publish to ${topicArn} failed (not_found)`),
    });
  });
});
