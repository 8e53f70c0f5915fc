/**
 * The deployable artifact itself: the handler as `cdk synth` bundles it (one ESM file plus suite.json), loaded the
 * way Lambda loads it, configured only through the environment the stack sets, and run against the sandbox and the
 * AWS stand-ins. The SDK clients inside the bundle are the module-scope defaults: they find the stand-ins through
 * the SDK's own AWS_ENDPOINT_URL_<SERVICE> variables, and S3's virtual-hosted names (bucket.s3.localhost) resolve
 * to loopback through fauxqs' DNS hook, so no production code knows it is under test.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { interceptLocalhostDns } from 'fauxqs';
import { afterAll, describe, expect, it } from 'vitest';
import type { NightlyResult } from '../../functions/nightly/result.ts';
import { buildNightlyApp } from '../../infra/nightly-app.ts';
import { type AwsStandIns, STAND_IN_CREDENTIALS, startAwsStandIns } from '../../sandbox/aws/index.ts';
import { indexSampleBook, type Sandbox, startSandbox } from '../../sandbox/start-sandbox.ts';
import { parseValidReport } from '../helpers/valid-report.ts';

let sandbox: Sandbox;
let aws: AwsStandIns;
let restoreDns: () => void;
let result: NightlyResult;

// Synthesizing (bundling included) while the file loads: a first synth loads aws-cdk-lib and cdk-nag, which on a
// busy machine outlasts a hook's time limit.
const outdir = mkdtempSync(path.join(tmpdir(), 'ragwatch-bundle-'));
buildNightlyApp({
  outdir,
  // The stack's own values; the test's environment below overrides the ones that point at services.
  context: {
    sandbox: true, // placeholder hosts and the sample suite, allowed explicitly (infra/settings.ts)
    qdrantUrl: 'https://qdrant.example.com',
    docusaurusBaseUrl: 'https://book.example.com',
    cohereSecret: 'ragwatch/cohere',
  },
}).app.synth();
const bundleDir = readdirSync(outdir)
  .filter((d) => d.startsWith('asset.'))
  .map((d) => path.join(outdir, d))
  .find((d) => readdirSync(d).includes('index.mjs'));
if (bundleDir === undefined) throw new Error('no bundled handler in the cloud assembly');

// The servers and the handler's run also happen while the file loads: indexing the sample book and a full run of
// the bundled handler outlast a hook's time limit on a busy machine, and no test here measures time.
{
  sandbox = await startSandbox();
  await indexSampleBook(sandbox);
  aws = await startAwsStandIns({ secrets: { 'ragwatch/cohere': sandbox.env.COHERE_API_KEY ?? '' } });
  restoreDns = interceptLocalhostDns();
  const { COHERE_API_KEY: _inSecretsManager, ...engineEnv } = sandbox.env;
  Object.assign(process.env, {
    ...engineEnv,
    ENVIRONMENT: 'prod',
    REPORT_BUCKET: aws.bucket,
    ALERT_TOPIC_ARN: aws.topicArn,
    COHERE_SECRET_ID: 'ragwatch/cohere',
    LAMBDA_TASK_ROOT: bundleDir,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: STAND_IN_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: STAND_IN_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_S3: aws.endpoints.s3.replace('127.0.0.1', 's3.localhost'),
    AWS_ENDPOINT_URL_SNS: aws.endpoints.sns,
    AWS_ENDPOINT_URL_CLOUDWATCH: aws.endpoints.cloudWatch,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: aws.endpoints.secretsManager,
    POWERTOOLS_LOG_LEVEL: 'SILENT',
  });
  const bundle = (await import(pathToFileURL(path.join(bundleDir, 'index.mjs')).href)) as {
    handler: (event: unknown, context: unknown) => Promise<NightlyResult>;
  };
  result = await bundle.handler({ source: 'ragwatch.schedule' }, { awsRequestId: 'bundle-test' });
}

afterAll(async () => {
  restoreDns?.();
  await Promise.all([aws?.stop(), sandbox?.stop()]);
  rmSync(outdir, { recursive: true, force: true });
});

describe('the bundled nightly handler', () => {
  it('runs the bundled suite and stores a valid report through every sink', async () => {
    expect(result.sinks.report.ok && result.sinks.metrics.ok && result.sinks.alert.ok).toBe(true);
    const stored = parseValidReport((await aws.readObject('reports/book/latest.json')) ?? 'null');
    expect(stored).toMatchObject({ run_id: result.runId, status: result.status, suite: { source: 'suite.json' } });
    expect(stored.total_queries).toBeGreaterThan(0);
  });

  it('sends its metrics to the stand-in in the RagWatch namespace', () => {
    const heartbeat = aws.cloudWatch.datums.find((d) => d.MetricName === 'RunSucceeded');
    expect(heartbeat).toMatchObject({ namespace: 'RagWatch', Value: 1 });
  });
});
