import { describe, expect, it } from 'vitest';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { problemsOf, VALID } from './nightly-env.ts';

describe('parseNightlyConfig', () => {
  it('fills the defaults: RagWatch namespace, bundled suite.json, no Qdrant secret, 15-minute secret cache', () => {
    // Act
    const config = parseNightlyConfig(VALID);

    // Assess
    expect(config).toMatchObject({
      reportBucket: 'ragwatch-reports-123',
      alertTopicArn: 'arn:aws:sns:eu-west-1:123456789012:ragwatch-alerts',
      metricNamespace: 'RagWatch',
      cohereSecretId: 'ragwatch/cohere',
      qdrantSecretId: null,
      secretsMaxAgeSeconds: 900,
      suite: { kind: 'file', path: 'suite.json' },
      region: 'us-east-1',
      engine: { collection: 'book', environment: 'dev', secrets: { cohereApiKey: null, qdrantApiKey: null } },
    });
  });

  it('reads the suite from S3 when SUITE_S3_URI is set', () => {
    // Act
    const config = parseNightlyConfig({ ...VALID, SUITE_S3_URI: 's3://suites-bucket/nightly/golden.yaml' });

    // Assess
    expect(config.suite).toEqual({
      kind: 's3',
      uri: 's3://suites-bucket/nightly/golden.yaml',
      bucket: 'suites-bucket',
      key: 'nightly/golden.yaml',
    });
  });

  it('lists every problem at once, the engine’s and the Lambda’s, each with its variable', () => {
    // Act
    const problems = problemsOf({
      QDRANT_URL: 'ftp://nope',
      REPORT_BUCKET: 'Not_A_Bucket',
      ALERT_TOPIC_ARN: 'ragwatch-alerts',
      METRIC_NAMESPACE: 'AWS/Lambda',
      SUITE_S3_URI: 'https://bucket/key',
    });

    // Assess
    expect(problems).toEqual([
      'QDRANT_URL: must be an http(s) URL, got "ftp://nope"',
      'DOCUSAURUS_BASE_URL: required (the book’s base URL)',
      'REPORT_BUCKET: must be an S3 bucket name, got "Not_A_Bucket"',
      'ALERT_TOPIC_ARN: must be an SNS topic ARN (arn:aws:sns:<region>:<account>:<name>), got "ragwatch-alerts"',
      'METRIC_NAMESPACE: must be 1..255 of A-Za-z0-9.-_/#: and not start with AWS/, got "AWS/Lambda"',
      'COHERE_SECRET_ID: required (the name or ARN of the Secrets Manager secret holding the Cohere API key)',
      'SUITE_S3_URI: must look like s3://<bucket>/<key>, got "https://bucket/key"',
    ]);
  });

  it('refuses API keys in the environment, since they belong in Secrets Manager, without echoing them', () => {
    // Act
    const problems = problemsOf({ ...VALID, COHERE_API_KEY: 'co-plain-text-key', QDRANT_API_KEY: 'qd-plain-text-key' });

    // Assess
    expect(problems).toEqual([
      'COHERE_API_KEY: must not be set on the function; the key comes from Secrets Manager (COHERE_SECRET_ID)',
      'QDRANT_API_KEY: must not be set on the function; the key comes from Secrets Manager (QDRANT_SECRET_ID)',
    ]);
  });
});
