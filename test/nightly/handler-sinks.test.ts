/**
 * Sinks that cannot hang: the handler with the production SDK clients (createAwsClients: connection and request
 * timeouts) pointed through fault proxies at the AWS stand-ins, so each service can hang or fail on its own.
 * The engine is a fake returning a breached run (an alert is due), and each sink's bound is 1 s.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AwsClients, createAwsClients } from '../../functions/adapters/aws/clients.ts';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { createNightlyDeps, type NightlyDeps } from '../../functions/nightly/deps.ts';
import { createHandler } from '../../functions/nightly/handler.ts';
import { type AwsStandIns, STAND_IN_CREDENTIALS, STAND_IN_REGION, startAwsStandIns } from '../../sandbox/aws/index.ts';
import { type FaultProxy, startFaultProxy } from '../../sandbox/faults/fault-proxy.ts';
import { buildFailedReport } from './fixtures/reports.ts';
import { RecordingLogger } from './recording-logger.ts';
import { standInNightlyEnv } from './stand-in-clients.ts';

type Service = 's3' | 'sns' | 'cloudWatch' | 'secretsManager';

let aws: AwsStandIns;
let proxies: Record<Service, FaultProxy>;
let clients: AwsClients;

beforeAll(async () => {
  aws = await startAwsStandIns({ secrets: { 'ragwatch/cohere': 'co-live-7f3a9c2e5b1d4e8f' } });
  const [s3, sns, cloudWatch, secretsManager] = await Promise.all([
    startFaultProxy(aws.endpoints.s3),
    startFaultProxy(aws.endpoints.sns),
    startFaultProxy(aws.endpoints.cloudWatch),
    startFaultProxy(aws.endpoints.secretsManager),
  ]);
  proxies = { s3, sns, cloudWatch, secretsManager };
  clients = createAwsClients({
    region: STAND_IN_REGION,
    credentials: STAND_IN_CREDENTIALS,
    endpoints: { s3: s3.url, sns: sns.url, cloudWatch: cloudWatch.url, secretsManager: secretsManager.url },
  });
});

afterAll(async () => {
  for (const client of Object.values(clients)) client.destroy();
  await Promise.all([...Object.values(proxies).map((p) => p.stop()), aws.stop()]);
});

beforeEach(() => {
  aws.fauxqs.reset();
  aws.cloudWatch.datums.length = 0;
  for (const proxy of Object.values(proxies)) proxy.setFault({ kind: 'pass' });
});

function hang(...services: Service[]): void {
  for (const s of services) proxies[s].setFault({ kind: 'hang' });
}

function handlerWith(logger = new RecordingLogger()) {
  const config = parseNightlyConfig(
    standInNightlyEnv(aws, {
      SINK_TIMEOUT_SECONDS: '0.5',
      // A fresh secret each time: no cached key hides a hung Secrets Manager.
      SECRETS_MAX_AGE_SECONDS: '0',
    }),
  );
  const runEngine: NightlyDeps['runEngine'] = async (_engine, run) => {
    const report = buildFailedReport();
    report.run_id = run.newId();
    return report;
  };
  return createHandler({ ...createNightlyDeps(config, clients, logger), runEngine });
}

describe('the nightly handler when one AWS sink hangs', () => {
  it('still publishes the metrics and sends the alert when S3 hangs, saying the report is not stored', async () => {
    // Prepare
    hang('s3');

    // Act
    const result = await handlerWith()();

    // Assess
    expect(result.sinks.report).toEqual({ ok: false, error: 'S3 report did not finish within its 500 ms bound' });
    expect(result.sinks.metrics.ok).toBe(true);
    expect(result.sinks.alert).toMatchObject({ ok: true, value: { sent: true } });
    expect(aws.deliveredAlerts()[0]?.subject).toContain('report NOT stored');
  });

  it('still stores the report and sends the alert when CloudWatch hangs', async () => {
    // Prepare
    hang('cloudWatch');

    // Act
    const result = await handlerWith()();

    // Assess
    expect(result.sinks.metrics).toEqual({
      ok: false,
      error: 'CloudWatch metrics did not finish within its 500 ms bound',
    });
    expect(result.sinks.report.ok).toBe(true);
    expect(aws.deliveredAlerts()).toHaveLength(1);
  });

  it('returns with the report stored when only SNS hangs: a partial delivery does not fail the invocation', async () => {
    // Prepare
    hang('sns');

    // Act
    const result = await handlerWith()();

    // Assess
    expect(result.sinks.alert).toEqual({ ok: false, error: 'SNS alert did not finish within its 500 ms bound' });
    expect(result.sinks.report.ok).toBe(true);
  });

  it('keeps the dated report and sends the alert when only the latest.json copy hangs', async () => {
    // Prepare
    proxies.s3.setFault({ kind: 'hang', when: (request) => /^PUT .*\/latest\.json/.test(request) });

    // Act
    const result = await handlerWith()();

    // Assess
    expect(result.sinks.report).toMatchObject({ ok: true, value: { latestUpdated: false } });
    expect(aws.deliveredAlerts()).toHaveLength(1);
  });

  it('stores an ERROR report naming Secrets Manager when it hangs', async () => {
    // Prepare
    hang('secretsManager');

    // Act
    const result = await handlerWith()();

    // Assess
    expect(result.status).toBe('ERROR');
    expect(result.statusReason).toBe(
      'the run could not complete: secrets: Secrets Manager did not finish within its 500 ms bound',
    );
    expect(result.sinks.report.ok).toBe(true);
  });
});

describe('the nightly handler when nothing can be delivered', () => {
  it('throws, naming each sink, when S3 and SNS both hang', async () => {
    // Prepare
    const logger = new RecordingLogger();
    hang('s3', 'sns');

    // Act
    const failure = await handlerWith(logger)().catch((error: unknown) => error);

    // Assess
    expect(failure).toMatchObject({ name: 'NothingDeliveredError' });
    expect((failure as Error).message).toMatch(
      /^ragwatch run \S+ delivered nothing: report not stored \(S3 report did not finish within its 500 ms bound\), alert not sent \(SNS alert did not finish within its 500 ms bound\); metrics: ok\./,
    );
    expect(logger.text()).toContain('validation report (not stored)');
  });

  it('ends by each sink’s own bound, not a transport timeout, when every AWS service hangs at once', async () => {
    // Prepare
    hang('s3', 'sns', 'cloudWatch', 'secretsManager');

    // Act
    const failure = (await handlerWith()().catch((error: unknown) => error)) as Error;

    // Assess
    expect(failure.message).toContain('report not stored (S3 report did not finish within its 500 ms bound)');
    expect(failure.message).toContain('alert not sent (SNS alert did not finish within its 500 ms bound)');
    expect(failure.message).toContain('metrics: CloudWatch metrics did not finish within its 500 ms bound');
  });
});
