/**
 * Golden files of every email kind, as the real handler sends them through the real SNS client to the stand-ins:
 * each scenario plays one or more nights and keeps the email under test as test/nightly/golden/<name>.txt
 * (subject, attributes, body). A change of wording shows as a diff of those files; review it, then refresh them
 * with `UPDATE_GOLDEN=1 npx vitest run test/nightly/email-golden.test.ts`.
 *
 * Every scenario but one feeds the handler a fixture report (the engine is not what these files are about); the
 * Qdrant-down email comes from the real engine, whose every search meets a 503 from the Qdrant stand-in.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../functions/core/ports.ts';
import type { ValidationReport } from '../../functions/core/report/report.ts';
import { SuccessCriteria } from '../../functions/core/suite/suite.ts';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { createNightlyDeps } from '../../functions/nightly/deps.ts';
import { createHandler } from '../../functions/nightly/handler.ts';
import { type AwsStandIns, startAwsStandIns } from '../../sandbox/aws/index.ts';
import { type FaultProxy, startFaultProxy } from '../../sandbox/faults/fault-proxy.ts';
import { indexSampleBook, SAMPLE_SUITE_PATH, type Sandbox, startSandbox } from '../../sandbox/start-sandbox.ts';
import { judgeFigures } from '../helpers/judge-figures.ts';
import { buildErrorReport, buildFailedReport, buildPassedReport } from './fixtures/reports.ts';
import { RecordingLogger } from './recording-logger.ts';
import { buildStandInClients, type StandInClients, standInNightlyEnv } from './stand-in-clients.ts';

const GOLDEN_DIR = path.join(import.meta.dirname, 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

let aws: AwsStandIns;
let clients: StandInClients;
let cloudWatchProxy: FaultProxy;
let sandbox: Sandbox;
let qdrantProxy: FaultProxy;

beforeAll(async () => {
  aws = await startAwsStandIns({ secrets: { 'ragwatch/cohere': 'sandbox-key' } });
  cloudWatchProxy = await startFaultProxy(aws.endpoints.cloudWatch);
  clients = buildStandInClients({ ...aws.endpoints, cloudWatch: cloudWatchProxy.url }, { maxAttempts: 1 });
  sandbox = await startSandbox();
  await indexSampleBook(sandbox);
  qdrantProxy = await startFaultProxy(sandbox.qdrant.url);
});

afterAll(async () => {
  clients?.destroy();
  await Promise.all([aws?.stop(), cloudWatchProxy?.stop(), qdrantProxy?.stop(), sandbox?.stop()]);
});

beforeEach(() => {
  aws.fauxqs.reset();
  cloudWatchProxy.setFault({ kind: 'pass' });
  qdrantProxy.setFault({ kind: 'pass' });
});

/** The settings of a deployed stack that show in an email: its dashboard and log group, for the links. */
const DEPLOYED = {
  AWS_REGION: 'eu-west-1',
  DASHBOARD_NAME: 'ragwatch-prod-book',
  AWS_LAMBDA_LOG_GROUP_NAME: '/aws/lambda/ragwatch-prod-book-nightly',
};

/** Ids in the order the handler asks for them, so every run id and incident id is the same on each run. */
function sequentialIds(): () => string {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
}

/** A clock stopped at 02:00 UTC `day` nights after 2026-03-14 (durations read 0). */
function nightClock(day: number): Clock {
  const at = new Date(Date.UTC(2026, 2, 14 + day, 2));
  return { now: () => at, monotonicMs: () => 0 };
}

type Night = { report: () => ValidationReport; env?: Record<string, string> } | { engine: true };

/** Plays `nights` in order through the handler, each with its own run id and date; returns the emails sent. */
async function play(nights: Night[]) {
  const newId = sequentialIds();
  for (const [day, spec] of nights.entries()) {
    // The real engine's night: the sandbox's book, Qdrant behind the fault proxy, the key from Secrets Manager.
    const engineEnv: Record<string, string> =
      'engine' in spec
        ? {
            ...sandbox.env,
            QDRANT_URL: qdrantProxy.url,
            ENVIRONMENT: 'prod',
            SUITE_PATH: SAMPLE_SUITE_PATH,
            // Every search waits out its two retries' backoff (about 0.75 s): all at once, the night takes one wait.
            SEARCH_CONCURRENCY: '32',
            MAX_AGENT_QUERIES: '0',
          }
        : {};
    delete engineEnv.COHERE_API_KEY;
    const env = { ...standInNightlyEnv(aws, engineEnv), ...DEPLOYED, ...('env' in spec ? spec.env : {}) };
    const deps = createNightlyDeps(parseNightlyConfig(env), clients, new RecordingLogger());
    // Set on the object itself: the real engine reads deps.clock from it.
    deps.newId = newId;
    deps.clock = nightClock(day);
    if ('report' in spec)
      deps.runEngine = async (_engine, run) => {
        const report = spec.report();
        report.run_id = run.newId();
        report.timestamp = nightClock(day).now().toISOString();
        report.finished_at = new Date(Date.parse(report.timestamp) + 42_500).toISOString();
        return report;
      };
    await createHandler(deps)().catch(() => undefined);
  }
  return aws.deliveredAlerts();
}

/** The email as a file: subject, the attributes SNS filter policies read, a blank line, the body. */
function render(email: { subject: string | undefined; message: string; attributes: Record<string, string> }): string {
  const attributes = Object.entries(email.attributes)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  const text = `Subject: ${email.subject ?? ''}\nAttributes: ${attributes}\n\n${email.message}\n`;
  // The two things a run here has that a deployed one has not: the Qdrant proxy's ephemeral port and the checkout.
  return text.replaceAll(qdrantProxy.url, 'http://qdrant.internal:6333').replaceAll(REPO_ROOT, '/var/task');
}

function expectGolden(name: string, email: Parameters<typeof render>[0] | undefined) {
  expect(email, `${name}: no email was sent`).toBeDefined();
  const text = render(email as Parameters<typeof render>[0]);
  const file = path.join(GOLDEN_DIR, `${name}.txt`);
  if (UPDATE) writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
}

/** A FAILED run whose only breach is the pass rate at `passRate` (coverage and metadata hold). */
function failedOnPassRate(passRate: number): () => ValidationReport {
  return () => {
    const report = buildPassedReport();
    const failing = Math.round(((100 - passRate) / 100) * report.total_queries);
    for (const q of report.query_results.slice(0, failing)) {
      q.status = 'FAIL';
      q.passed = false;
      q.pass_reason = null;
      q.fail_reason = 'best similarity 0.41 is under min_similarity 0.70';
      q.error_types = ['LOW_RELEVANCE'];
    }
    report.passed_queries -= failing;
    report.failed_queries += failing;
    report.pass_rate = passRate;
    report.status = 'FAILED';
    report.status_reason = '1 success criterion breached';
    report.success_criteria = judgeFigures({
      passRate,
      coverage: 100,
      completeness: 100,
      criteria: SuccessCriteria.parse({}),
    });
    return report;
  };
}

const off = { ALERT_REMINDER_DAYS: '0' };

describe('the emails, as golden files', () => {
  it('quality onset, CRITICAL', async () => {
    const [onset] = await play([{ report: buildFailedReport }]);
    expectGolden('onset-quality-critical', onset);
  });

  it('quality onset, HIGH', async () => {
    const [onset] = await play([{ report: failedOnPassRate(80) }]);
    expect(onset?.attributes.severity).toBe('HIGH');
    expectGolden('onset-quality-high', onset);
  });

  it('reminder of a quality incident still open the next night', async () => {
    const sent = await play([{ report: buildFailedReport }, { report: buildFailedReport }]);
    expect(sent[1]?.attributes.alert_kind).toBe('reminder');
    expectGolden('reminder-quality', sent[1]);
  });

  it('quality recovery', async () => {
    // Reminders off, so the recovery is the second email; it comes on the second clean night (the default).
    const sent = await play([
      { report: buildFailedReport, env: off },
      { report: buildPassedReport, env: off },
      { report: buildPassedReport, env: off },
    ]);
    expect(sent).toHaveLength(2);
    expect(sent[1]?.attributes.alert_kind).toBe('recovery');
    expectGolden('recovery-quality', sent[1]);
  });

  it('quality incident re-opened (flapping)', async () => {
    const sent = await play([
      { report: buildFailedReport, env: off },
      { report: buildPassedReport, env: off },
      { report: buildPassedReport, env: off },
      { report: buildFailedReport, env: off },
    ]);
    expect(sent[2]?.attributes.alert_kind).toBe('reopened');
    expectGolden('reopened-quality', sent[2]);
  });

  it('ERROR onset (MEDIUM on its first night)', async () => {
    const [onset] = await play([{ report: buildErrorReport }]);
    expect(onset?.attributes.severity).toBe('MEDIUM');
    expectGolden('onset-error', onset);
  });

  it('ERROR escalation on the second ERROR night', async () => {
    const sent = await play([{ report: buildErrorReport }, { report: buildErrorReport }]);
    expect(sent[1]?.attributes.alert_kind).toBe('escalation');
    expectGolden('escalation-error', sent[1]);
  });

  it('ERROR recovery', async () => {
    const sent = await play([
      { report: buildErrorReport },
      { report: buildPassedReport },
      { report: buildPassedReport },
    ]);
    expect(sent).toHaveLength(2);
    expect(sent[1]?.attributes.alert_kind).toBe('recovery');
    expectGolden('recovery-error', sent[1]);
  });

  it('ERROR onset of a run whose every search met a Qdrant 503 (the real engine)', async () => {
    qdrantProxy.setFault({
      kind: 'status',
      status: 503,
      body: JSON.stringify({ status: { error: 'Service unavailable' }, time: 0 }),
      when: (request) => /\/points\/(search|query)/.test(request),
    });
    const [onset] = await play([{ engine: true }]);
    expectGolden('onset-error-qdrant-down', onset);
  });

  it('metrics not delivered on a passing night (CloudWatch refuses PutMetricData)', async () => {
    cloudWatchProxy.setFault({
      kind: 'status',
      status: 400,
      body: '<ErrorResponse><Error><Type>Sender</Type><Code>InvalidParameterValue</Code><Message>The value for parameter MetricData.member.1.Value is invalid.</Message></Error></ErrorResponse>',
      headers: { 'content-type': 'text/xml' },
    });
    const [alert] = await play([{ report: buildPassedReport }]);
    expectGolden('onset-metrics-not-delivered', alert);
  });
});

describe('every golden email', () => {
  const files = readdirSync(GOLDEN_DIR).filter((f) => f.endsWith('.txt'));
  const body = (file: string) => readFileSync(path.join(GOLDEN_DIR, file), 'utf8').split('\n').slice(3);

  it('covers each kind: onset, reopened, escalation, reminder, recovery, the ERROR ones and a sink failure', () => {
    expect(files.sort()).toEqual([
      'escalation-error.txt',
      'onset-error-qdrant-down.txt',
      'onset-error.txt',
      'onset-metrics-not-delivered.txt',
      'onset-quality-critical.txt',
      'onset-quality-high.txt',
      'recovery-error.txt',
      'recovery-quality.txt',
      'reminder-quality.txt',
      'reopened-quality.txt',
    ]);
  });

  it.each(files)('%s: has one links block, the report link once, and its cause or its span on line 2', (file) => {
    const lines = body(file);
    expect(lines.filter((l) => l === 'LINKS')).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('- Report (HTML'))).toHaveLength(1);
    expect(lines[1]).toMatch(file.startsWith('recovery') ? /^It lasted .* Nothing to do\.$/ : /^Cause: /);
  });

  it.each(files)('%s: never says a 0% pass rate beside n/a, nor an enum name in its first line', (file) => {
    const lines = body(file);
    expect(lines.join('\n')).not.toMatch(/pass rate 0%/);
    expect(lines[0]).not.toMatch(/[A-Z]+_[A-Z]+|pass_rate/);
  });

  it.each(files.filter((f) => f.startsWith('recovery')))('%s: has no severity line', (file) => {
    expect(body(file).some((l) => l.startsWith('Severity'))).toBe(false);
  });
});
