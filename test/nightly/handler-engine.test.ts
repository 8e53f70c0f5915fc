/**
 * The nightly handler with everything real but the clouds: the real engine (runValidation through the Qdrant,
 * Cohere and sitemap adapters) against the sandbox's Qdrant and Cohere stand-ins and book server, the API key read
 * from the Secrets Manager stand-in, and the report, metrics and alert going through the real AWS SDK clients to
 * the AWS stand-ins. The sample book is indexed with the demo's deliberate drift, so the run breaches criteria.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidationReport } from '../../functions/core/report/report.ts';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { createNightlyDeps } from '../../functions/nightly/deps.ts';
import { createHandler } from '../../functions/nightly/handler.ts';
import type { NightlyResult } from '../../functions/nightly/result.ts';
import { type AwsStandIns, startAwsStandIns } from '../../sandbox/aws/index.ts';
import { SAMPLE_BOOK_BASE_URL } from '../../sandbox/book-server.ts';
import {
  indexSampleBook,
  SAMPLE_SUITE_PATH,
  type Sandbox,
  seedIndexDrift,
  startSandbox,
} from '../../sandbox/start-sandbox.ts';
import { parseValidReport } from '../helpers/valid-report.ts';
import { RecordingLogger } from './recording-logger.ts';
import { buildStandInClients, type StandInClients, standInNightlyEnv } from './stand-in-clients.ts';

let sandbox: Sandbox;
let aws: AwsStandIns;
let clients: StandInClients;
let result: NightlyResult;
let stored: ValidationReport;
const logger = new RecordingLogger();

beforeAll(async () => {
  sandbox = await startSandbox();
  await indexSampleBook(sandbox);
  await seedIndexDrift(sandbox);
  aws = await startAwsStandIns({ secrets: { 'ragwatch/cohere': sandbox.env.COHERE_API_KEY ?? '' } });
  clients = buildStandInClients(aws.endpoints);
  const { COHERE_API_KEY: _fromSecretsManagerInstead, ...engineEnv } = sandbox.env;
  const config = parseNightlyConfig(
    standInNightlyEnv(aws, { ...engineEnv, ENVIRONMENT: 'prod', SUITE_PATH: SAMPLE_SUITE_PATH }),
  );
  result = await createHandler(createNightlyDeps(config, clients, logger))();
  const key = result.sinks.report.ok ? result.sinks.report.value.location.replace(`s3://${aws.bucket}/`, '') : '';
  stored = parseValidReport((await aws.readObject(key)) ?? 'null');
});

afterAll(async () => {
  clients.destroy();
  await Promise.all([aws?.stop(), sandbox?.stop()]);
});

const datum = (name: string) => aws.cloudWatch.datums.find((d) => d.MetricName === name && d.Dimensions.length === 2);

describe('the nightly handler through the real engine and the sandbox', () => {
  it('runs the full validation and stores its report under the run id', () => {
    expect(result.sinks.report.ok).toBe(true);
    expect(stored.run_id).toBe(result.runId);
    expect(stored.status).toBe(result.status);
    expect(stored.total_queries).toBeGreaterThan(0);
    expect(stored.coverage_report?.extra_urls).toContain(`${SAMPLE_BOOK_BASE_URL}/docs/module-1-ros2/ch0-legacy-setup`);
  });

  it('sends metrics whose values are the stored report’s figures', () => {
    expect(datum('RunSucceeded')?.Value).toBe(1);
    expect(datum('PassRate')?.Value).toBe(stored.pass_rate);
    expect(datum('CoveragePercent')?.Value).toBe(stored.coverage_report?.coverage_percentage);
    expect(datum('MetadataCompletenessPercent')?.Value).toBe(stored.quality_metrics?.metadata_completeness_rate);
    expect(datum('QueriesFailed')?.Value).toBe(stored.failed_queries);
    const latencies = aws.cloudWatch.datums.filter((d) => d.MetricName === 'QueryLatency');
    expect(latencies.flatMap((d) => d.Counts ?? []).reduce((a, b) => a + b, 0)).toBe(
      stored.query_results.filter((q) => q.status !== 'ERROR').length,
    );
  });

  it('alerts on the breached criteria of the drifted index, pointing at the stored report', () => {
    const breached = stored.success_criteria.filter((c) => !c.passed).map((c) => c.name);
    expect(breached).toEqual(expect.arrayContaining(['completeness']));
    const [alert] = aws.deliveredAlerts();
    expect(alert?.subject).toMatch(/^\[(HIGH|MEDIUM|CRITICAL)\] RagWatch prod\/book: /);
    expect(alert?.message).toContain(`(run ${stored.run_id})`);
    expect(alert?.message).toContain('ORPHAN URLS (indexed, not in the sitemap): ');
  });

  it('never writes the API key into the report, the logs or the alert', () => {
    const key = sandbox.env.COHERE_API_KEY ?? 'missing';
    const everything = [JSON.stringify(stored), logger.text(), JSON.stringify(aws.deliveredAlerts())].join('\n');
    expect(everything).not.toContain(key);
  });

  it('completes the run when one Qdrant query batch times out once: the read is asked again, no ERROR', async () => {
    const { COHERE_API_KEY: _fromSecretsManagerInstead, ...engineEnv } = sandbox.env;
    const config = parseNightlyConfig(
      standInNightlyEnv(aws, {
        ...engineEnv,
        ENVIRONMENT: 'blip',
        SUITE_PATH: SAMPLE_SUITE_PATH,
        QDRANT_TIMEOUT_MS: '1000',
      }),
    );
    const before = sandbox.qdrant.requestCounts().query_batch_points ?? 0;
    sandbox.qdrant.inject({ operationId: 'query_batch_points', hang: true, times: 1 });
    const blip = await createHandler(createNightlyDeps(config, clients, new RecordingLogger()))();
    sandbox.qdrant.clearFaults();
    expect(blip.status).toBe(stored.status);
    expect(blip.status).not.toBe('ERROR');
    // The hung batch and its second asking, then the rest as on the run above.
    expect((sandbox.qdrant.requestCounts().query_batch_points ?? 0) - before).toBeGreaterThanOrEqual(2);
  });
});
