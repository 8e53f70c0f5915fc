/**
 * The dashboard against what the handler really sends: the demo's report (the full engine against the sandbox)
 * goes through buildMetricData, and every metric a widget graphs must be among those datums with the same
 * dimensions, and every datum must be graphed. A renamed metric or dimension fails here, not as an empty graph.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { runDemo } from '../../functions/cli/demo.ts';
import { buildMetricData } from '../../functions/core/delivery/metric-data.ts';
import type { ValidationReport } from '../../functions/core/report/report.ts';
import { buildNightlyApp } from '../../infra/nightly-app.ts';
import { nonEmpty } from '../helpers/non-empty.ts';

const CONTEXT = {
  sandbox: true,
  environment: 'sandbox',
  collection: 'book',
  qdrantUrl: 'https://qdrant.example.com:6333',
  docusaurusBaseUrl: 'https://book.example.com',
  cohereSecret: 'ragwatch/cohere',
  alertEmails: ['ops@example.org'],
  'aws:cdk:bundling-stacks': [],
};

// The demo's report and the stack, both made while the file loads (the demo indexes the sample book first).
const out = mkdtempSync(path.join(tmpdir(), 'ragwatch-dash-'));
const quiet = process.stdout.write.bind(process.stdout);
const quietErr = process.stderr.write.bind(process.stderr);
process.stdout.write = (() => true) as typeof process.stdout.write;
process.stderr.write = (() => true) as typeof process.stderr.write;
try {
  await runDemo({ out, latency: 0, payloadIndexes: true, progress: false });
} finally {
  process.stdout.write = quiet;
  process.stderr.write = quietErr;
}
const report = JSON.parse(readFileSync(path.join(out, 'book', 'latest.json'), 'utf8')) as ValidationReport;
// A first night has nothing to compare with; a compared night also sends Regressions.
report.regression = {
  ...(report.regression ?? {
    note: '',
    baseline_runs: [],
    findings: [],
    recovered_queries: [],
    stale_queries: [],
    score_shift: null,
  }),
  compared: true,
};
const sent = buildMetricData(report).map((d) => `${d.MetricName}[${d.Dimensions.map((x) => x.Name).join(',')}]`);

const outdir = mkdtempSync(path.join(tmpdir(), 'ragwatch-dash-cdk-'));
const { stack } = buildNightlyApp({ outdir, context: CONTEXT });
const resources = Template.fromStack(stack).toJSON().Resources as Record<
  string,
  { Type: string; Properties: Record<string, unknown> }
>;
const dashboardResource = Object.values(resources).find((r) => r.Type === 'AWS::CloudWatch::Dashboard');
if (dashboardResource === undefined) throw new Error('no dashboard in the template');
const bodyParts = (dashboardResource.Properties.DashboardBody as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
const body = JSON.parse(bodyParts.map((p) => (typeof p === 'string' ? p : 'TOKEN')).join('')) as {
  widgets: { type: string; properties: { title?: string; metrics?: unknown[][] } }[];
};

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  rmSync(outdir, { recursive: true, force: true });
});

/** Each graphed metric as "Name[Dim,Dim]": plain metrics by their array form, SEARCH expressions by their schema. */
function graphed(): string[] {
  const names: string[] = [];
  for (const widget of body.widgets)
    for (const entry of widget.properties.metrics ?? []) {
      const options = entry.at(-1) as { expression?: string } | undefined;
      if (options?.expression !== undefined) {
        const schema = /\{[^,}]+,([^}]+)\}/.exec(options.expression)?.[1] ?? '';
        const name = /MetricName="([^"]+)"/.exec(options.expression)?.[1] ?? '';
        names.push(`${name}[${schema}]`);
        continue;
      }
      const [namespace, metricName, ...rest] = entry.filter((e) => typeof e === 'string') as string[];
      if (namespace !== 'RagWatch') continue;
      const dims = rest.filter((_, i) => i % 2 === 0);
      names.push(`${metricName}[${dims.join(',')}]`);
    }
  return [...new Set(names)].sort();
}

/** Each widget's graphed metrics as "Name[Dim=Value,...] stat", SEARCH expressions as their text. */
function perWidget(): { title: string; metrics: string[] }[] {
  return body.widgets.map((widget) => ({
    title: widget.properties.title ?? '',
    metrics: (widget.properties.metrics ?? []).map((entry) => {
      const options = entry.at(-1) as { expression?: string; stat?: string } | undefined;
      if (options?.expression !== undefined) return options.expression;
      const strings = entry.filter((e) => typeof e === 'string') as string[];
      return `${strings.join(',')} ${options?.stat ?? ''}`;
    }),
  }));
}

describe('the dashboard', () => {
  it('graphs no metric in two widgets: one question, one place', () => {
    const seen = new Map<string, string>();
    const repeated: string[] = [];
    for (const { title, metrics } of perWidget())
      for (const metric of new Set(metrics)) {
        const first = seen.get(metric);
        if (first !== undefined) repeated.push(`${metric}: "${first}" and "${title}"`);
        else seen.set(metric, title);
      }
    expect(nonEmpty([...seen.keys()], 'graphed metrics')).not.toHaveLength(0);
    expect(repeated).toEqual([]);
  });

  it('graphs only metrics the handler sends, with the dimensions it sends them with', () => {
    expect(nonEmpty(graphed(), 'graphed metrics').filter((g) => !sent.includes(g))).toEqual([]);
  });

  it('graphs every metric the handler sends', () => {
    expect([...new Set(nonEmpty(sent, 'sent metrics'))].filter((s) => !graphed().includes(s))).toEqual([]);
  });

  it('graphs pass rate per query category with one line per category the run reports', () => {
    expect(graphed()).toContain('PassRate[Collection,Environment,QueryCategory]');
    expect(Object.keys(report.validation_metrics.by_category).length).toBeGreaterThan(1);
  });

  it('titles every widget with the question it answers (the links row at the top is text, not a graph)', () => {
    expect(body.widgets.filter((w) => w.type === 'text')).toHaveLength(1);
    const titles = body.widgets.filter((w) => w.type !== 'text').map((w) => w.properties.title ?? '');
    expect(titles.filter((t) => !t.includes('?'))).toEqual([]);
    expect(titles).toEqual(
      expect.arrayContaining([
        'Is it running? Runs per day (heartbeat) and how many completed',
        'Is retrieval as good as usual? Pass rate per query category (%)',
        'Are answers grounded? Grounded rate (%)',
        'How fast? Query latency p50 / p95 / p99 (ms)',
        'What changed since the baseline? Regressions, failed and errored queries per run',
      ]),
    );
  });

  it('draws the suite’s own thresholds: grounded rate from the bundled suite, pass rate from the stack', () => {
    const annotations = JSON.stringify(
      body.widgets.map((w) => (w.properties as { annotations?: unknown }).annotations),
    );
    expect(annotations).toContain('{"value":90,"label":"threshold 90%"');
    expect(annotations).toContain('{"value":95,"label":"threshold 95%"');
  });
});
