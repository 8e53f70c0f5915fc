import { hasUrlCredentials, redactUrl } from '../functions/core/shared/redact-url.ts';
/**
 * The stack's settings, read from CDK context (cdk.json holds the defaults that are safe everywhere; `-c key=value`
 * overrides). Every problem is listed at once, like the Lambda's own configuration. Context given on the command
 * line arrives as strings, from cdk.json as JSON values: both are accepted.
 *
 * A deploy cannot go out misconfigured: a placeholder host (example.com, *.example, localhost, ...) in a URL or an
 * alert address, no suite of the user's own (none, or the sample suite that fails on purpose) and no alert address
 * are refused. Tests and the demo synthesize with `sandbox: true`, an explicit switch that allows all three.
 */

import { heartbeatWindow } from './heartbeat-window.ts';

export interface StackSettings {
  environment: string;
  collection: string;
  qdrantUrl: string;
  docusaurusBaseUrl: string;
  sitemapUrl: string | undefined;
  /** COVERAGE_PATH_PREFIX: where the docs are served, when not `<base path>/docs/` (e.g. `/` for docs at the root). */
  coveragePathPrefix: string | undefined;
  /** COVERAGE_EXCLUDE: site paths under the prefix that are not docs (`/x` or `/x/**`). */
  coverageExclude: string[];
  /** Secrets Manager secret names or full ARNs; the stack only references them, it never creates values. */
  cohereSecret: string;
  qdrantSecret: string | undefined;
  alertEmails: string[];
  /**
   * The page route, for HIGH and CRITICAL alerts and the not-running alarm (email gets everything): an HTTPS
   * endpoint (a PagerDuty or Opsgenie events URL) and/or a Slack channel through AWS Chatbot (a workspace already
   * authorized in the Chatbot console, and a channel in it). With neither, there is no page route.
   */
  pagerUrl: string | undefined;
  /**
   * Where README.md and docs/ are on the web (the repository's page, e.g. https://<host>/<org>/ragwatch/blob/main):
   * the HTML report's "Act on this first" links each finding's docs section there; none: the paths are text.
   */
  docsUrl: string | undefined;
  slack: { workspaceId: string; channelId: string } | undefined;
  /** An EventBridge Scheduler expression, e.g. cron(0 3 * * ? *). */
  scheduleExpression: string;
  scheduleTimeZone: string;
  /** How long the heartbeat waits for a run: the schedule's longest gap plus slack (infra/heartbeat-window.ts). */
  heartbeatHours: number;
  metricNamespace: string;
  thresholds: { minPassRate: number; minCoverage: number; minCompleteness: number };
  /** The suite bundled next to the handler, relative to the project root. */
  suitePath: string;
  suiteS3Uri: string | undefined;
  /**
   * The dashboard's threshold lines for the suite's own criteria when the suite is in S3 (not readable at synth):
   * `-c minMrr`, `-c maxP95LatencyMs`, `-c minGroundedRate`, as in the suite's success_criteria. A bundled suite's
   * are read from it, so these are refused beside one.
   */
  suiteThresholds: { minMrr?: number; maxP95LatencyMs?: number; minGroundedRate?: number };
  reportRetentionDays: number;
  logRetentionDays: number;
  /**
   * The incident emails' policy, set on the function by the stack (a value changed in the console drifts and is
   * lost at the next deploy): reminders every `reminderDays` (0: off) while an incident is at least
   * `reminderMinSeverity`; the recovery email after `recoveryRuns` clean runs.
   */
  alerts: { reminderDays: number; reminderMinSeverity: string; recoveryRuns: number };
  logLevel: string;
  /**
   * Reserved concurrency for the function, or undefined for none (the default): reserving takes from the account's
   * unreserved pool, and a first deploy on an account with a low quota fails when too little would be left.
   */
  reservedConcurrency: number | undefined;
  /** Synthesized for the sandbox (tests, demo): placeholders, the sample suite and no alert address allowed. */
  sandbox: boolean;
}

const SEVERITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];

/** Bad or missing context: its message is the whole story, so the app prints it without a stack trace. */
export class ContextError extends Error {
  override name = 'ContextError';
}

/** The sample suite: it fails on purpose, so a real deploy must not ship it. */
const SAMPLE_SUITE_PATH = 'sandbox/suite.json';

/**
 * Hosts that name no real service: RFC 2606/6761 examples and reserved TLDs, loopback and unspecified addresses
 * (a Lambda reaches nothing there).
 */
export function isPlaceholderHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return (
    /(^|\.)example\.(com|org|net)$/.test(name) ||
    /(^|\.)(example|test|invalid|localhost|local)$/.test(name) ||
    /^(127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1?\])$/.test(name)
  );
}

type Lookup = (key: string) => unknown;

/** The retention periods CloudWatch Logs accepts, in days. */
const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
];

/** Reads and checks every setting; throws one Error listing all problems. */
export function readStackSettings(lookup: Lookup): StackSettings {
  const problems: string[] = [];
  const text = (key: string, fallback?: string): string | undefined => {
    const value = lookup(key);
    if (value === undefined || value === null || value === '') return fallback;
    if (typeof value !== 'string') {
      problems.push(`${key}: must be a string, got ${JSON.stringify(value)}`);
      return fallback;
    }
    return value.trim();
  };
  const required = (key: string, what: string): string => {
    const value = text(key);
    if (value === undefined) problems.push(`${key}: required (${what})`);
    return value ?? '';
  };
  const url = (key: string, value: string | undefined): void => {
    if (value === undefined || value === '') return;
    if (!/^https?:\/\/[^\s/]+/.test(value)) problems.push(`${key}: must be an http(s) URL, got "${redactUrl(value)}"`);
    // The value is written into the template and the function's environment, readable by anyone who can read the
    // stack: a credential in it is refused here, named but not quoted (the CLI, whose environment is the user's
    // own, accepts a query token and redacts it from every output).
    else if (hasUrlCredentials(value))
      problems.push(
        `${key}: must not carry credentials (user:password@, or a token, key, signature or password in its query ` +
          `string): the template and the function's environment would hold them; got "${redactUrl(value)}"`,
      );
    else if (!sandbox && isPlaceholderHost(hostOf(value)))
      problems.push(`${key}: "${hostOf(value)}" is a placeholder host; give the real one (or -c sandbox=true to try)`);
  };
  const flag = (key: string): boolean => {
    const raw = lookup(key);
    if (raw === undefined || raw === null || raw === '' || raw === false || raw === 'false') return false;
    if (raw === true || raw === 'true') return true;
    problems.push(`${key}: must be true or false, got ${JSON.stringify(raw)}`);
    return false;
  };
  const number = (key: string, fallback: number, min: number, max: number): number => {
    const raw = lookup(key);
    if (raw === undefined || raw === null || raw === '') return fallback;
    const value = typeof raw === 'number' ? raw : Number(raw);
    if (!Number.isFinite(value) || value < min || value > max) {
      problems.push(`${key}: must be a number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
      return fallback;
    }
    return value;
  };

  const whole = (key: string, fallback: number, min: number, max: number): number => {
    const value = number(key, fallback, min, max);
    if (Number.isInteger(value)) return value;
    problems.push(`${key}: must be a whole number, got ${JSON.stringify(lookup(key))}`);
    return fallback;
  };

  const sandbox = flag('sandbox');
  const qdrantUrl = required('qdrantUrl', 'the Qdrant base URL the function searches');
  url('qdrantUrl', qdrantUrl);
  const docusaurusBaseUrl = required('docusaurusBaseUrl', 'the book’s base URL, for its sitemap');
  url('docusaurusBaseUrl', docusaurusBaseUrl);
  const sitemapUrl = text('sitemapUrl');
  url('sitemapUrl', sitemapUrl);
  // Coverage's two settings, checked as the function checks them (functions/core/config.ts), so a deploy that would
  // fail its first night on them is refused here instead.
  const coveragePathPrefix = text('coveragePathPrefix');
  if (coveragePathPrefix !== undefined && !coveragePathPrefix.startsWith('/'))
    problems.push(`coveragePathPrefix: must start with "/", got "${coveragePathPrefix}"`);
  const coverageExclude = paths(lookup('coverageExclude'), 'coverageExclude', problems);
  const scheduleExpression = text('scheduleExpression', 'cron(0 3 * * ? *)') ?? '';
  const window = heartbeatWindow(scheduleExpression);
  if (!/^(cron|rate|at)\(.+\)$/.test(scheduleExpression))
    problems.push(`scheduleExpression: must be cron(...), rate(...) or at(...), got "${scheduleExpression}"`);
  else if (!window.ok) problems.push(`scheduleExpression: "${scheduleExpression}" ${window.reason}`);
  const metricNamespace = text('metricNamespace', 'RagWatch') ?? 'RagWatch';
  if (metricNamespace.startsWith('AWS/')) problems.push('metricNamespace: the AWS/ prefix is reserved');
  const suiteS3Uri = text('suiteS3Uri');
  if (suiteS3Uri !== undefined && !/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]\/.+$/.test(suiteS3Uri))
    problems.push(`suiteS3Uri: must look like s3://<bucket>/<key>, got "${suiteS3Uri}"`);
  const optionalNumber = (key: string, min: number, max: number): number | undefined => {
    const raw = lookup(key);
    if (raw === undefined || raw === null || raw === '') return undefined;
    if (suiteS3Uri === undefined) {
      problems.push(`${key}: only with suiteS3Uri (a bundled suite's own success_criteria draw the dashboard's lines)`);
      return undefined;
    }
    return number(key, min, min, max);
  };
  const minMrr = optionalNumber('minMrr', 0, 1);
  const maxP95LatencyMs = optionalNumber('maxP95LatencyMs', 1, 600_000);
  const minGroundedRate = optionalNumber('minGroundedRate', 0, 100);
  const suiteThresholds = {
    ...(minMrr === undefined ? {} : { minMrr }),
    ...(maxP95LatencyMs === undefined ? {} : { maxP95LatencyMs }),
    ...(minGroundedRate === undefined ? {} : { minGroundedRate }),
  };
  const alertEmails = emails(lookup('alertEmails'), problems);
  const pagerUrl = text('pagerUrl');
  if (pagerUrl !== undefined && !pagerUrl.startsWith('https://'))
    problems.push(`pagerUrl: must be an https:// URL (SNS sends to HTTPS endpoints only here), got "${pagerUrl}"`);
  else url('pagerUrl', pagerUrl);
  const docsUrl = text('docsUrl');
  url('docsUrl', docsUrl);
  const slackWorkspaceId = text('slackWorkspaceId');
  const slackChannelId = text('slackChannelId');
  if ((slackWorkspaceId === undefined) !== (slackChannelId === undefined))
    problems.push(
      'slackWorkspaceId and slackChannelId: give both or neither (the workspace from the AWS Chatbot console, the channel from its Slack link)',
    );
  // Chatbot's own patterns: a workspace (team) id is upper-case letters and digits, T...; a channel id C... or G....
  if (slackWorkspaceId !== undefined && !/^T[0-9A-Z]{2,254}$/.test(slackWorkspaceId))
    problems.push(
      `slackWorkspaceId: must look like T0123ABCD (the Chatbot console shows it), got "${slackWorkspaceId}"`,
    );
  if (slackChannelId !== undefined && !/^[CG][0-9A-Z]{2,254}$/.test(slackChannelId))
    problems.push(
      `slackChannelId: must look like C0123ABCD (the end of the channel's Slack link), got "${slackChannelId}"`,
    );
  if (!sandbox) {
    if (alertEmails.length === 0)
      problems.push('alertEmails: required (at least one address; without one, no alert reaches anybody)');
    for (const email of alertEmails) {
      const host = email.slice(email.lastIndexOf('@') + 1);
      if (isPlaceholderHost(host)) problems.push(`alertEmails: "${email}" is at a placeholder host`);
    }
  }
  const suitePath = text('suitePath');
  if (!sandbox) {
    if (suitePath === undefined && suiteS3Uri === undefined)
      problems.push(
        'suiteS3Uri or suitePath: required (your suite: `ragwatch suite generate`, then `ragwatch calibrate`)',
      );
    if (suitePath === SAMPLE_SUITE_PATH)
      problems.push(`suitePath: ${SAMPLE_SUITE_PATH} is the sample suite, which fails on purpose`);
  }
  const logRetentionDays = number('logRetentionDays', 90, 1, 3653);
  if (!LOG_RETENTION_DAYS.includes(logRetentionDays))
    problems.push(`logRetentionDays: must be one of ${LOG_RETENTION_DAYS.join(', ')}, got ${logRetentionDays}`);

  const reminderMinSeverity = (text('alertReminderMinSeverity', 'HIGH') ?? 'HIGH').toUpperCase();
  if (!SEVERITIES.includes(reminderMinSeverity))
    problems.push(`alertReminderMinSeverity: must be one of ${SEVERITIES.join(', ')}, got "${reminderMinSeverity}"`);
  const alerts = {
    reminderDays: whole('alertReminderDays', 1, 0, 365),
    reminderMinSeverity,
    recoveryRuns: whole('alertRecoveryRuns', 2, 1, 30),
  };

  const reserved = lookup('reservedConcurrency');
  const reservedConcurrency =
    reserved === undefined || reserved === null || reserved === ''
      ? undefined
      : whole('reservedConcurrency', 1, 1, 1000);

  const settings: StackSettings = {
    environment: text('environment', 'prod') ?? 'prod',
    collection: text('collection', 'book') ?? 'book',
    qdrantUrl,
    docusaurusBaseUrl,
    sitemapUrl,
    coveragePathPrefix,
    coverageExclude,
    cohereSecret: required('cohereSecret', 'the name or ARN of the Secrets Manager secret holding the Cohere API key'),
    qdrantSecret: text('qdrantSecret'),
    alertEmails,
    pagerUrl,
    docsUrl,
    slack:
      slackWorkspaceId === undefined || slackChannelId === undefined
        ? undefined
        : { workspaceId: slackWorkspaceId, channelId: slackChannelId },
    scheduleExpression,
    scheduleTimeZone: text('scheduleTimeZone', 'Etc/UTC') ?? 'Etc/UTC',
    heartbeatHours: window.ok ? window.hours : 0,
    metricNamespace,
    thresholds: {
      minPassRate: number('minPassRate', 90, 0, 100),
      minCoverage: number('minCoverage', 100, 0, 100),
      minCompleteness: number('minCompleteness', 100, 0, 100),
    },
    suitePath: suitePath ?? SAMPLE_SUITE_PATH,
    suiteS3Uri,
    suiteThresholds,
    reportRetentionDays: number('reportRetentionDays', 400, 1, 3650),
    logRetentionDays,
    logLevel: text('logLevel', 'INFO') ?? 'INFO',
    reservedConcurrency,
    alerts,
    sandbox,
  };
  if (problems.length > 0)
    throw new ContextError(`CDK context is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return settings;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** A context value that holds a list: a JSON list (cdk.json), comma-separated text (the command line), or one value. */
function contextList(raw: unknown): unknown[] {
  if (raw === undefined || raw === null || raw === '') return [];
  if (Array.isArray(raw)) return raw;
  return typeof raw === 'string' ? raw.split(',') : [raw];
}

/** Site paths, a JSON list (cdk.json) or comma-separated (the command line); each must start with "/". */
function paths(raw: unknown, key: string, problems: string[]): string[] {
  const list = contextList(raw);
  const out: string[] = [];
  for (const item of list) {
    const path = typeof item === 'string' ? item.trim() : '';
    if (path.startsWith('/') && !path.includes(',')) out.push(path);
    else if (path !== '')
      problems.push(
        `${key}: each item must be a path starting with "/" (e.g. /markdown-page or /blog/**), got "${path}"`,
      );
    else if (typeof item !== 'string') problems.push(`${key}: must be paths, got ${JSON.stringify(item)}`);
  }
  return out;
}

function emails(raw: unknown, problems: string[]): string[] {
  const list = contextList(raw);
  const out: string[] = [];
  for (const item of list) {
    const email = typeof item === 'string' ? item.trim() : '';
    if (/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) out.push(email);
    else if (email !== '') problems.push(`alertEmails: "${email}" is not an email address`);
    else problems.push(`alertEmails: must be email addresses, got ${JSON.stringify(item)}`);
  }
  return out;
}
