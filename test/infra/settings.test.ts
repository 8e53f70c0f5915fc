import { describe, expect, it } from 'vitest';
import { isPlaceholderHost, readStackSettings } from '../../infra/settings.ts';

/** The sandbox switch's minimum: placeholders, the sample suite and no alert address are allowed. */
const REQUIRED = {
  qdrantUrl: 'https://qdrant.example.org:6333',
  docusaurusBaseUrl: 'https://book.example.org',
  cohereSecret: 'ragwatch/cohere',
  sandbox: true,
};

/** What a real deploy gives. */
const REAL = {
  qdrantUrl: 'https://xyz-123.eu-central-1-0.aws.cloud.qdrant.io:6333',
  docusaurusBaseUrl: 'https://user.github.io/repo/',
  cohereSecret: 'ragwatch/cohere',
  alertEmails: 'ops@acme.io',
  suiteS3Uri: 's3://acme-ragwatch-suites/book/suite.json',
};

const problemsOf = (context: Record<string, unknown>): string => {
  try {
    readStackSettings(lookupOf(context));
  } catch (error) {
    return (error as Error).message;
  }
  return '';
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
      coveragePathPrefix: undefined,
      coverageExclude: [],
      qdrantSecret: undefined,
      alertEmails: [],
      pagerUrl: undefined,
      slack: undefined,
      docsUrl: undefined,
      scheduleExpression: 'cron(0 3 * * ? *)',
      scheduleTimeZone: 'Etc/UTC',
      heartbeatHours: 26,
      metricNamespace: 'RagWatch',
      thresholds: { minPassRate: 90, minCoverage: 100, minCompleteness: 100 },
      suitePath: 'sandbox/suite.json',
      suiteS3Uri: undefined,
      suiteThresholds: {},
      reportRetentionDays: 400,
      logRetentionDays: 90,
      logLevel: 'INFO',
      alerts: { reminderDays: 1, reminderMinSeverity: 'HIGH', recoveryRuns: 2 },
    });
  });

  it('accepts a real deploy’s context without the sandbox switch', () => {
    // Act
    const settings = readStackSettings(lookupOf(REAL));

    // Assess
    expect(settings).toMatchObject({ sandbox: false, alertEmails: ['ops@acme.io'], suiteS3Uri: REAL.suiteS3Uri });
  });

  it('refuses placeholder hosts in every URL and alert address, all in one message', () => {
    // Act
    const message = problemsOf({
      ...REAL,
      qdrantUrl: 'https://qdrant.example.com:6333',
      docusaurusBaseUrl: 'https://book.example.com',
      sitemapUrl: 'http://localhost:3000/sitemap.xml',
      alertEmails: ['ops@example.org', 'oncall@acme.io'],
    });

    // Assess
    expect(message).toBe(
      [
        'CDK context is invalid:',
        '  - qdrantUrl: "qdrant.example.com" is a placeholder host; give the real one (or -c sandbox=true to try)',
        '  - docusaurusBaseUrl: "book.example.com" is a placeholder host; give the real one (or -c sandbox=true to try)',
        '  - sitemapUrl: "localhost" is a placeholder host; give the real one (or -c sandbox=true to try)',
        '  - alertEmails: "ops@example.org" is at a placeholder host',
      ].join('\n'),
    );
  });

  it('lists every missing context value of a deploy in one message', () => {
    // Act
    const message = problemsOf({});

    // Assess
    expect(message).toBe(
      [
        'CDK context is invalid:',
        '  - qdrantUrl: required (the Qdrant base URL the function searches)',
        '  - docusaurusBaseUrl: required (the book’s base URL, for its sitemap)',
        '  - alertEmails: required (at least one address; without one, no alert reaches anybody)',
        '  - suiteS3Uri or suitePath: required (your suite: `ragwatch suite generate`, then `ragwatch calibrate`)',
        '  - cohereSecret: required (the name or ARN of the Secrets Manager secret holding the Cohere API key)',
      ].join('\n'),
    );
  });

  it('refuses the sample suite, which fails on purpose, outside the sandbox', () => {
    // Act
    const message = problemsOf({ ...REAL, suiteS3Uri: undefined, suitePath: 'sandbox/suite.json' });

    // Assess
    expect(message).toContain('suitePath: sandbox/suite.json is the sample suite, which fails on purpose');
  });

  it('accepts a suite of the user’s own in the project', () => {
    // Act
    const settings = readStackSettings(lookupOf({ ...REAL, suiteS3Uri: undefined, suitePath: 'suites/book.json' }));

    // Assess
    expect(settings.suitePath).toBe('suites/book.json');
  });

  it('derives the heartbeat window from the schedule: weekdays wait over the weekend, hourly runs 3 h', () => {
    expect(readStackSettings(lookupOf({ ...REAL, scheduleExpression: 'cron(0 3 ? * MON-FRI *)' })).heartbeatHours).toBe(
      74,
    );
    expect(readStackSettings(lookupOf({ ...REAL, scheduleExpression: 'rate(1 hour)' })).heartbeatHours).toBe(3);
  });

  it('refuses a weekly schedule, saying why and what to use instead, with the other problems', () => {
    // Act
    const message = problemsOf({ ...REAL, scheduleExpression: 'cron(0 3 ? * SUN *)', alertEmails: 'x' });

    // Assess
    expect(message).toBe(
      [
        'CDK context is invalid:',
        '  - scheduleExpression: "cron(0 3 ? * SUN *)" runs up to 168 h apart; a CloudWatch alarm looks back 168 h at most, so a missed run could not page anyone. Run at least every 166 h (e.g. cron(0 3 ? * SUN,WED *) or daily)',
        '  - alertEmails: "x" is not an email address',
        '  - alertEmails: required (at least one address; without one, no alert reaches anybody)',
      ].join('\n'),
    );
  });

  it('says a malformed schedule once, not also as a heartbeat problem', () => {
    expect(problemsOf({ ...REAL, scheduleExpression: 'daily' })).toBe(
      'CDK context is invalid:\n  - scheduleExpression: must be cron(...), rate(...) or at(...), got "daily"',
    );
  });

  it('reads every alerting setting from context, as strings from the command line or numbers from cdk.json', () => {
    const settings = readStackSettings(
      lookupOf({ ...REAL, alertReminderDays: '0', alertReminderMinSeverity: 'critical', alertRecoveryRuns: 2 }),
    );
    expect(settings.alerts).toEqual({ reminderDays: 0, reminderMinSeverity: 'CRITICAL', recoveryRuns: 2 });
  });

  it('refuses alerting settings out of range, fractional or unknown, all in one message', () => {
    expect(
      problemsOf({ ...REAL, alertReminderDays: 1.5, alertReminderMinSeverity: 'URGENT', alertRecoveryRuns: '0' }),
    ).toBe(
      [
        'CDK context is invalid:',
        '  - alertReminderMinSeverity: must be one of LOW, MEDIUM, HIGH, CRITICAL, got "URGENT"',
        '  - alertReminderDays: must be a whole number, got 1.5',
        '  - alertRecoveryRuns: must be a number from 1 to 30, got "0"',
      ].join('\n'),
    );
    expect(problemsOf({ ...REAL, alertReminderDays: 365, alertRecoveryRuns: 30 })).toBe('');
    expect(problemsOf({ ...REAL, alertReminderDays: 366 })).toContain(
      'alertReminderDays: must be a number from 0 to 365',
    );
  });

  it('reserves no concurrency unless told, and takes 1 to 1000 whole runs from context', () => {
    expect(readStackSettings(lookupOf(REAL)).reservedConcurrency).toBeUndefined();
    expect(readStackSettings(lookupOf({ ...REAL, reservedConcurrency: '1' })).reservedConcurrency).toBe(1);
    expect(readStackSettings(lookupOf({ ...REAL, reservedConcurrency: 1000 })).reservedConcurrency).toBe(1000);
    expect(problemsOf({ ...REAL, reservedConcurrency: 0 })).toContain(
      'reservedConcurrency: must be a number from 1 to 1000, got 0',
    );
    expect(problemsOf({ ...REAL, reservedConcurrency: 1001 })).toContain('reservedConcurrency: must be a number');
    expect(problemsOf({ ...REAL, reservedConcurrency: 1.5 })).toContain('reservedConcurrency: must be a whole number');
  });

  it('takes an HTTPS pager URL, and refuses plain HTTP and a placeholder host', () => {
    const url = 'https://events.pagerduty.com/integration/abc123/enqueue';
    expect(readStackSettings(lookupOf({ ...REAL, pagerUrl: url })).pagerUrl).toBe(url);
    expect(problemsOf({ ...REAL, pagerUrl: 'http://events.pagerduty.com/x' })).toContain(
      'pagerUrl: must be an https:// URL',
    );
    expect(problemsOf({ ...REAL, pagerUrl: 'https://pager.example.com/x' })).toContain(
      'pagerUrl: "pager.example.com" is a placeholder host',
    );
  });

  it('reads coverage’s path prefix and excluded paths from context, as a comma list or a JSON list', () => {
    const fromCli = readStackSettings(
      lookupOf({ ...REQUIRED, coveragePathPrefix: '/', coverageExclude: ' /markdown-page, /blog/** ' }),
    );
    const fromJson = readStackSettings(lookupOf({ ...REQUIRED, coverageExclude: ['/markdown-page', '/blog/**'] }));
    expect([fromCli.coveragePathPrefix, fromCli.coverageExclude]).toEqual(['/', ['/markdown-page', '/blog/**']]);
    expect([fromJson.coveragePathPrefix, fromJson.coverageExclude]).toEqual([
      undefined,
      ['/markdown-page', '/blog/**'],
    ]);
  });

  it('refuses a relative path prefix and excluded paths that are not site paths, all in one message', () => {
    const message = problemsOf({ ...REQUIRED, coveragePathPrefix: 'docs/', coverageExclude: ['/ok', 'blog/**', 3] });
    expect(message).toContain('coveragePathPrefix: must start with "/", got "docs/"');
    expect(message).toContain(
      'coverageExclude: each item must be a path starting with "/" (e.g. /markdown-page or /blog/**), got "blog/**"',
    );
    expect(message).toContain('coverageExclude: must be paths, got 3');
  });

  it('takes a Slack workspace and channel together, and refuses one without the other or a malformed id', () => {
    const slack = { slackWorkspaceId: 'T0123ABCD', slackChannelId: 'C0456EFGH' };
    expect(readStackSettings(lookupOf({ ...REAL, ...slack })).slack).toEqual({
      workspaceId: 'T0123ABCD',
      channelId: 'C0456EFGH',
    });
    expect(readStackSettings(lookupOf({ ...REAL, slackWorkspaceId: 'T01', slackChannelId: 'G01' })).slack).toEqual({
      workspaceId: 'T01',
      channelId: 'G01',
    });
    expect(problemsOf({ ...REAL, slackWorkspaceId: 'T0123ABCD' })).toContain(
      'slackWorkspaceId and slackChannelId: give both or neither',
    );
    expect(problemsOf({ ...REAL, slackChannelId: 'C0456EFGH' })).toContain(
      'slackWorkspaceId and slackChannelId: give both or neither',
    );
    expect(problemsOf({ ...REAL, ...slack, slackWorkspaceId: 't0123abcd' })).toContain(
      'slackWorkspaceId: must look like T0123ABCD (the Chatbot console shows it), got "t0123abcd"',
    );
    expect(problemsOf({ ...REAL, ...slack, slackWorkspaceId: 'T0' })).toContain('slackWorkspaceId: must look like');
    expect(problemsOf({ ...REAL, ...slack, slackChannelId: '#ops' })).toContain(
      'slackChannelId: must look like C0123ABCD (the end of the channel\'s Slack link), got "#ops"',
    );
  });

  it('takes the dashboard’s suite thresholds from context when the suite is in S3, and only then', () => {
    const lines = { minMrr: '0.6', maxP95LatencyMs: 1500, minGroundedRate: '95' };
    expect(readStackSettings(lookupOf({ ...REAL, ...lines })).suiteThresholds).toEqual({
      minMrr: 0.6,
      maxP95LatencyMs: 1500,
      minGroundedRate: 95,
    });
    expect(readStackSettings(lookupOf({ ...REAL, minMrr: 1 })).suiteThresholds).toEqual({ minMrr: 1 });
    expect(readStackSettings(lookupOf(REAL)).suiteThresholds).toEqual({});
    expect(problemsOf({ ...REAL, minMrr: 1.01 })).toContain('minMrr: must be a number from 0 to 1, got 1.01');
    expect(problemsOf({ ...REAL, maxP95LatencyMs: 0 })).toContain('maxP95LatencyMs: must be a number from 1 to 600000');
    expect(problemsOf({ ...REAL, minGroundedRate: 101 })).toContain('minGroundedRate: must be a number from 0 to 100');
    expect(problemsOf({ ...REAL, suiteS3Uri: undefined, suitePath: 'suites/book.json', minMrr: 0.5 })).toContain(
      "minMrr: only with suiteS3Uri (a bundled suite's own success_criteria draw the dashboard's lines)",
    );
  });

  it('takes the docs’ web address for the HTML report’s links, and refuses what is not an http(s) URL', () => {
    const url = 'https://git.internal/platform/ragwatch/blob/main';
    expect(readStackSettings(lookupOf({ ...REAL, docsUrl: url })).docsUrl).toBe(url);
    expect(problemsOf({ ...REAL, docsUrl: 'docs/' })).toContain('docsUrl: must be an http(s) URL, got "docs/"');
  });

  it('refuses a sandbox switch that is neither true nor false', () => {
    expect(problemsOf({ ...REAL, sandbox: 'yes' })).toContain('sandbox: must be true or false, got "yes"');
  });
});

describe('isPlaceholderHost', () => {
  it.each([
    'example.com',
    'book.example.com',
    'qdrant.example.org',
    'x.example.net',
    'qdrant.internal.example',
    'site.test',
    'a.invalid',
    'localhost',
    '127.0.0.1',
    '[::1]',
  ])('takes %s for a placeholder', (host) => {
    expect(isPlaceholderHost(host)).toBe(true);
  });

  it.each(['user.github.io', 'xyz.cloud.qdrant.io', 'myexample.com', 'example.com.au', 'acme.io'])(
    'takes %s for a real host',
    (host) => {
      expect(isPlaceholderHost(host)).toBe(false);
    },
  );

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

  it('refuses credentials in a URL (a password, a query token, a presigned signature), quoting none of them', () => {
    // Act
    const message = problemsOf({
      ...REAL,
      qdrantUrl: 'https://admin:hunter2-pw@xyz.cloud.qdrant.io:6333',
      sitemapUrl: 'https://user.github.io/repo/sitemap.xml?Token=tok-s3cr3t',
      docusaurusBaseUrl: 'https://b.s3.amazonaws.com/repo/?X-Amz-Signature=sig-s3cr3t&X-Amz-Date=1',
    });

    // Assess
    const refusal = (key: string, shown: string) =>
      `  - ${key}: must not carry credentials (user:password@, or a token, key, signature or password in its query ` +
      `string): the template and the function's environment would hold them; got "${shown}"`;
    expect(message).toBe(
      [
        'CDK context is invalid:',
        refusal('qdrantUrl', 'https://***@xyz.cloud.qdrant.io:6333'),
        refusal('docusaurusBaseUrl', 'https://b.s3.amazonaws.com/repo/?X-Amz-Signature=***&X-Amz-Date=***'),
        refusal('sitemapUrl', 'https://user.github.io/repo/sitemap.xml?Token=***'),
      ].join('\n'),
    );
  });

  it('accepts a query string without credentials', () => {
    expect(problemsOf({ ...REAL, sitemapUrl: 'https://user.github.io/repo/sitemap.xml?lang=en&keyword=x' })).toBe('');
  });

  it('lists every bad value at once, each with its context key', () => {
    // Act
    const reading = () =>
      readStackSettings(
        lookupOf({
          sandbox: true,
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
