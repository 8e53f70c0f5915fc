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
  cloudWatch.refuseMetric(null);
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
    // RunSucceeded alone, then the rest.
    expect(published).toEqual({ namespace: 'RagWatch', datums: cloudWatch.datums.length, calls: 2 });
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
    expect(published.calls).toBe(3);
    expect(cloudWatch.requests).toHaveLength(3);
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
    const [, request] = cloudWatch.requests;
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

    // Assess: the heartbeat's call failed once and was retried, then the rest went in one call.
    expect(published.calls).toBe(2);
    expect(cloudWatch.requests).toHaveLength(3);
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
      message: expect.stringMatching(
        /^CloudWatch PutMetricData to RagWatch: \d+ of \d+ datums not published \(RunSucceeded, .*\) \(unavailable\): InternalServiceFault: injected failure; 0 published in 1 calls$/,
      ),
    });
    // The first call failed for a reason that is not a datum: the others are not tried against a failing service.
    expect(cloudWatch.requests).toHaveLength(3);
  });

  it('sends RunSucceeded alone in the first call, so no other datum can take the heartbeat down', async () => {
    // Act
    const published = await new CloudWatchMetrics({ client, namespace: 'RagWatch' }).publish(buildPassedReport());

    // Assess
    expect(published.calls).toBe(2);
    const first = cloudWatch.requests[0]?.body as { MetricData: { MetricName: string }[] };
    expect(first.MetricData.map((d) => d.MetricName)).toEqual(['RunSucceeded']);
    expect(cloudWatch.datums[0]?.MetricName).toBe('RunSucceeded');
  });

  it('publishes every other datum when CloudWatch refuses some, and names the ones it refused', async () => {
    // Prepare: CloudWatch refuses any call that carries PassRate, as it refuses a whole call for one bad datum.
    cloudWatch.refuseMetric('PassRate');
    const report = buildPassedReport();
    const metrics = new CloudWatchMetrics({ client, namespace: 'RagWatch' });

    // Act
    const error = (await metrics.publish(report).catch((e: unknown) => e)) as SinkError;

    // Assess
    expect(error).toMatchObject({ name: 'SinkError', kind: 'bad_request', status: 400 });
    expect(error.message).toMatch(
      /^CloudWatch PutMetricData to RagWatch: 3 of \d+ datums not published \(PassRate\) \(bad_request\): InvalidParameterValueException: MetricData.member.\d+.Value: refused \(injected\); \d+ published in \d+ calls$/,
    );
    // PassRate goes out three times (the run's, and per category): each refused, every other datum published.
    const total = Number(/3 of (\d+)/.exec(error.message)?.[1]);
    const names = cloudWatch.datums.map((d) => d.MetricName);
    expect(names).toHaveLength(total - 3);
    expect(names).not.toContain('PassRate');
    expect(names).toContain('RunSucceeded');
    expect(names).toContain('QueriesTotal');
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
