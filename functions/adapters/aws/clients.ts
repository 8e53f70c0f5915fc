/**
 * The AWS SDK v3 clients the nightly Lambda uses (S3, CloudWatch, SNS, Secrets Manager), built in one place so
 * each gets the same transport bounds. Without them a hung endpoint holds a request forever: the SDK's Node
 * handler sets no connection or request timeout by default, and in @smithy/node-http-handler 4.x a breached
 * `requestTimeout` only logs a warning unless `throwOnRequestTimeout` is set.
 */
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SNSClient } from '@aws-sdk/client-sns';

export interface AwsClients {
  s3: S3Client;
  cloudWatch: CloudWatchClient;
  sns: SNSClient;
  secretsManager: SecretsManagerClient;
}

/** Per-attempt transport bounds; each sink also has a bound over all its attempts (see nightly/post-run-ports.ts). */
const AWS_TRANSPORT = {
  /** TCP (and TLS) connect: an AWS endpoint in-region connects in milliseconds; 3 s means it is not there. */
  connectionTimeoutMs: 3_000,
  /** One request and its response: the largest call (a report PutObject, a few MB) takes well under a second. */
  requestTimeoutMs: 10_000,
  /** The SDK's standard retry mode (3 attempts, backoff with jitter): what "after retries" means for every sink. */
  maxAttempts: 3,
} as const;

/** Where the clients point: AWS itself in production; stand-ins (endpoint, region, credentials) in tests. */
export interface AwsClientTarget {
  region?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  endpoints?: { s3: string; sns: string; cloudWatch: string; secretsManager: string };
  maxAttempts?: number;
}

/** The settings every client shares: retries and the transport's timeouts. */
export function awsClientSettings(target: AwsClientTarget = {}, endpoint?: string) {
  return {
    maxAttempts: target.maxAttempts ?? AWS_TRANSPORT.maxAttempts,
    requestHandler: {
      connectionTimeout: AWS_TRANSPORT.connectionTimeoutMs,
      requestTimeout: AWS_TRANSPORT.requestTimeoutMs,
      throwOnRequestTimeout: true,
    },
    ...(target.region ? { region: target.region } : {}),
    ...(target.credentials ? { credentials: target.credentials } : {}),
    ...(endpoint ? { endpoint } : {}),
  };
}

/** One client per service, each with the shared bounds. */
export function createAwsClients(target: AwsClientTarget = {}): AwsClients {
  const at = target.endpoints;
  return {
    s3: new S3Client({ ...awsClientSettings(target, at?.s3), ...(at ? { forcePathStyle: true } : {}) }),
    cloudWatch: new CloudWatchClient(awsClientSettings(target, at?.cloudWatch)),
    sns: new SNSClient(awsClientSettings(target, at?.sns)),
    secretsManager: new SecretsManagerClient(awsClientSettings(target, at?.secretsManager)),
  };
}

/** The SDK's per-call options: an abort signal when there is one. */
export function abortable(signal: AbortSignal | undefined): { abortSignal?: AbortSignal } {
  return signal === undefined ? {} : { abortSignal: signal };
}
