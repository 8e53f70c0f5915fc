/**
 * docs/DATA-MODEL.md's settings tables cannot drift: every variable a configuration parser reads has a row, each row's
 * variable really sets its option (parsed with and without it), and each report field exists in the report's schema.
 * README's configuration table names no variable the tables lack.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Env, parseEngineConfig, parseLocations } from '../../functions/core/config.ts';
import { ValidationReport } from '../../functions/core/report/report.ts';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { hasSchemaPath } from '../helpers/schema-path.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const DOC = read('docs/DATA-MODEL.md');
const SECTION = DOC.slice(DOC.indexOf('## Settings'), DOC.indexOf("## The suite's three forms"));

type Parser = 'parseEngineConfig' | 'parseLocations' | 'parseNightlyConfig';
interface Row {
  parser: Parser;
  variables: string[];
  option: string;
  reportField: string | null;
}

const ROWS: Row[] = (() => {
  let parser: Parser | null = null;
  const rows: Row[] = [];
  for (const line of SECTION.split('\n')) {
    const named = /\(`(parseEngineConfig|parseLocations|parseNightlyConfig)`/.exec(line)?.[1];
    if (named) parser = named as Parser;
    if (!line.startsWith('| `') || parser === null) continue;
    const [variables = '', option = '', field = ''] = line.slice(1, -1).split(' | ');
    const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
    rows.push({
      parser,
      variables: ticked(variables),
      option: ticked(option)[0] ?? '',
      reportField: ticked(field)[0] ?? null,
    });
  }
  return rows;
})();

/** The smallest environment each parser accepts. */
const BASE: Record<Parser, Env> = {
  parseEngineConfig: {
    COHERE_API_KEY: 'co-key-1234',
    QDRANT_URL: 'https://qdrant.example:6333',
    DOCUSAURUS_BASE_URL: 'https://book.example.com',
  },
  parseLocations: {},
  parseNightlyConfig: {
    QDRANT_URL: 'https://qdrant.example:6333',
    DOCUSAURUS_BASE_URL: 'https://book.example.com',
    REPORT_BUCKET: 'ragwatch-reports-123',
    ALERT_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:ragwatch-alerts',
    COHERE_SECRET_ID: 'ragwatch/cohere',
  },
};

/** A valid value for each variable, other than its default and than BASE's. */
const SAMPLES: Record<string, string> = {
  COHERE_API_KEY: 'co-key-other',
  QDRANT_API_KEY: 'qd-key-5678',
  QDRANT_URL: 'https://other.example:6333',
  QDRANT_COLLECTION: 'guide',
  COHERE_BASE_URL: 'https://cohere.example',
  EMBEDDING_MODEL: 'embed-multilingual-v3.0',
  CHAT_MODEL: 'command-r',
  MAX_AGENT_QUERIES: '3',
  GROUNDING_JUDGE: 'lexical',
  JUDGE_MODEL: 'command-r-plus',
  JUDGE_MAX_CLAIMS: '7',
  DOCUSAURUS_BASE_URL: 'https://other.example/book/',
  SITEMAP_URL: 'https://book.example.com/other-sitemap.xml',
  SITEMAP_ALLOWED_ORIGINS: 'https://cdn.example.com',
  COVERAGE_PATH_PREFIX: '/guide/',
  COVERAGE_EXCLUDE: '/markdown-page,/blog/**',
  SIMILARITY_THRESHOLD: '0.42',
  TOP_K_RESULTS: '7',
  REQUIRED_FIELDS: 'source_url',
  MIN_PASS_RATE: '80',
  MIN_COVERAGE: '95',
  MIN_COMPLETENESS: '99',
  QDRANT_TIMEOUT_MS: '2000',
  COHERE_TIMEOUT_MS: '3000',
  SEARCH_CONCURRENCY: '2',
  SCROLL_PARTITIONS: '3',
  ANN_RECALL_SAMPLE: '5',
  RUN_DEADLINE_SECONDS: '60',
  ENVIRONMENT: 'prod',
  LOG_LEVEL: 'DEBUG',
  SUITE_PATH: 'nightly.yaml',
  REPORT_DIR: 'out',
  REPORT_BUCKET: 'other-bucket',
  ALERT_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:other',
  PAGE_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:pages',
  METRIC_NAMESPACE: 'Other',
  COHERE_SECRET_ID: 'other/cohere',
  QDRANT_SECRET_ID: 'ragwatch/qdrant',
  SECRETS_MAX_AGE_SECONDS: '60',
  SINK_TIMEOUT_SECONDS: '5',
  SUITE_S3_URI: 's3://suites-bucket/s.json',
  ALERT_REMINDER_DAYS: '2',
  ALERT_REMINDER_MIN_SEVERITY: 'CRITICAL',
  ALERT_RECOVERY_RUNS: '3',
  AWS_REGION: 'eu-west-1',
  AWS_DEFAULT_REGION: 'eu-west-2',
  AWS_LAMBDA_LOG_GROUP_NAME: '/aws/lambda/ragwatch',
  DASHBOARD_NAME: 'ragwatch-dashboard',
  DOCS_URL: 'https://git.internal/platform/ragwatch/blob/main',
};

const PARSE: Record<Parser, (env: Env) => unknown> = {
  parseEngineConfig: (env) => parseEngineConfig(env),
  parseLocations,
  parseNightlyConfig,
};

/** The value at a dotted path, or the marker when a step is missing. */
function at(value: unknown, dotted: string): unknown {
  let current: unknown = value;
  for (const step of dotted.split('.')) {
    if (typeof current !== 'object' || current === null || !(step in current)) return 'missing';
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

/** The variables a parser file reads: `read.<kind>('NAME'` and helpers given `(read, 'NAME')`. */
function variablesReadIn(file: string): string[] {
  const text = read(file);
  const calls =
    /read\.(?:string|number|required|requiredUrl|url|list)\('([A-Z][A-Z0-9_]+)'|\(read, '([A-Z][A-Z0-9_]+)'\)/g;
  return [...new Set([...text.matchAll(calls)].map((m) => m[1] ?? m[2] ?? ''))];
}

describe('docs/DATA-MODEL.md, Settings', () => {
  it('has a row for every variable the configuration parsers read', () => {
    const documented = new Set(ROWS.flatMap((r) => r.variables));
    const readByParsers = [
      ...variablesReadIn('functions/core/config.ts'),
      ...variablesReadIn('functions/nightly/config.ts'),
    ];
    expect(readByParsers.length).toBeGreaterThan(30);
    expect(readByParsers.filter((v) => !documented.has(v))).toEqual([]);
  });

  it('names, for each variable, the option it sets', () => {
    const wrong = ROWS.flatMap((row) =>
      row.variables.flatMap((variable) => {
        const without = at(PARSE[row.parser](BASE[row.parser]), row.option);
        const sample = SAMPLES[variable];
        if (sample === undefined) return [`${variable}: no sample value in this test`];
        const withIt = at(PARSE[row.parser]({ ...BASE[row.parser], [variable]: sample }), row.option);
        return withIt === 'missing' || JSON.stringify(withIt) === JSON.stringify(without)
          ? [`${variable} -> ${row.option}: ${JSON.stringify(without)} either way`]
          : [];
      }),
    );
    expect(ROWS.length).toBeGreaterThan(35);
    expect(wrong).toEqual([]);
  });

  it('names only report fields the report has', () => {
    const fields = ROWS.flatMap((r) => (r.reportField === null ? [] : [r.reportField]));
    expect(fields.length).toBeGreaterThan(10);
    expect(fields.filter((f) => !hasSchemaPath(ValidationReport, f))).toEqual([]);
  });

  it('covers every variable README’s configuration table documents', () => {
    const readme = read('README.md');
    const table = readme.slice(readme.indexOf('### Configuration'), readme.indexOf("### The run's deadline"));
    const named = table
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .flatMap((l) => [...(l.split(' | ')[0] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1] ?? ''));
    const documented = new Set(ROWS.flatMap((r) => r.variables));
    expect(named.length).toBeGreaterThan(25);
    expect(named.filter((v) => !documented.has(v))).toEqual([]);
  });
});
