/**
 * The nightly Lambda's configuration, parsed once from the environment: the engine's variables (core/config.ts)
 * plus where the report, metrics and alerts go and which Secrets Manager secrets hold the API keys. Every problem
 * is listed at once. The keys themselves are never read from the environment here: a COHERE_API_KEY or
 * QDRANT_API_KEY variable on the function is itself a problem, since it would sit in plain text in the template.
 */
import { type EngineConfig, EnvReader, parseEngineConfig, parseLocations } from '../core/config.ts';
import { DEFAULT_RECOVERY_RUNS } from '../core/incident/advance-incidents.ts';
import { InputError } from '../core/shared/errors.ts';

export type SuiteLocation = { kind: 's3'; uri: string; bucket: string; key: string } | { kind: 'file'; path: string };

export interface NightlyConfig {
  /** The engine's settings; `secrets` stays empty until the keys are fetched for a run. */
  engine: EngineConfig;
  reportBucket: string;
  alertTopicArn: string;
  /** HIGH and CRITICAL alerts also go here (docs/DEPLOY.md, "Routing"); null: no page route. */
  pageTopicArn: string | null;
  metricNamespace: string;
  cohereSecretId: string;
  /** Null for a Qdrant that takes no API key (e.g. self-hosted inside a VPC). */
  qdrantSecretId: string | null;
  secretsMaxAgeSeconds: number;
  /** Each AWS sink's bound over all its attempts (Secrets Manager, suite, previous run, report, metrics, alert). */
  sinkTimeoutMs: number;
  suite: SuiteLocation;
  region: string;
  /** Where the report goes when S3 will not take it; named in the alert. */
  logGroupName: string | null;
  /** The deployment's CloudWatch dashboard (DASHBOARD_NAME, set by the stack), linked from every email. */
  dashboardName: string | null;
  /** Where README.md and docs/ are on the web (DOCS_URL): the HTML report links its docs sections there. */
  docsRoot: string | null;
  /**
   * One alert per incident: recovery after `recoveryRuns` clean runs; a reminder every `reminderDays` (null: none)
   * while the incident is at least `reminderMinSeverity`.
   */
  incidents: { recoveryRuns: number; reminderDays: number | null; reminderMinSeverity: ReminderSeverity };
}

type Env = Record<string, string | undefined>;
type ReminderSeverity = 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';

const SEVERITIES: readonly ReminderSeverity[] = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];
/** Reminders are on unless turned off: a HIGH or CRITICAL incident is re-sent daily while it lasts. */
const DEFAULT_REMINDER_DAYS = 1;

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const TOPIC_ARN = /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/;
const NAMESPACE = /^[A-Za-z0-9.\-_/#:]{1,255}$/;
const S3_URI = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\/(.+)$/;

/** Parses the Lambda's environment; throws one InputError naming every bad variable. */
export function parseNightlyConfig(env: Env): NightlyConfig {
  const read = new EnvReader(env);
  let engine: EngineConfig | undefined;
  try {
    engine = parseEngineConfig(env, { requireCohereKey: false });
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    read.problems.push(...error.problems);
  }
  for (const name of ['COHERE_API_KEY', 'QDRANT_API_KEY'])
    if (read.string(name) !== undefined)
      read.problems.push(
        `${name}: must not be set on the function; the key comes from Secrets Manager (${name.replace('_API_KEY', '_SECRET_ID')})`,
      );

  const reportBucket = read.required('REPORT_BUCKET', 'the S3 bucket for reports');
  if (reportBucket && !BUCKET.test(reportBucket))
    read.problems.push(`REPORT_BUCKET: must be an S3 bucket name, got "${reportBucket}"`);
  const alertTopicArn = read.required('ALERT_TOPIC_ARN', 'the SNS topic ARN for alerts');
  if (alertTopicArn && !TOPIC_ARN.test(alertTopicArn))
    read.problems.push(
      `ALERT_TOPIC_ARN: must be an SNS topic ARN (arn:aws:sns:<region>:<account>:<name>), got "${alertTopicArn}"`,
    );
  // The page route (Slack through Chatbot, a pager): HIGH and CRITICAL alerts go there too; unset, none do.
  const pageTopicArn = read.string('PAGE_TOPIC_ARN') ?? null;
  if (pageTopicArn !== null && !TOPIC_ARN.test(pageTopicArn))
    read.problems.push(
      `PAGE_TOPIC_ARN: must be an SNS topic ARN (arn:aws:sns:<region>:<account>:<name>), got "${pageTopicArn}"`,
    );
  const metricNamespace = read.string('METRIC_NAMESPACE') ?? 'RagWatch';
  if (!NAMESPACE.test(metricNamespace) || metricNamespace.startsWith('AWS/'))
    read.problems.push(
      `METRIC_NAMESPACE: must be 1..255 of A-Za-z0-9.-_/#: and not start with AWS/, got "${metricNamespace}"`,
    );
  const cohereSecretId = read.required(
    'COHERE_SECRET_ID',
    'the name or ARN of the Secrets Manager secret holding the Cohere API key',
  );
  const qdrantSecretId = read.string('QDRANT_SECRET_ID') ?? null;
  const secretsMaxAgeSeconds = read.number('SECRETS_MAX_AGE_SECONDS', { min: 0, max: 86_400, integer: true }) ?? 900;
  // 15 s: three attempts of an in-region call that normally takes well under a second; 60 s at most, since five
  // bounds in series are reserved out of the Lambda's 600 s (nightly/budget.ts).
  const sinkTimeoutSeconds = read.number('SINK_TIMEOUT_SECONDS', { min: 0.1, max: 60 }) ?? 15;

  // 0 turns reminders off; unset, they are on (daily) for HIGH and CRITICAL incidents.
  const reminderEvery =
    read.number('ALERT_REMINDER_DAYS', { min: 0, max: 365, integer: true }) ?? DEFAULT_REMINDER_DAYS;
  const reminderDays = reminderEvery === 0 ? null : reminderEvery;
  const minSeverity = (read.string('ALERT_REMINDER_MIN_SEVERITY') ?? 'HIGH').toUpperCase();
  const reminderMinSeverity = SEVERITIES.find((s) => s === minSeverity) ?? 'HIGH';
  if (!SEVERITIES.includes(minSeverity as ReminderSeverity))
    read.problems.push(`ALERT_REMINDER_MIN_SEVERITY: must be one of ${SEVERITIES.join(', ')}, got "${minSeverity}"`);
  const recoveryRuns = read.number('ALERT_RECOVERY_RUNS', { min: 1, max: 30, integer: true }) ?? DEFAULT_RECOVERY_RUNS;

  const suiteUri = read.string('SUITE_S3_URI');
  let suite: SuiteLocation = { kind: 'file', path: parseLocations(env).suitePath };
  if (suiteUri !== undefined) {
    const match = S3_URI.exec(suiteUri);
    if (match?.[1] && match[2]) suite = { kind: 's3', uri: suiteUri, bucket: match[1], key: match[2] };
    else read.problems.push(`SUITE_S3_URI: must look like s3://<bucket>/<key>, got "${suiteUri}"`);
  }

  const docsRoot = read.string('DOCS_URL') ?? null;
  if (docsRoot !== null && !/^https?:\/\/\S+$/.test(docsRoot))
    read.problems.push(`DOCS_URL: must be an http(s) URL, got "${docsRoot}"`);

  if (read.problems.length > 0 || engine === undefined) throw new InputError('configuration', read.problems);
  return {
    engine,
    reportBucket,
    alertTopicArn,
    pageTopicArn,
    metricNamespace,
    cohereSecretId,
    qdrantSecretId,
    secretsMaxAgeSeconds,
    sinkTimeoutMs: Math.round(sinkTimeoutSeconds * 1000),
    suite,
    region: read.string('AWS_REGION') ?? read.string('AWS_DEFAULT_REGION') ?? 'us-east-1',
    logGroupName: read.string('AWS_LAMBDA_LOG_GROUP_NAME') ?? null,
    dashboardName: read.string('DASHBOARD_NAME') ?? null,
    docsRoot,
    incidents: { recoveryRuns, reminderDays, reminderMinSeverity },
  };
}
