/**
 * Real AWS SDK v3 clients pointed at the local stand-ins: endpoint, region, dummy credentials, path-style S3.
 * maxAttempts is kept at the SDK's default (3) unless a test says otherwise, so retries happen as in production.
 */

import path from 'node:path';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SNSClient } from '@aws-sdk/client-sns';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type AwsStandIns, STAND_IN_CREDENTIALS, STAND_IN_REGION, startAwsStandIns } from '../../sandbox/aws/index.ts';

export interface StandInClients {
  s3: S3Client;
  cloudWatch: CloudWatchClient;
  sns: SNSClient;
  secretsManager: SecretsManagerClient;
  destroy(): void;
}

/** The settings any SDK client needs to talk to a stand-in at `endpoint`. */
export function standInClientConfig(endpoint: string, maxAttempts = 3) {
  return { endpoint, region: STAND_IN_REGION, credentials: STAND_IN_CREDENTIALS, maxAttempts };
}

/** Builds one client per service against the stand-ins. */
export function buildStandInClients(
  endpoints: AwsStandIns['endpoints'],
  options: { maxAttempts?: number } = {},
): StandInClients {
  const attempts = options.maxAttempts ?? 3;
  const clients = {
    s3: new S3Client({ ...standInClientConfig(endpoints.s3, attempts), forcePathStyle: true }),
    cloudWatch: new CloudWatchClient(standInClientConfig(endpoints.cloudWatch, attempts)),
    sns: new SNSClient(standInClientConfig(endpoints.sns, attempts)),
    secretsManager: new SecretsManagerClient(standInClientConfig(endpoints.secretsManager, attempts)),
  };
  return {
    ...clients,
    destroy: () => {
      for (const client of Object.values(clients)) client.destroy();
    },
  };
}

/**
 * The nightly handler's settings against the stand-ins: the report bucket and alert topic they serve, the Cohere
 * secret's name, the fixture suite, environment prod; `more` adds or overrides settings.
 */
export function standInNightlyEnv(aws: AwsStandIns, more: Record<string, string> = {}): Record<string, string> {
  return {
    QDRANT_URL: 'http://127.0.0.1:6333',
    DOCUSAURUS_BASE_URL: 'https://book.example.org',
    ENVIRONMENT: 'prod',
    REPORT_BUCKET: aws.bucket,
    ALERT_TOPIC_ARN: aws.topicArn,
    COHERE_SECRET_ID: 'ragwatch/cohere',
    SUITE_PATH: path.resolve(import.meta.dirname, 'fixtures/suite.json'),
    ...more,
  };
}

/**
 * The AWS stand-ins and their clients for one test file: started before its tests, stopped after them, and emptied
 * before each test (so no test reads another's reports, emails or incident state). The Cohere secret holds
 * `cohereKey`. Read `aws` and `clients` inside tests and hooks: they exist once the file's beforeAll has run.
 */
export function useAwsStandIns(cohereKey: string): { readonly aws: AwsStandIns; readonly clients: StandInClients } {
  let aws: AwsStandIns | undefined;
  let clients: StandInClients | undefined;
  beforeAll(async () => {
    aws = await startAwsStandIns({ secrets: { 'ragwatch/cohere': cohereKey } });
    clients = buildStandInClients(aws.endpoints);
  });
  afterAll(async () => {
    clients?.destroy();
    await aws?.stop();
  });
  beforeEach(() => {
    aws?.fauxqs.reset();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the AWS stand-ins are read before beforeAll started them');
    return value;
  };
  return {
    get aws() {
      return started(aws);
    },
    get clients() {
      return started(clients);
    },
  };
}
