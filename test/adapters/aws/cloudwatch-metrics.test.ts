import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CloudWatchMetrics } from '../../../functions/adapters/aws/cloudwatch-metrics.ts';
import { SinkError } from '../../../functions/core/shared/errors.ts';
import { type CloudWatchStandIn, startCloudWatchStandIn } from '../../../sandbox/aws/index.ts';
import { buildFailedReport, buildPassedReport, buildQuery } from '../../nightly/fixtures/reports.ts';
import { standInClientConfig } from '../../nightly/stand-in-clients.ts';

let cloudWatch: CloudWatchStandIn;
let client: CloudWatchClient;

beforeAll(async () => {
  cloudWatch = await startCloudWatchStandIn();
  client = new CloudWatchClient(standInClientConfig(cloudWatch.endpoint, 3));
});

afterAll(async () => {
  client.destroy();
  await cloudWatch.stop();
});

beforeEach(() => {
  cloudWatch.datums.length = 0;
  cloudWatch.requests.length = 0;
  cloudWatch.failNext(0);
});

/** One passing query's category figures, as buildValidationMetrics writes them without a suite category entry. */
const CATEGORY = {
  total: 1,
  passed: 1,
  pass_rate: 100,
  mean_semantic_alignment: 1,
  description: null,
  expected_results: null,
  expected_met: null,
};

describe('CloudWatchMetrics', () => {
  it('sends the report’s figures in the namespace, as CloudWatch received them over AWS JSON 1.0', async () => {
    // Prepare
    const metrics = new CloudWatchMetrics({ client, namespace: 'RagWatch' });

    // Act
    const published = await metrics.publish(buildFailedReport());

    // Assess
    expect(published).toEqual({ namespace: 'RagWatch', datums: cloudWatch.datums.length, calls: 1 });
    expect(cloudWatch.requests[0]?.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(cloudWatch.requests[0]?.target).toBe('GraniteServiceVersion20100801.PutMetricData');
    expect(cloudWatch.datums.find((d) => d.MetricName === 'PassRate' && d.Dimensions.length === 2)).toEqual({
      namespace: 'RagWatch',
      MetricName: 'PassRate',
      Dimensions: [
        { Name: 'Collection', Value: 'book' },
        { Name: 'Environment', Value: 'prod' },
      ],
      Timestamp: Date.parse('2026-03-14T02:00:00.000Z') / 1000,
      Unit: 'Percent',
      Value: 40,
      Values: undefined,
      Counts: undefined,
    });
  });

  it('splits a run with more than 1,000 datums into several calls that CloudWatch accepts', async () => {
    // Prepare
    const report = buildPassedReport();
    report.validation_metrics.by_category = Object.fromEntries(
      Array.from({ length: 1_200 }, (_, i) => [`category-${i}`, { ...CATEGORY }]),
    );
    const metrics = new CloudWatchMetrics({ client, namespace: 'RagWatch' });

    // Act
    const published = await metrics.publish(report);

    // Assess
    expect(published.calls).toBe(2);
    expect(cloudWatch.requests).toHaveLength(2);
    expect(cloudWatch.datums.filter((d) => d.Dimensions.length === 3)).toHaveLength(1_200);
  });

  it('sends a large call gzip-compressed, and CloudWatch still reads every datum', async () => {
    // Prepare
    const report = buildPassedReport();
    report.validation_metrics.by_category = Object.fromEntries(
      Array.from({ length: 900 }, (_, i) => [`category-${i}`, { ...CATEGORY }]),
    );
    const metrics = new CloudWatchMetrics({ client, namespace: 'RagWatch' });

    // Act
    await metrics.publish(report);

    // Assess
    const [request] = cloudWatch.requests;
    expect(request?.headers['content-encoding']).toBe('gzip');
    expect(request?.decodedBytes).toBeGreaterThan(request?.wireBytes ?? Number.POSITIVE_INFINITY);
    expect(cloudWatch.datums.filter((d) => d.Dimensions.length === 3)).toHaveLength(900);
  });

  it('sends latency distributions of many queries as Values and Counts of at most 150 entries', async () => {
    // Prepare
    const report = buildPassedReport();
    report.query_results = Array.from({ length: 300 }, (_, i) =>
      buildQuery({
        id: `q${i}`,
        latency: { embedding_ms: i, search_ms: i / 2, post_processing_ms: 0, total_ms: i * 1.5 },
      }),
    );
    const metrics = new CloudWatchMetrics({ client, namespace: 'RagWatch' });

    // Act
    await metrics.publish(report);

    // Assess
    const latencies = cloudWatch.datums.filter((d) => d.MetricName === 'QueryLatency');
    expect(latencies.map((d) => [d.Values?.length, d.Counts?.length, d.Unit])).toEqual([
      [150, 150, 'Milliseconds'],
      [150, 150, 'Milliseconds'],
    ]);
  });

  it('retries a failing call and succeeds when CloudWatch recovers', async () => {
    // Prepare
    cloudWatch.failNext(1);
    const metrics = new CloudWatchMetrics({ client, namespace: 'RagWatch' });

    // Act
    const published = await metrics.publish(buildPassedReport());

    // Assess
    expect(published.calls).toBe(1);
    expect(cloudWatch.requests).toHaveLength(2);
  });

  it('throws an unavailable SinkError when CloudWatch keeps failing after the SDK’s retries', async () => {
    // Prepare
    cloudWatch.failNext(3);
    const metrics = new CloudWatchMetrics({ client, namespace: 'RagWatch' });

    // Act
    const publishing = metrics.publish(buildPassedReport());

    // Assess
    await expect(publishing).rejects.toBeInstanceOf(SinkError);
    await expect(publishing).rejects.toMatchObject({
      kind: 'unavailable',
      message:
        'CloudWatch PutMetricData to RagWatch failed on call 1 of 1 (unavailable): InternalServiceFault: injected failure',
    });
  });

  it('throws a bad_request SinkError when CloudWatch refuses the namespace', async () => {
    // Prepare
    const metrics = new CloudWatchMetrics({ client, namespace: 'AWS/RagWatch' });

    // Act
    const publishing = metrics.publish(buildPassedReport());

    // Assess
    await expect(publishing).rejects.toMatchObject({ name: 'SinkError', kind: 'bad_request', status: 400 });
  });
});
