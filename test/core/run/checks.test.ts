/**
 * The guard of the check list: every check's declaration held against everything downstream of it, so adding a
 * check is its file, its test and one line in the list, and anything else forgotten fails here: the report schema,
 * ERROR_TYPES, SuccessCriteria, the CloudWatch metric names and what buildMetricData sends, the dashboard, README's
 * error list, criteria and metrics, and the bench's bounds for every step the checks' inputs take.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App, aws_cloudwatch as cloudwatch, Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, STEP_ENDPOINTS } from '../../../bench/bounds.ts';
import type { Input } from '../../../functions/core/checks/input.ts';
import { STEPS } from '../../../functions/core/checks/steps.ts';
import { buildMetricData, METRIC_NAMES } from '../../../functions/core/delivery/metric-data.ts';
import { ERROR_TYPES } from '../../../functions/core/report/findings.ts';
import { buildReportJsonSchema } from '../../../functions/core/report/report.ts';
import { CHECKS } from '../../../functions/core/run/checks.ts';
import { INPUTS } from '../../../functions/core/run/inputs.ts';
import { runValidation } from '../../../functions/core/run/run-validation.ts';
import { SuccessCriteria, Suite } from '../../../functions/core/suite/suite.ts';
import { addDashboard } from '../../../infra/dashboard.ts';
import { readStackSettings } from '../../../infra/settings.ts';
import { createFakeChat } from '../../agent/fakes.ts';
import { FakeEmbedder } from '../../fakes/fake-embedder.ts';
import { MemoryIndex } from '../../fakes/memory-index.ts';
import { nonEmpty } from '../../helpers/non-empty.ts';

const ROOT = path.join(import.meta.dirname, '..', '..', '..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** Findings no single check owns: a breached criterion, a run that failed before its checks, a failure's kind. */
const RUN_LEVEL_ERROR_TYPES = ['CRITERION_BREACHED', 'RUN_FAILED', 'TIMEOUT', 'RATE_LIMITED'];
/** Metrics of the run itself, not of one check. */
const RUN_LEVEL_METRICS = [
  METRIC_NAMES.runSucceeded,
  METRIC_NAMES.runDuration,
  METRIC_NAMES.regressions,
  METRIC_NAMES.alertsHeld,
];

/** An input as a check names it: optional(x) reads x. */
const base = (input: Input<unknown>) => INPUTS.find((i) => i.name === input.name.replace(/\?$/, ''));

/** A run in which every check has something to judge: a filtered and an agent query, a sitemap with lastmod. */
async function runWhereEveryCheckRuns() {
  const url = 'https://book.example.org/docs/a';
  const payload = {
    chunk_text: 'Topics carry messages between nodes.',
    source_url: url,
    chapter_id: 'module1/a',
    module_name: 'Module 1',
    heading_hierarchy: ['Topics'],
    token_count: 7,
    chunk_index: 0,
    page_hash: 'h1',
    model_version: 'fake-embed',
    indexed_at: '2026-03-01T00:00:00.000Z',
  };
  let ids = 0;
  return runValidation(
    {
      index: new MemoryIndex([{ id: 'c1', vector: [1, 0, 0], payload }], {
        payloadIndexes: { source_url: 'keyword', token_count: 'integer', model_version: 'keyword' },
      }),
      embedder: new FakeEmbedder(),
      sitemap: {
        location: 'https://book.example.org/sitemap.xml',
        list: async () => ({ entries: [{ url, lastmod: '2026-03-02T00:00:00.000Z' }], issues: [] }),
      },
      chat: createFakeChat({
        text: payload.chunk_text,
        citations: [{ start: 0, end: payload.chunk_text.length, text: payload.chunk_text, documentIds: ['c1'] }],
        billedUnits: { inputTokens: 1, outputTokens: 1 },
      }),
      clock: { now: () => new Date('2026-03-14T02:00:00.000Z'), monotonicMs: () => 0 },
      newId: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
    },
    {
      suite: Suite.parse({
        queries: [
          { id: 'q1', query_text: 'what do topics carry?', expected_sources: ['/docs/gone'], agent: true },
          { id: 'q2', query_text: 'topics', filters: { module: 'Module 1' } },
          { id: 'q3', query_text: 'who won the cup?', agent: true, expect_answer: false },
        ],
      }),
      suiteSource: 'suite.json',
      collection: 'book',
      environment: 'test',
      requiredFields: ['source_url'],
      coveragePathPrefix: '/docs/',
      searchConcurrency: 2,
    },
  );
}

/** The value at a dotted path of the report's JSON Schema ("index_health.ann"), following nullable unions. */
function schemaAt(schema: Record<string, unknown>, dotted: string): unknown {
  let node: unknown = schema;
  for (const key of dotted.split('.')) {
    const options = (n: unknown): Record<string, unknown>[] => {
      const o = n as Record<string, unknown>;
      return [o, ...((o.anyOf ?? o.oneOf ?? []) as Record<string, unknown>[])];
    };
    node = options(node)
      .map((o) => (o.properties as Record<string, unknown> | undefined)?.[key])
      .find((p) => p !== undefined);
    if (node === undefined) return undefined;
  }
  return node;
}

function valueAt(report: unknown, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | null)?.[key], report);
}

/** The metric names the dashboard graphs, as built for the sandbox's settings. */
function dashboardMetrics(): Set<string> {
  const context: Record<string, unknown> = {
    sandbox: true,
    environment: 'sandbox',
    collection: 'book',
    qdrantUrl: 'https://qdrant.example.com:6333',
    docusaurusBaseUrl: 'https://book.example.com',
    cohereSecret: 'ragwatch/cohere',
    alertEmails: ['ops@example.org'],
  };
  const settings = readStackSettings((key) => context[key]);
  const graphed = new Set<string>();
  addDashboard(new Stack(new App(), 'Guard'), {
    settings,
    alarms: [],
    metric: (metricName, statistic) => {
      graphed.add(metricName);
      return new cloudwatch.Metric({ namespace: 'Guard', metricName, statistic });
    },
    suiteThresholds: { minMrr: 0.5, maxP95LatencyMs: 1000, minGroundedRate: 95 },
    places: { region: 'eu-west-1', bucketName: 'reports', reportPrefix: 'reports/book/', logGroupName: 'logs' },
  });
  return graphed;
}

const report = await runWhereEveryCheckRuns();

describe('the check list', () => {
  it('names each check once, each with a requirement', () => {
    expect(new Set(CHECKS.map((c) => c.name)).size).toBe(CHECKS.length);
    for (const check of nonEmpty(CHECKS, 'the check list')) expect(check.description, check.name).not.toBe('');
  });

  it('declares only error types the report knows, and every error type is some check’s, some input’s or the run’s', () => {
    const inputTypes = INPUTS.flatMap((i) => (i.failure?.finding ? [i.failure.finding.type] : []));
    const declared = new Set([...CHECKS.flatMap((c) => c.errorTypes), ...inputTypes, ...RUN_LEVEL_ERROR_TYPES]);
    for (const check of CHECKS)
      for (const type of check.errorTypes) expect(ERROR_TYPES, `${check.name}: ${type}`).toContain(type);
    expect([...ERROR_TYPES].filter((t) => !declared.has(t))).toEqual([]);
  });

  it('judges each criterion against a threshold of SuccessCriteria, and every threshold is some check’s criterion', () => {
    const thresholds = CHECKS.flatMap((c) => c.criteria.map((d) => d.threshold));
    expect(new Set(thresholds).size).toBe(thresholds.length);
    expect(new Set(CHECKS.flatMap((c) => c.criteria.map((d) => d.name))).size).toBe(thresholds.length);
    expect([...thresholds].sort()).toEqual(Object.keys(SuccessCriteria.shape).sort());
  });

  it('fills a section the report schema has, and fills it in a run where every check runs', () => {
    const schema = buildReportJsonSchema();
    for (const check of CHECKS) {
      expect(schemaAt(schema, check.section), `${check.name}: ${check.section} in the schema`).toBeDefined();
      expect(valueAt(report, check.section) ?? null, `${check.name}: ${check.section} in the report`).not.toBeNull();
    }
  });

  it('judges each declared criterion in a run where every check runs', () => {
    const judged = report.success_criteria.map((c) => c.name);
    const optional = ['mrr', 'p95_latency_ms'];
    for (const check of CHECKS)
      for (const d of check.criteria)
        if (!optional.includes(d.name)) expect(judged, `${check.name}: ${d.name}`).toContain(d.name);
  });

  it('feeds only metrics that are sent, and every metric sent is some check’s or the run’s', () => {
    const names = Object.values(METRIC_NAMES) as string[];
    const declared = CHECKS.flatMap((c) => c.metrics);
    for (const metric of declared) expect(names, metric).toContain(metric);
    expect(names.filter((n) => !declared.includes(n) && !(RUN_LEVEL_METRICS as string[]).includes(n))).toEqual([]);
    const sent = new Set(buildMetricData(report).map((d) => d.MetricName));
    for (const metric of declared) expect(sent.has(metric), `${metric} sent for a run where its check ran`).toBe(true);
  });

  it('has every metric of every check on the dashboard', () => {
    const graphed = dashboardMetrics();
    for (const check of CHECKS)
      for (const metric of check.metrics) expect(graphed.has(metric), `${check.name}: ${metric}`).toBe(true);
  });

  it('is in README: every finding in its error list, every criterion’s threshold and every metric', () => {
    const errorList = README.slice(README.indexOf('The error types are'), README.indexOf('Every seed entity'));
    for (const type of ERROR_TYPES) expect(errorList, type).toContain(type);
    for (const check of CHECKS) {
      for (const d of check.criteria)
        expect(README, `${check.name}: ${d.threshold}`).toMatch(new RegExp(`\\b${d.threshold}\\b`));
      for (const metric of check.metrics)
        expect(README, `${check.name}: ${metric}`).toMatch(new RegExp(`\\b${metric}\\b`));
    }
  });

  it('reads only registered inputs, whose every step waits on something named and has its endpoints in the bench’s bounds', () => {
    for (const check of CHECKS)
      for (const input of Object.values(check.needs)) expect(base(input), `${check.name}: ${input.name}`).toBeDefined();
    const steps = new Set(INPUTS.flatMap((i) => i.steps));
    expect([...steps].sort()).toEqual(Object.keys(STEPS).sort());
    for (const step of steps) {
      expect(STEPS[step], step).not.toBe('');
      expect(STEP_ENDPOINTS[step]?.length, `${step} in bench/bounds.ts`).toBeGreaterThan(0);
      for (const endpoint of STEP_ENDPOINTS[step] ?? []) expect(ENDPOINTS, `${step}: ${endpoint}`).toContain(endpoint);
    }
  });
});
