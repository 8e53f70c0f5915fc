/**
 * The nightly handler (real SDK clients, production timeouts) with each AWS sink failing (500) or hanging, alone
 * and all together, plus everything hanging at once. Sink bounds are 2 s here (SINK_TIMEOUT_SECONDS) except in
 * the rows that say "default settings".
 */

import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { STAND_IN_CREDENTIALS, STAND_IN_REGION } from '../sandbox/aws/index.ts';
import type { ProxyFault } from '../sandbox/faults/fault-proxy.ts';
import { type Case, common, expectFinding, expectStatus, expectWithin } from './case.ts';
import { drive, type Observed } from './drive.ts';
import type { AwsService, World } from './world.ts';

type Sink = { name: string; service: AwsService; when?: (request: string) => boolean };

const SINKS: Sink[] = [
  { name: 'S3 (every call)', service: 's3' },
  { name: 'S3 report object', service: 's3', when: (r) => /^PUT .*\/reports\/book\/\d{4}\//.test(r) },
  { name: 'S3 latest.json copy', service: 's3', when: (r) => /^PUT .*\/latest\.json/.test(r) },
  { name: 'S3 read of the previous run', service: 's3', when: (r) => /^GET .*\/latest\.json/.test(r) },
  { name: 'CloudWatch', service: 'cloudWatch' },
  { name: 'SNS', service: 'sns' },
  { name: 'Secrets Manager', service: 'secretsManager' },
];

const FAILS: ProxyFault = { kind: 'status', status: 500, body: '{"__type":"InternalFailure","message":"injected"}' };
const HANGS: ProxyFault = { kind: 'hang' };

const lambda = (world: World, env: Record<string, string> = {}) => ({
  surface: 'lambda' as const,
  env: { ...world.lambdaEnv(), SINK_TIMEOUT_SECONDS: '2', ...env },
});

const sinkOk = (o: Observed, sink: 'report' | 'metrics' | 'alert') =>
  (o.result?.sinks as Record<string, { ok: boolean }> | undefined)?.[sink]?.ok === true;

function expectations(o: Observed, sink: Sink): string[] {
  const problems = [...common(o)];
  const need = (cond: boolean, what: string) => (cond ? [] : [what]);
  if (o.outcome !== 'returned') return [...problems, `the handler ${o.outcome}${o.threw ? `: ${o.threw}` : ''}`];
  // One email per incident: a run can open two (quality and infrastructure) at once.
  const alerted = o.alertSubjects.length >= 1;
  switch (sink.name) {
    case 'S3 (every call)':
    case 'S3 report object':
      return [
        ...problems,
        ...need(!sinkOk(o, 'report'), 'the report sink says ok'),
        ...need(o.runSucceeded === 1, 'RunSucceeded not sent'),
        ...need(
          o.alertSubjects.some((s) => /report NOT stored/i.test(s)),
          'no alert saying the report is not stored',
        ),
      ];
    case 'S3 latest.json copy':
      return [
        ...problems,
        ...need(
          (o.result?.sinks as { report?: { value?: { latestUpdated?: boolean } } })?.report?.value?.latestUpdated ===
            false,
          'latestUpdated is not false',
        ),
        ...need(o.report !== null, 'the dated report is not stored'),
        ...need(alerted, 'no alert'),
      ];
    case 'S3 read of the previous run':
      return [...problems, ...need(sinkOk(o, 'report') && sinkOk(o, 'metrics') && alerted, 'a sink did not deliver')];
    case 'CloudWatch':
      return [
        ...problems,
        ...need(o.runSucceeded === null, 'RunSucceeded was sent'),
        ...need(o.report !== null && alerted, 'report or alert missing'),
      ];
    case 'SNS':
      return [
        ...problems,
        ...need(o.alertSubjects.length === 0, 'an alert arrived'),
        ...need(o.report !== null && o.runSucceeded === 1, 'report or RunSucceeded missing'),
      ];
    default:
      return [
        ...problems,
        ...expectStatus(o, ['ERROR']),
        // Both secrets fail: each is named, whichever answered first (a hang is the bound's one timeout).
        ...expectFinding(
          o,
          ['RUN_FAILED'],
          /secrets: secret ragwatch\/cohere: .*; secret ragwatch\/qdrant: |secrets: Secrets Manager did not finish within its 2000 ms bound/,
        ),
        ...need(o.runSucceeded === 0, 'RunSucceeded = 0 not sent'),
        // A first ERROR night opens its incident at MEDIUM and a repeat escalates it to CRITICAL (DETECTION.md).
        ...need(
          o.alertSubjects.some((s) => /^\[(MEDIUM|CRITICAL)\] .*run ERROR: secrets/.test(s)),
          'no alert naming the run ERROR',
        ),
      ];
  }
}

function expectThrewNothingDelivered(o: Observed): string[] {
  return [
    ...common(o),
    ...(o.outcome === 'threw' && /NothingDeliveredError/.test(o.threw ?? '') ? [] : [`the handler ${o.outcome}`]),
    ...(o.alertSubjects.length === 0 && o.report === null ? [] : ['something was delivered']),
  ];
}

const allServices = (w: World, fault: ProxyFault) => {
  for (const proxy of Object.values(w.awsProxies)) proxy.setFault(fault);
};

export const AWS_CASES: Case[] = [
  ...SINKS.flatMap((sink) =>
    (['fails', 'hangs'] as const).map(
      (how): Case => ({
        name: `${sink.name} ${how}`,
        group: 'AWS',
        expected:
          sink.service === 'secretsManager'
            ? 'returns; ERROR report stored, RunSucceeded 0, an alert naming the run ERROR'
            : sink.name.startsWith('SNS')
              ? 'returns (partial delivery); report stored, RunSucceeded sent, no alert'
              : sink.service === 'cloudWatch'
                ? 'returns; report stored and alert sent (naming the metrics failure), no RunSucceeded'
                : sink.name.includes('previous')
                  ? 'returns; every sink delivers (only the alert’s "since when" is lost)'
                  : sink.name.includes('latest')
                    ? 'returns; dated report stored, latestUpdated false, alert sent'
                    : 'returns; report not stored (in the log), RunSucceeded sent, alert says report NOT stored',
        arrange: (w) => {
          const fault = how === 'fails' ? FAILS : HANGS;
          w.awsProxies[sink.service].setFault(sink.when ? { ...fault, when: sink.when } : fault);
          return lambda(w);
        },
        check: (o) => [...expectations(o, sink), ...expectWithin(o, 60)],
      }),
    ),
  ),
  {
    name: 'every AWS sink fails',
    group: 'AWS',
    expected: 'throws NothingDeliveredError (Errors alarm, dead-letter queue); nothing delivered',
    arrange: (w) => {
      allServices(w, FAILS);
      return lambda(w);
    },
    check: (o) => [...expectThrewNothingDelivered(o), ...expectWithin(o, 60)],
  },
  {
    name: 'every AWS sink hangs (default settings)',
    group: 'AWS',
    expected: 'throws NothingDeliveredError within the 15 s sink bounds: < 120 s of a 600 s Lambda',
    arrange: (w) => {
      allServices(w, HANGS);
      return { surface: 'lambda', env: w.lambdaEnv() };
    },
    check: (o) => [...expectThrewNothingDelivered(o), ...expectWithin(o, 120)],
  },
  {
    name: 'Qdrant, Cohere and the sitemap all hang (default settings)',
    group: 'deadline',
    expected: 'returns; ERROR report with TIMEOUTs stored, RunSucceeded 0, alert: < 120 s of a 600 s Lambda',
    arrange: (w) => {
      w.qdrant.setFault(HANGS);
      w.cohere.setFault(HANGS);
      return { surface: 'lambda', env: { ...w.lambdaEnv(), SITEMAP_URL: `${w.qdrant.url}/sitemap.xml` } };
    },
    check: (o) => [
      ...common(o),
      ...(o.outcome === 'returned' ? [] : [`the handler ${o.outcome}`]),
      ...expectStatus(o, ['ERROR']),
      ...expectFinding(o, ['TIMEOUT'], /Qdrant|Cohere/),
      ...(o.runSucceeded === 0 ? [] : ['RunSucceeded = 0 not sent']),
      ...(o.alertSubjects.length >= 1 ? [] : ['no alert']),
      ...expectWithin(o, 120),
    ],
  },
  {
    name: 'everything hangs, run deadline 5 s (CLI)',
    group: 'deadline',
    expected: 'exit 4 (ERROR) at the deadline: report with TIMEOUTs saying the deadline cut them, < 15 s',
    arrange: (w) => {
      w.qdrant.setFault(HANGS);
      w.cohere.setFault(HANGS);
      return {
        surface: 'cli',
        env: { ...w.cliEnv(), SITEMAP_URL: `${w.qdrant.url}/sitemap.xml` },
        args: ['--deadline', '5'],
      };
    },
    check: (o) => [
      ...common(o),
      ...(o.exitCode === 4 ? [] : [`exit ${o.exitCode}, expected 4`]),
      ...expectStatus(o, ['ERROR']),
      ...expectFinding(o, ['TIMEOUT'], /run deadline \(5 s\)/),
      ...expectWithin(o, 15),
    ],
  },
  {
    name: 'CloudWatch refuses one metric (400) on a PASSED night',
    group: 'AWS',
    expected:
      'returns; PASSED report stored, RunSucceeded 1 and every other datum sent, HIGH alert naming the refused metric',
    arrange: (w) => {
      w.aws.cloudWatch.refuseMetric('PassRate');
      return { ...lambda(w), suite: w.passingSuitePath };
    },
    check: (o, w) => {
      const names = new Set(w.aws.cloudWatch.datums.map((d) => d.MetricName));
      return [
        ...common(o),
        ...(o.outcome === 'returned' ? [] : [`the handler ${o.outcome}`]),
        ...expectStatus(o, ['PASSED']),
        ...(o.runSucceeded === 1 ? [] : ['RunSucceeded 1 not sent']),
        ...(names.has('PassRate') ? ['PassRate was recorded'] : []),
        ...(names.has('QueriesTotal') && names.has('CoveragePercent') ? [] : ['other datums dropped with PassRate']),
        ...(o.alertSubjects.some((s) => /^\[HIGH\] .*CloudWatch metrics NOT delivered/.test(s))
          ? []
          : [`no HIGH alert naming the metrics (got ${JSON.stringify(o.alertSubjects)})`]),
      ];
    },
  },
  {
    name: 'a month with 2,100 reports of another environment (Lambda)',
    group: 'AWS',
    expected:
      "returns; the night before is found as this environment's history (no 'first run with figures on record')",
    arrange: async (w) => {
      // A night of this environment first, then 2,100 reports of another in the same month, on earlier days: S3
      // lists keys in ascending order, so a bounded listing's pages end inside them, before this environment's.
      const before = await drive(w, lambda(w));
      if (before.report === null) throw new Error('the first night stored no report');
      const month = before.report.timestamp.slice(0, 7).replace('-', '/');
      const foreign = JSON.stringify({ ...before.report, environment: 'staging' });
      const s3 = new S3Client({
        endpoint: w.aws.endpoints.s3,
        region: STAND_IN_REGION,
        credentials: STAND_IN_CREDENTIALS,
        forcePathStyle: true,
      });
      for (let i = 0; i < 2_100; i += 100)
        await Promise.all(
          Array.from({ length: 100 }, (_, j) =>
            s3.send(
              new PutObjectCommand({
                Bucket: w.aws.bucket,
                Key: `reports/book/${month}/0${1 + ((i + j) % 5)}/0000${String(i + j).padStart(6, '0')}.json`,
                Body: foreign,
              }),
            ),
          ),
        );
      s3.destroy();
      return lambda(w);
    },
    check: (o) => {
      const note = o.report?.regression?.note ?? '';
      return [
        ...common(o),
        ...(o.outcome === 'returned' ? [] : [`the handler ${o.outcome}`]),
        ...(/1 earlier run\(s\) with figures on record/.test(note)
          ? []
          : [`the night before was not found: regression note ${JSON.stringify(note)}`]),
      ];
    },
  },
];
