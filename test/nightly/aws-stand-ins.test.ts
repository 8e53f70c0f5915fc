import { CloudWatchClient, PutMetricDataCommand } from '@aws-sdk/client-cloudwatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CloudWatchStandIn, startCloudWatchStandIn } from '../../sandbox/aws/index.ts';
import { standInClientConfig } from './stand-in-clients.ts';

// The CloudWatch stand-in must refuse what CloudWatch refuses, or the metrics tests could pass on bad requests.
let cloudWatch: CloudWatchStandIn;
let client: CloudWatchClient;

beforeAll(async () => {
  cloudWatch = await startCloudWatchStandIn();
  client = new CloudWatchClient(standInClientConfig(cloudWatch.endpoint, 1));
});

afterAll(async () => {
  client.destroy();
  await cloudWatch.stop();
});

const put = (MetricData: NonNullable<ConstructorParameters<typeof PutMetricDataCommand>[0]['MetricData']>) =>
  client.send(new PutMetricDataCommand({ Namespace: 'RagWatch', MetricData }));

describe('the CloudWatch stand-in', () => {
  it('refuses more than 1,000 datums in one call with InvalidParameterValue', async () => {
    // Act
    const sending = put(Array.from({ length: 1_001 }, (_, i) => ({ MetricName: `M${i}`, Value: i })));

    // Assess
    await expect(sending).rejects.toMatchObject({ $metadata: { httpStatusCode: 400 } });
    await expect(sending).rejects.toThrow('MetricData: at most 1000 datums, got 1001');
  });

  it('refuses more than 150 values in one datum', async () => {
    // Act
    const values = Array.from({ length: 151 }, (_, i) => i);
    const sending = put([{ MetricName: 'Latency', Values: values, Counts: values.map(() => 1) }]);

    // Assess
    await expect(sending).rejects.toThrow('MetricData.member.1.Values: at most 150');
  });

  it('refuses a NaN value, which the SDK sends as the string "NaN"', async () => {
    // Act
    const sending = put([{ MetricName: 'PassRate', Value: Number.NaN }]);

    // Assess
    await expect(sending).rejects.toThrow('MetricData.member.1: non-finite value NaN');
  });

  it('records an accepted datum with its timestamp in epoch seconds', async () => {
    // Act
    await put([{ MetricName: 'RunSucceeded', Value: 1, Unit: 'Count', Timestamp: new Date('2026-01-01T00:00:00Z') }]);

    // Assess
    expect(cloudWatch.datums.at(-1)).toMatchObject({ MetricName: 'RunSucceeded', Value: 1, Timestamp: 1_767_225_600 });
  });
});
