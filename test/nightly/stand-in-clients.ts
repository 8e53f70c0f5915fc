/**
 * Real AWS SDK v3 clients pointed at the local stand-ins: endpoint, region, dummy credentials, path-style S3.
 * maxAttempts is kept at the SDK's default (3) unless a test says otherwise, so retries happen as in production.
 */
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SNSClient } from '@aws-sdk/client-sns';
import { type AwsStandIns, STAND_IN_CREDENTIALS, STAND_IN_REGION } from '../../sandbox/aws/index.ts';

export interface StandInClients {
  s3: S3Client;
  cloudWatch: CloudWatchClient;
  sns: SNSClient;
  secretsManager: SecretsManagerClient;
  destroy(): void;
}

/** Builds one client per service against the stand-ins. */
export function buildStandInClients(
  endpoints: AwsStandIns['endpoints'],
  options: { maxAttempts?: number } = {},
): StandInClients {
  const common = {
    region: STAND_IN_REGION,
    credentials: STAND_IN_CREDENTIALS,
    maxAttempts: options.maxAttempts ?? 3,
  };
  const clients = {
    s3: new S3Client({ ...common, endpoint: endpoints.s3, forcePathStyle: true }),
    cloudWatch: new CloudWatchClient({ ...common, endpoint: endpoints.cloudWatch }),
    sns: new SNSClient({ ...common, endpoint: endpoints.sns }),
    secretsManager: new SecretsManagerClient({ ...common, endpoint: endpoints.secretsManager }),
  };
  return {
    ...clients,
    destroy: () => {
      for (const client of Object.values(clients)) client.destroy();
    },
  };
}
