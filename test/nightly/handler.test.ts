/**
 * The nightly handler end to end through the real AWS SDK clients against the local stand-ins (fauxqs for S3
 * and SNS, this project's CloudWatch and Secrets Manager servers), with a fake engine standing in for
 * runValidation so each kind of run can be produced on demand.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EngineConfig } from '../../functions/core/config.ts';
import type { ValidationReport } from '../../functions/core/report/report.ts';
import { IndexError } from '../../functions/core/shared/errors.ts';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { createNightlyDeps, type NightlyDeps } from '../../functions/nightly/deps.ts';
import { createHandler } from '../../functions/nightly/handler.ts';
import { type AwsStandIns, startAwsStandIns } from '../../sandbox/aws/index.ts';
import { parseValidReport } from '../helpers/valid-report.ts';
import { buildFailedReport, buildPassedReport } from './fixtures/reports.ts';
import { RecordingLogger } from './recording-logger.ts';
import { buildStandInClients, type StandInClients } from './stand-in-clients.ts';

const COHERE_KEY = 'co-live-7f3a9c2e5b1d4e8f';
const QDRANT_KEY = 'qd-live-1b2c3d4e5f6a7b8c';
const SUITE = path.resolve(import.meta.dirname, 'fixtures/suite.json');

let aws: AwsStandIns;
let clients: StandInClients;

beforeAll(async () => {
  aws = await startAwsStandIns({
    secrets: { 'ragwatch/cohere': COHERE_KEY, 'ragwatch/qdrant': JSON.stringify({ api_key: QDRANT_KEY }) },
  });
  clients = buildStandInClients(aws.endpoints);
});

afterAll(async () => {
  clients.destroy();
  await aws.stop();
});

beforeEach(() => {
  aws.fauxqs.reset();
  aws.cloudWatch.datums.length = 0;
  aws.cloudWatch.failNext(0);
});

function environment(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    QDRANT_URL: 'http://127.0.0.1:6333',
    QDRANT_COLLECTION: 'book',
    DOCUSAURUS_BASE_URL: 'https://book.example.org',
    ENVIRONMENT: 'prod',
    REPORT_BUCKET: aws.bucket,
    ALERT_TOPIC_ARN: aws.topicArn,
    COHERE_SECRET_ID: 'ragwatch/cohere',
    QDRANT_SECRET_ID: 'ragwatch/qdrant',
    SUITE_PATH: SUITE,
    AWS_REGION: 'us-east-1',
    AWS_LAMBDA_LOG_GROUP_NAME: '/aws/lambda/ragwatch-nightly',
    ...overrides,
  };
}

/** A fake engine returning `report` under the run id the handler hands it, and recording what it was given. */
function engineReturning(
  build: () => ValidationReport,
  seen: { engine?: EngineConfig } = {},
): NightlyDeps['runEngine'] {
  return async (engine, run) => {
    seen.engine = engine;
    const report = build();
    report.run_id = run.newId();
    report.validation_metrics.validation_run_id = report.run_id;
    return report;
  };
}

function handlerWith(
  options: { env?: Record<string, string>; runEngine?: NightlyDeps['runEngine']; logger?: RecordingLogger } = {},
) {
  const config = parseNightlyConfig(environment(options.env));
  const logger = options.logger ?? new RecordingLogger();
  const deps = createNightlyDeps(config, clients, logger);
  return createHandler({ ...deps, ...(options.runEngine ? { runEngine: options.runEngine } : {}) });
}

function datum(name: string, dimensions = 2) {
  return aws.cloudWatch.datums.find((d) => d.MetricName === name && d.Dimensions.length === dimensions);
}

describe('the nightly handler on a clean run', () => {
  it('stores the report in S3 as the engine produced it plus its regression section, at the dated key and as latest.json', async () => {
    // Prepare
    let produced: ValidationReport | undefined;
    const handler = handlerWith({
      runEngine: async (engine, run) => {
        produced = await engineReturning(buildPassedReport)(engine, run);
        return produced;
      },
    });

    // Act
    const result = await handler({}, { awsRequestId: 'req-1' });

    // Assess
    const key = `reports/book/2026/03/14/${result.runId}.json`;
    expect((await aws.listKeys()).sort()).toEqual(
      [
        key,
        key.replace('.json', '.html'),
        key.replace('.json', '.csv'),
        'reports/book/latest.json',
        'reports/book/latest.html',
        'reports/book/latest.csv',
        // The environment's run index, for the history (adapters/aws/s3-run-index.ts).
        'reports/book/_history/prod.json',
        // The page of past runs (core/render/html/runs-page.ts).
        'reports/book/index.html',
      ].sort(),
    );
    const expected = { ...produced, regression: expect.objectContaining({ compared: false, baseline_runs: [] }) };
    expect(JSON.parse((await aws.readObject(key)) ?? 'null')).toEqual(expected);
    expect(JSON.parse((await aws.readObject('reports/book/latest.json')) ?? 'null')).toEqual(expected);
  });

  it('sends the run’s metrics with Collection and Environment dimensions in the RagWatch namespace', async () => {
    // Prepare
    const handler = handlerWith({ runEngine: engineReturning(buildPassedReport) });

    // Act
    await handler();

    // Assess
    const dimensions = [
      { Name: 'Collection', Value: 'book' },
      { Name: 'Environment', Value: 'prod' },
    ];
    expect(aws.cloudWatch.datums.every((d) => d.namespace === 'RagWatch')).toBe(true);
    expect(datum('RunSucceeded')).toMatchObject({ Dimensions: dimensions, Value: 1, Unit: 'Count' });
    expect(datum('PassRate')).toMatchObject({ Dimensions: dimensions, Value: 100, Unit: 'Percent' });
    expect(datum('CoveragePercent')?.Value).toBe(100);
    expect(datum('MetadataCompletenessPercent')?.Value).toBe(100);
    expect(datum('QueryLatency')).toMatchObject({ Values: [53], Counts: [10], Unit: 'Milliseconds' });
  });

  it('sends no alert and reports every sink as succeeded', async () => {
    // Prepare
    const handler = handlerWith({ runEngine: engineReturning(buildPassedReport) });

    // Act
    const result = await handler();

    // Assess
    expect(aws.deliveredAlerts()).toEqual([]);
    expect(result).toEqual({
      runId: result.runId,
      status: 'PASSED',
      statusReason: 'every success criterion holds',
      sinks: {
        report: {
          ok: true,
          value: {
            location: `s3://ragwatch-reports/reports/book/2026/03/14/${result.runId}.json`,
            latestUpdated: true,
            htmlLocation: `s3://ragwatch-reports/reports/book/2026/03/14/${result.runId}.html`,
          },
        },
        metrics: { ok: true, value: { namespace: 'RagWatch', datums: aws.cloudWatch.datums.length, calls: 2 } },
        alert: { ok: true, value: { sent: false } },
      },
    });
  });

  it('puts the run id on every log line and hands the engine the keys from Secrets Manager', async () => {
    // Prepare
    const logger = new RecordingLogger();
    const seen: { engine?: EngineConfig } = {};
    const handler = handlerWith({ logger, runEngine: engineReturning(buildPassedReport, seen) });

    // Act
    const result = await handler({}, { awsRequestId: 'req-2' });

    // Assess
    expect(seen.engine?.secrets).toEqual({ cohereApiKey: COHERE_KEY, qdrantApiKey: QDRANT_KEY });
    expect(logger.lines.length).toBeGreaterThan(2);
    for (const line of logger.lines) expect(line.keys).toMatchObject({ run_id: result.runId, aws_request_id: 'req-2' });
  });
});

describe('the nightly handler on a breaching run', () => {
  it('publishes one alert with severity, what broke and where the report is', async () => {
    // Prepare
    const handler = handlerWith({ runEngine: engineReturning(buildFailedReport) });

    // Act
    const result = await handler();

    // Assess
    const alerts = aws.deliveredAlerts();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.subject).toBe(
      '[CRITICAL] RagWatch prod/book: pass rate 40% < 90%, coverage 7.41% < 100%, completeness 97.5% < ...',
    );
    expect(alerts[0]?.attributes).toEqual({
      severity: 'CRITICAL',
      collection: 'book',
      environment: 'prod',
      alert_kind: 'onset',
      incident_track: 'quality',
    });
    expect(alerts[0]?.message).toContain(
      `- Report JSON: s3://ragwatch-reports/reports/book/2026/03/14/${result.runId}.json`,
    );
    expect(result.sinks.alert).toEqual({
      ok: true,
      value: {
        sent: true,
        messageId: expect.any(String),
        severity: 'CRITICAL',
        emails: [expect.objectContaining({ kind: 'onset', track: 'quality', subject: alerts[0]?.subject })],
      },
    });
  });

  it('says since when from the incident’s start, and sends nothing the next night while it lasts', async () => {
    // Prepare
    await handlerWith({ runEngine: engineReturning(buildPassedReport) })();
    const handler = handlerWith({ runEngine: engineReturning(buildFailedReport) });

    // Act
    const onset = await handler();
    const nextNight = await handler();

    // Assess
    expect(aws.deliveredAlerts()).toHaveLength(1);
    expect(aws.deliveredAlerts()[0]?.message.split('\n')[2]).toMatch(
      new RegExp(
        `^Severity: CRITICAL; open since 2026-03-14T02:00:00.000Z \\(1 run\\(s\\)\\); this run .* \\(run ${onset.runId}\\), FAILED$`,
      ),
    );
    expect(nextNight.sinks.alert).toEqual({ ok: true, value: { sent: false } });
  });

  it('sends the failing figures to CloudWatch too', async () => {
    // Prepare
    const handler = handlerWith({ runEngine: engineReturning(buildFailedReport) });

    // Act
    await handler();

    // Assess
    expect(datum('PassRate')?.Value).toBe(40);
    expect(datum('QueriesFailed')?.Value).toBe(12);
    expect(datum('MissingUrls')?.Value).toBe(25);
    expect(datum('PassRate', 3)?.Dimensions.at(2)).toEqual({ Name: 'QueryCategory', Value: 'keyword' });
  });
});

describe('the nightly handler when one sink fails', () => {
  it('still sends metrics and an alert saying the report is not stored, and logs the full report, when S3 fails', async () => {
    // Prepare
    const logger = new RecordingLogger();
    const handler = handlerWith({
      logger,
      env: { REPORT_BUCKET: 'bucket-that-is-gone' },
      runEngine: engineReturning(buildFailedReport),
    });

    // Act
    const result = await handler();

    // Assess
    expect(result.sinks.report).toEqual({ ok: false, error: expect.stringContaining('NoSuchBucket') });
    expect(result.sinks.metrics.ok).toBe(true);
    expect(datum('PassRate')?.Value).toBe(40);
    const [alert] = aws.deliveredAlerts();
    expect(alert?.subject).toContain('report NOT stored');
    expect(alert?.message).toContain(
      `the full report is in the function's log (/aws/lambda/ragwatch-nightly), message "validation report (not stored)"`,
    );
    expect(alert?.message).toContain('SUMMARY');
    const logged = logger.find('validation report (not stored)');
    expect(parseValidReport(logged?.extra.report).run_id).toBe(result.runId);
  });

  it('still alerts on a clean run whose report S3 would not take', async () => {
    // Prepare
    const handler = handlerWith({
      env: { REPORT_BUCKET: 'bucket-that-is-gone' },
      runEngine: engineReturning(buildPassedReport),
    });

    // Act
    const result = await handler();

    // Assess
    expect(result.sinks.alert).toMatchObject({ ok: true, value: { sent: true, severity: 'HIGH' } });
    expect(aws.deliveredAlerts()[0]?.subject).toBe('[HIGH] RagWatch prod/book: report NOT stored');
  });

  it('still stores the report and alerts, naming the metrics failure, when CloudWatch keeps failing', async () => {
    // Prepare
    aws.cloudWatch.failNext(3);
    const handler = handlerWith({ runEngine: engineReturning(buildFailedReport) });

    // Act
    const result = await handler();

    // Assess
    expect(result.sinks.metrics).toEqual({ ok: false, error: expect.stringContaining('InternalServiceFault') });
    expect(result.sinks.report.ok).toBe(true);
    expect(await aws.readObject('reports/book/latest.json')).toBeDefined();
    expect(aws.deliveredAlerts()[0]?.message).toContain('Also failed: CloudWatch metrics: CloudWatch PutMetricData');
  });

  it('still stores the report and sends metrics when SNS refuses the alert', async () => {
    // Prepare
    const logger = new RecordingLogger();
    const topic = 'arn:aws:sns:us-east-1:000000000000:topic-that-is-gone';
    const handler = handlerWith({
      logger,
      env: { ALERT_TOPIC_ARN: topic },
      runEngine: engineReturning(buildFailedReport),
    });

    // Act
    const result = await handler();

    // Assess
    expect(result.sinks).toMatchObject({
      report: { ok: true },
      metrics: { ok: true },
      alert: { ok: false, error: expect.stringContaining(`SNS Publish to ${topic} failed (not_found)`) },
    });
    // The report, latest.json, their HTML and CSV, the run index, the page of past runs, and the incident state put
    // back as it was, so the next run sends the onset again.
    expect(await aws.listKeys()).toHaveLength(9);
    expect(JSON.parse((await aws.readObject('reports/book/incidents/prod.json')) ?? 'null')?.open.quality).toBeNull();
    expect(logger.find('alert not sent; incident state put back so the next run sends it')?.level).toBe('error');
  });
});

describe('the nightly handler when the run itself fails', () => {
  it('stores an ERROR report, sends RunSucceeded 0 and a MEDIUM alert (a first ERROR night) when the engine throws', async () => {
    // Prepare
    const handler = handlerWith({
      runEngine: async () => {
        throw new IndexError('Qdrant at http://10.0.0.5:6333 is unreachable: ECONNREFUSED', 'unavailable');
      },
    });

    // Act
    const result = await handler();

    // Assess
    expect(result.status).toBe('ERROR');
    const stored = parseValidReport((await aws.readObject('reports/book/latest.json')) ?? 'null');
    expect(stored).toMatchObject({
      run_id: result.runId,
      status: 'ERROR',
      status_reason: 'the run could not complete: engine: Qdrant at http://10.0.0.5:6333 is unreachable: ECONNREFUSED',
      suite: { name: 'nightly-test-suite', query_count: 2 },
    });
    expect(datum('RunSucceeded')?.Value).toBe(0);
    const [alert] = aws.deliveredAlerts();
    expect(alert?.attributes.severity).toBe('MEDIUM');
    expect(alert?.subject).toBe(
      '[MEDIUM] RagWatch prod/book: run ERROR: engine: Qdrant at http://10.0.0.5:6333 is unreachable: E...',
    );
  });

  it('reports the secret it could not read, by name, when Secrets Manager has no such secret', async () => {
    // Prepare
    const handler = handlerWith({
      env: { COHERE_SECRET_ID: 'ragwatch/not-there' },
      runEngine: engineReturning(buildPassedReport),
    });

    // Act
    const result = await handler();

    // Assess
    expect(result.statusReason).toMatch(
      /^the run could not complete: secrets: secret ragwatch\/not-there: could not be read \(not_found\)/,
    );
    expect(aws.deliveredAlerts()[0]?.attributes.severity).toBe('MEDIUM');
  });

  it('names every problem of an invalid suite in the ERROR report', async () => {
    // Prepare
    const bad = path.resolve(import.meta.dirname, 'fixtures/reports.ts');
    const handler = handlerWith({ env: { SUITE_PATH: bad }, runEngine: engineReturning(buildPassedReport) });

    // Act
    const result = await handler();

    // Assess
    expect(result.status).toBe('ERROR');
    expect(result.statusReason).toContain('the run could not complete: suite:');
    expect(result.statusReason).toContain('not valid JSON');
  });

  it('reads the suite from S3 when SUITE_S3_URI names one, and records that source in the report', async () => {
    // Prepare
    const suiteText = readFileSync(SUITE, 'utf8');
    await clients.s3.send(new PutObjectCommand({ Bucket: aws.bucket, Key: 'suites/nightly.json', Body: suiteText }));
    const seen: string[] = [];
    const handler = handlerWith({
      env: { SUITE_S3_URI: `s3://${aws.bucket}/suites/nightly.json` },
      runEngine: async (engine, run) => {
        seen.push(`${run.source} ${run.suite.name} ${run.suite.queries.length}`);
        return engineReturning(buildPassedReport)(engine, run);
      },
    });

    // Act
    await handler();

    // Assess
    expect(seen).toEqual([`s3://${aws.bucket}/suites/nightly.json nightly-test-suite 2`]);
  });

  it('ends in an ERROR report naming the S3 suite that could not be read', async () => {
    // Prepare
    const handler = handlerWith({
      env: { SUITE_S3_URI: `s3://${aws.bucket}/suites/missing.json` },
      runEngine: engineReturning(buildPassedReport),
    });

    // Act
    const result = await handler();

    // Assess
    expect(result.statusReason).toBe(
      `the run could not complete: suite: s3://${aws.bucket}/suites/missing.json is invalid: - could not be read from S3 (not_found): NoSuchKey: The specified key does not exist.`,
    );
  });

  it('never lets an API key into the report, the logs or the alert', async () => {
    // Prepare
    const logger = new RecordingLogger();
    const handler = handlerWith({
      logger,
      env: { REPORT_BUCKET: 'bucket-that-is-gone' },
      runEngine: async (engine) => {
        throw new Error(`embedding failed for key ${engine.secrets.cohereApiKey?.slice(0, 0)}[REDACTED]`);
      },
    });

    // Act
    await handler();

    // Assess
    const everything = [logger.text(), ...aws.deliveredAlerts().map((a) => `${a.subject}${a.message}`)].join('\n');
    expect(everything).toContain('[REDACTED]');
    expect(everything).not.toContain(COHERE_KEY);
    expect(everything).not.toContain(QDRANT_KEY);
  });
});
