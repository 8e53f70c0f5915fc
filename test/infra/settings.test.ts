import { describe, expect, it } from 'vitest';
import { readStackSettings } from '../../infra/settings.ts';

const REQUIRED = {
  qdrantUrl: 'https://qdrant.example.org:6333',
  docusaurusBaseUrl: 'https://book.example.org',
  cohereSecret: 'ragwatch/cohere',
};

const lookupOf = (context: Record<string, unknown>) => (key: string) => context[key];

describe('readStackSettings', () => {
  it('fills the defaults: 03:00 UTC nightly, RagWatch namespace, 90/100/100 thresholds, the sample suite', () => {
    // Act
    const settings = readStackSettings(lookupOf(REQUIRED));

    // Assess
    expect(settings).toEqual({
      environment: 'prod',
      collection: 'book',
      ...REQUIRED,
      sitemapUrl: undefined,
      qdrantSecret: undefined,
      alertEmails: [],
      scheduleExpression: 'cron(0 3 * * ? *)',
      scheduleTimeZone: 'Etc/UTC',
      metricNamespace: 'RagWatch',
      thresholds: { minPassRate: 90, minCoverage: 100, minCompleteness: 100 },
      suitePath: 'sandbox/suite.json',
      suiteS3Uri: undefined,
      reportRetentionDays: 400,
      logRetentionDays: 90,
      logLevel: 'INFO',
    });
  });

  it('accepts command-line context, where every value arrives as a string', () => {
    // Act
    const settings = readStackSettings(
      lookupOf({
        ...REQUIRED,
        alertEmails: 'ops@example.org, oncall@example.org',
        minPassRate: '95',
        logRetentionDays: '30',
      }),
    );

    // Assess
    expect(settings.alertEmails).toEqual(['ops@example.org', 'oncall@example.org']);
    expect(settings.thresholds.minPassRate).toBe(95);
    expect(settings.logRetentionDays).toBe(30);
  });

  it('lists every bad value at once, each with its context key', () => {
    // Act
    const reading = () =>
      readStackSettings(
        lookupOf({
          qdrantUrl: 'qdrant:6333',
          alertEmails: ['ops@example.org', 'not-an-address'],
          scheduleExpression: '0 3 * * *',
          minPassRate: 150,
          logRetentionDays: 42,
          suiteS3Uri: 'bucket/key',
        }),
      );

    // Assess
    expect(reading).toThrow(
      [
        'CDK context is invalid:',
        '  - qdrantUrl: must be an http(s) URL, got "qdrant:6333"',
        '  - docusaurusBaseUrl: required (the book’s base URL, for its sitemap)',
        '  - scheduleExpression: must be cron(...), rate(...) or at(...), got "0 3 * * *"',
        '  - suiteS3Uri: must look like s3://<bucket>/<key>, got "bucket/key"',
        '  - alertEmails: "not-an-address" is not an email address',
        '  - logRetentionDays: must be one of 1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653, got 42',
        '  - cohereSecret: required (the name or ARN of the Secrets Manager secret holding the Cohere API key)',
        '  - minPassRate: must be a number from 0 to 100, got 150',
      ].join('\n'),
    );
  });
});
