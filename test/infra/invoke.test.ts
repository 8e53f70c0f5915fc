/**
 * `npm run invoke` against a Lambda stand-in through the real Lambda client: the stand-in runs the real nightly
 * handler wired to the AWS stand-ins (a fake engine produces the report), so what is printed is what a deployed
 * run would answer.
 */
import path from 'node:path';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ValidationReport } from '../../functions/core/report/report.ts';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { createNightlyDeps } from '../../functions/nightly/deps.ts';
import { createHandler } from '../../functions/nightly/handler.ts';
import { invokeNightly } from '../../infra/invoke/invoke-function.ts';
import { type AwsStandIns, startAwsStandIns } from '../../sandbox/aws/index.ts';
import { type LambdaStandIn, startLambdaStandIn } from '../../sandbox/aws/lambda.ts';
import { buildFailedReport, buildPassedReport } from '../nightly/fixtures/reports.ts';
import { RecordingLogger } from '../nightly/recording-logger.ts';
import { buildStandInClients, type StandInClients, standInClientConfig } from '../nightly/stand-in-clients.ts';

let aws: AwsStandIns;
let clients: StandInClients;
let lambda: LambdaStandIn;
let client: LambdaClient;
let nextReport: () => ValidationReport = buildPassedReport;

const nightly = () => {
  const config = parseNightlyConfig({
    QDRANT_URL: 'http://127.0.0.1:6333',
    DOCUSAURUS_BASE_URL: 'https://book.example.org',
    REPORT_BUCKET: aws.bucket,
    ALERT_TOPIC_ARN: aws.topicArn,
    COHERE_SECRET_ID: 'ragwatch/cohere',
    SUITE_PATH: path.resolve(import.meta.dirname, '../nightly/fixtures/suite.json'),
  });
  return createHandler({
    ...createNightlyDeps(config, clients, new RecordingLogger()),
    runEngine: async (_engine, run) => ({ ...nextReport(), run_id: run.newId() }),
  });
};

beforeAll(async () => {
  aws = await startAwsStandIns({ secrets: { 'ragwatch/cohere': 'co-test-key' } });
  clients = buildStandInClients(aws.endpoints);
  lambda = await startLambdaStandIn({
    'ragwatch-prod-book': (event, context) => nightly()(event, context),
    'ragwatch-prod-broken': async () => {
      throw new Error('configuration: QDRANT_URL: required');
    },
  });
  client = new LambdaClient(standInClientConfig(lambda.endpoint, 1));
});

afterAll(async () => {
  client.destroy();
  clients.destroy();
  await Promise.all([lambda.stop(), aws.stop()]);
});

beforeEach(() => {
  aws.fauxqs.reset();
  lambda.busy = false;
  nextReport = buildPassedReport;
});

const invoke = (functionName: string) => invokeNightly(client, { functionName, region: 'eu-west-1' });

describe('npm run invoke', () => {
  it('runs the function synchronously and prints the verdict and where the report is, exit 0 on PASSED', async () => {
    // Act
    const { lines, exitCode } = await invoke('ragwatch-prod-book');

    // Assess
    expect(lambda.invocations).toEqual([
      { functionName: 'ragwatch-prod-book', invocationType: 'RequestResponse', event: { source: 'ragwatch.invoke' } },
    ]);
    expect(exitCode).toBe(0);
    expect(lines[0]).toMatch(/^Run [0-9a-f-]{36}: PASSED \(/);
    expect(lines[1]).toMatch(/^Report: s3:\/\/ragwatch-reports\/reports\/book\/2026\/03\/14\/[0-9a-f-]{36}\.json$/);
    expect(await aws.listKeys()).toContain(lines[1]?.replace('Report: s3://ragwatch-reports/', ''));
  });

  it('prints the HTML report’s location and its S3 console page, to open it in a browser', async () => {
    // Act
    const { lines } = await invoke('ragwatch-prod-book');

    // Assess
    const key = lines[1]?.replace('Report: s3://ragwatch-reports/', '').replace(/\.json$/, '.html') ?? '';
    expect(lines.slice(2)).toEqual([
      `HTML report: s3://ragwatch-reports/${key}`,
      `Open it: https://eu-west-1.console.aws.amazon.com/s3/object/ragwatch-reports?region=eu-west-1&bucketType=general&prefix=${encodeURIComponent(key)}`,
    ]);
  });

  it('exits 1 when the run breached a criterion', async () => {
    // Prepare
    nextReport = buildFailedReport;

    // Act
    const { lines, exitCode } = await invoke('ragwatch-prod-book');

    // Assess
    expect(exitCode).toBe(1);
    expect(lines[0]).toContain(': FAILED (');
  });

  it('prints the function’s own error when the handler threw, and exits 1', async () => {
    // Act
    const { lines, exitCode } = await invoke('ragwatch-prod-broken');

    // Assess
    expect(exitCode).toBe(1);
    expect(lines[0]).toBe('ragwatch-prod-broken failed (Unhandled): Error: configuration: QDRANT_URL: required');
  });

  it('says how to name the function when none by that name is deployed', async () => {
    // Act
    const { lines, exitCode } = await invoke('ragwatch-staging-book');

    // Assess
    expect(exitCode).toBe(1);
    expect(lines).toEqual([
      "No function ragwatch-staging-book in this account and region: deploy the stack first, or pass --function <name> (the stack's FunctionName output) and --region.",
    ]);
  });

  it('says the job is already running when Lambda throttles the one run it allows', async () => {
    // Prepare
    lambda.busy = true;

    // Act
    const { lines } = await invoke('ragwatch-prod-book');

    // Assess
    expect(lines[0]).toContain('ragwatch-prod-book is already running (it runs one at a time)');
  });
});
