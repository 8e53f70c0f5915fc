/**
 * The engine's configuration, resolved once from an environment-like record into options with every field present
 * (null where a setting is not set and something else decides: the suite, or no such service). Every problem is
 * listed at once, each with the variable's name and what was expected. A setting has one name from its variable to
 * the report wherever the seeds allow: docs/DATA-MODEL.md, "Settings", maps each variable to its option and to the
 * report field that shows it. Secrets are kept apart (`secrets`) so nothing that serialises the rest can leak them.
 */

import { CHUNK_METADATA_FIELDS } from './book/payload.ts';
import { DEFAULT_SCROLL_PARTITIONS } from './scroll-plan.ts';
import { unusableApiKeyReason } from './shared/api-key.ts';
import { InputError } from './shared/errors.ts';
import { redactUrl } from './shared/redact-url.ts';

export const DEFAULT_REQUIRED_FIELDS: string[] = [...CHUNK_METADATA_FIELDS];

export interface EngineConfig {
  qdrantUrl: string;
  collection: string;
  /** Another Cohere-compatible endpoint; null: Cohere's own. */
  cohereBaseUrl: string | null;
  embeddingModel: string;
  chatModel: string;
  /**
   * Who gives the final verdict on each claim of an agent answer: `cohere` (the claim judge, after the free lexical
   * gate) or `lexical` (the gate alone, no extra call).
   */
  groundingJudge: 'cohere' | 'lexical';
  /** The claim judge's chat model. */
  judgeModel: string;
  /** At most this many claims of a run go to the judge (each is one billed chat call). */
  judgeMaxClaims: number;
  /** At most this many agent (grounded-answer) queries per run: the chat calls are billed. */
  maxAgentQueries: number;
  docusaurusBaseUrl: string;
  sitemapUrl: string;
  /** Origins (besides SITEMAP_URL's and DOCUSAURUS_BASE_URL's) a sitemap index or a redirect may lead to. */
  sitemapAllowedOrigins: string[];
  coveragePathPrefix: string;
  /** Sitemap pages under the prefix that are not docs (`/markdown-page`, `/blog/**`): not counted by coverage. */
  coverageExclude: string[];
  /** Overrides the suite's defaults.min_similarity (a query's own still wins); null: the suite decides. */
  minSimilarity: number | null;
  /** Overrides the suite's defaults.top_k (a query's own still wins); null: the suite decides. */
  topK: number | null;
  requiredFields: string[];
  /** Override the suite's success_criteria; null: the suite decides. */
  criteria: { minPassRate: number | null; minCoverage: number | null; minCompleteness: number | null };
  qdrantTimeoutMs: number;
  cohereTimeoutMs: number;
  searchConcurrency: number;
  /** Parts of the collection a scroll reads at once when the index cannot aggregate (issue 20). */
  scrollPartitions: number;
  /** How many of the suite's searches ANN health repeats with exact search a night (each one a full scan in Qdrant). */
  annRecallSample: number;
  /**
   * The whole run's budget: when it is reached every request still in flight is aborted, unfinished stages end as
   * TIMEOUT errors and the report goes out with what finished. The Lambda takes the tighter of this and its own
   * remaining time minus the delivery reserve (nightly/budget.ts).
   */
  runDeadlineSeconds: number;
  environment: string;
  logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /** Never serialised into a report, a log line, an alert or an error message. */
  secrets: { cohereApiKey: string | null; qdrantApiKey: string | null };
}

/** How many of the suite's searches ANN health repeats with exact search each night unless configured (ANN_RECALL_SAMPLE). */
export const DEFAULT_ANN_SAMPLE = 20;

/** The environment settings are read from (process.env in production, a record in tests). */
export type Env = Record<string, string | undefined>;

const DECIMAL = /^[-+]?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$|^[-+]?0?\.[0-9]+$/;

/**
 * Upper bounds on what could eat the Lambda's 600 s budget: one hung request may cost at most a minute (Qdrant) or
 * two (a chat answer), and the agent at most 50 billed, sequential chat calls.
 */
const SETTING_BOUNDS = {
  qdrantTimeoutMs: { min: 100, max: 60_000, integer: true },
  cohereTimeoutMs: { min: 100, max: 120_000, integer: true },
  maxAgentQueries: { min: 0, max: 50, integer: true },
  judgeMaxClaims: { min: 0, max: 500, integer: true },
  searchConcurrency: { min: 1, max: 32, integer: true },
  scrollPartitions: { min: 1, max: 32, integer: true },
  annRecallSample: { min: 0, max: 10_000, integer: true },
} as const;

const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'WARNING', 'ERROR'] as const;

/** Reads typed values from an env record, collecting problems instead of throwing at the first. */
export class EnvReader {
  readonly problems: string[] = [];
  private readonly env: Env;
  constructor(env: Env) {
    this.env = env;
  }

  string(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  required(name: string, what: string): string {
    const value = this.string(name);
    if (value === undefined) this.problems.push(`${name}: required (${what})`);
    return value ?? '';
  }

  url(name: string, fallback?: string): string | undefined {
    const value = this.string(name) ?? fallback;
    if (value === undefined) return undefined;
    const parsed = URL.canParse(value) ? new URL(value) : null;
    if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
      this.problems.push(`${name}: must be an http(s) URL, got "${redactUrl(value)}"`);
      return undefined;
    }
    // A password in a URL would be copied into reports, logs and alerts wherever the URL is named: refused here,
    // once, rather than redacted in every place that prints a URL.
    if (parsed.username !== '' || parsed.password !== '') {
      this.problems.push(
        `${name}: must not carry credentials (user:password@); API keys have their own variables, got "${redactUrl(value)}"`,
      );
      return undefined;
    }
    return value;
  }

  number(name: string, range: { min: number; max: number; integer?: boolean }): number | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    // Number() reads 0x10 as 16, 0o10 as 8 and 0b10 as 2: only plain decimal is taken (no prefix, no leading zero).
    const value = DECIMAL.test(raw) ? Number(raw) : Number.NaN;
    const kind = range.integer ? 'a whole number' : 'a number';
    if (
      !Number.isFinite(value) ||
      (range.integer && !Number.isInteger(value)) ||
      value < range.min ||
      value > range.max
    ) {
      const numeral = /^[-+]?0[0-9xob]/i.test(raw) ? ' written in decimal (hex, octal and binary are refused)' : '';
      this.problems.push(`${name}: must be ${kind} from ${range.min} to ${range.max}${numeral}, got "${raw}"`);
      return undefined;
    }
    return value;
  }

  requiredUrl(name: string, what: string): string {
    if (this.string(name) === undefined) return this.required(name, what);
    return this.url(name) ?? '';
  }

  list(name: string): string[] | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    const items = raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (items.length === 0) this.problems.push(`${name}: must list at least one name, comma-separated`);
    return items;
  }
}

/** Parses the engine's configuration; throws one InputError naming every bad variable. */
export function parseEngineConfig(env: Env, options: { requireCohereKey?: boolean } = {}): EngineConfig {
  const read = new EnvReader(env);
  const qdrantUrl = read.requiredUrl('QDRANT_URL', 'the Qdrant base URL');
  const docusaurusBaseUrl = read.requiredUrl('DOCUSAURUS_BASE_URL', 'the book’s base URL');
  const sitemapUrl =
    read.url('SITEMAP_URL') ??
    (docusaurusBaseUrl ? new URL('sitemap.xml', withSlash(docusaurusBaseUrl)).toString() : '');
  const cohereApiKey =
    options.requireCohereKey === false
      ? (read.string('COHERE_API_KEY') ?? null)
      : read.required('COHERE_API_KEY', 'the Cohere API key');
  const prefix = read.string('COVERAGE_PATH_PREFIX') ?? docsPrefixOf(docusaurusBaseUrl);
  if (!prefix.startsWith('/')) read.problems.push(`COVERAGE_PATH_PREFIX: must start with "/", got "${prefix}"`);
  const logLevel = (read.string('LOG_LEVEL') ?? 'INFO').toUpperCase();
  const groundingJudge = (read.string('GROUNDING_JUDGE') ?? 'cohere').toLowerCase();
  if (groundingJudge !== 'cohere' && groundingJudge !== 'lexical')
    read.problems.push(`GROUNDING_JUDGE: must be cohere or lexical, got "${groundingJudge}"`);
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel))
    read.problems.push(`LOG_LEVEL: must be one of DEBUG, INFO, WARNING, ERROR, got "${logLevel}"`);

  const config: EngineConfig = {
    qdrantUrl,
    collection: readCollection(read),
    cohereBaseUrl: read.url('COHERE_BASE_URL') ?? null,
    embeddingModel: read.string('EMBEDDING_MODEL') ?? 'embed-english-v3.0',
    chatModel: read.string('CHAT_MODEL') ?? 'command-a-03-2025',
    groundingJudge: groundingJudge === 'lexical' ? 'lexical' : 'cohere',
    judgeModel: read.string('JUDGE_MODEL') ?? read.string('CHAT_MODEL') ?? 'command-a-03-2025',
    judgeMaxClaims: read.number('JUDGE_MAX_CLAIMS', SETTING_BOUNDS.judgeMaxClaims) ?? 100,
    maxAgentQueries: read.number('MAX_AGENT_QUERIES', SETTING_BOUNDS.maxAgentQueries) ?? 10,
    docusaurusBaseUrl,
    sitemapUrl,
    sitemapAllowedOrigins: readOrigins(read, 'SITEMAP_ALLOWED_ORIGINS'),
    coveragePathPrefix: prefix,
    coverageExclude: readPaths(read, 'COVERAGE_EXCLUDE'),
    minSimilarity: read.number('SIMILARITY_THRESHOLD', { min: 0, max: 1 }) ?? null,
    topK: read.number('TOP_K_RESULTS', { min: 1, max: 50, integer: true }) ?? null,
    requiredFields: read.list('REQUIRED_FIELDS') ?? DEFAULT_REQUIRED_FIELDS,
    criteria: {
      minPassRate: read.number('MIN_PASS_RATE', { min: 0, max: 100 }) ?? null,
      minCoverage: read.number('MIN_COVERAGE', { min: 0, max: 100 }) ?? null,
      minCompleteness: read.number('MIN_COMPLETENESS', { min: 0, max: 100 }) ?? null,
    },
    qdrantTimeoutMs: read.number('QDRANT_TIMEOUT_MS', SETTING_BOUNDS.qdrantTimeoutMs) ?? 10_000,
    cohereTimeoutMs: read.number('COHERE_TIMEOUT_MS', SETTING_BOUNDS.cohereTimeoutMs) ?? 30_000,
    searchConcurrency: read.number('SEARCH_CONCURRENCY', SETTING_BOUNDS.searchConcurrency) ?? 4,
    scrollPartitions: read.number('SCROLL_PARTITIONS', SETTING_BOUNDS.scrollPartitions) ?? DEFAULT_SCROLL_PARTITIONS,
    annRecallSample: read.number('ANN_RECALL_SAMPLE', SETTING_BOUNDS.annRecallSample) ?? DEFAULT_ANN_SAMPLE,
    // 600 s: the Lambda's own timeout, so a CLI run and a nightly run are cut at the same point; an hour at most.
    runDeadlineSeconds: read.number('RUN_DEADLINE_SECONDS', { min: 1, max: 3600 }) ?? 600,
    environment: read.string('ENVIRONMENT') ?? 'dev',
    logLevel: (logLevel === 'WARNING' ? 'WARN' : logLevel) as EngineConfig['logLevel'],
    secrets: { cohereApiKey, qdrantApiKey: read.string('QDRANT_API_KEY') ?? null },
  };
  for (const [name, service, key] of [
    ['COHERE_API_KEY', 'Cohere', config.secrets.cohereApiKey],
    ['QDRANT_API_KEY', 'Qdrant', config.secrets.qdrantApiKey],
  ] as const) {
    const reason = key ? unusableApiKeyReason(key) : null;
    if (reason !== null) read.problems.push(`${name}: the ${service} API key ${reason}`);
  }
  if (read.problems.length > 0) throw new InputError('configuration', read.problems);
  return config;
}

/** Where the suite is read from and the CLI writes its reports, before any flag. */
export interface Locations {
  /** The CLI's --suite default; the Lambda's bundled suite unless SUITE_S3_URI names one. */
  suitePath: string;
  /** The CLI's --out default. */
  reportDir: string;
}

/** Reads SUITE_PATH and REPORT_DIR (plain names, no check: a missing file is named when it is read). */
export function parseLocations(env: Env): Locations {
  const read = new EnvReader(env);
  return { suitePath: read.string('SUITE_PATH') ?? 'suite.json', reportDir: read.string('REPORT_DIR') ?? 'reports' };
}

/**
 * Where a Docusaurus site publishes its docs: `<base path>/docs/`. A project site at https://user.github.io/repo/
 * publishes them under /repo/docs/, a site at a host's root under /docs/.
 */
function docsPrefixOf(baseUrl: string): string {
  let path = '/';
  try {
    path = new URL(baseUrl).pathname;
  } catch {
    // A bad base URL is reported by its own check; the prefix then falls back to the root's.
  }
  return `${path.replace(/\/+$/, '')}/docs/`;
}

/**
 * A Qdrant collection name, which ragwatch also uses as a folder and an S3 key segment: Qdrant's own rule (1..255
 * characters, none of < > : " / \\ | ? * and no control character), and not "." or "..", which as a folder name
 * would write into the report folder itself or its parent.
 */
function readCollection(read: EnvReader): string {
  const name = read.string('QDRANT_COLLECTION') ?? 'book';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (name.length > 255 || /[<>:"/\\|?*\u0000-\u001f\u007f]/.test(name) || name === '.' || name === '..') {
    read.problems.push(
      `QDRANT_COLLECTION: must be a collection name of 1 to 255 characters without < > : " / \\ | ? * or control characters, and not "." or "..", got ${JSON.stringify(name.slice(0, 300))}`,
    );
  }
  return name;
}

/** A comma-separated list of site paths, each starting with '/' (a trailing `/**` takes the path and all under it). */
function readPaths(read: EnvReader, name: string): string[] {
  const paths = read.list(name) ?? [];
  for (const path of paths.filter((p) => !p.startsWith('/')))
    read.problems.push(
      `${name}: each item must be a path starting with "/" (e.g. /markdown-page or /blog/**), got "${path}"`,
    );
  return paths.filter((p) => p.startsWith('/'));
}

/** A comma-separated list of http(s) origins (scheme, host, port; no path). */
function readOrigins(read: EnvReader, name: string): string[] {
  const origins: string[] = [];
  for (const item of read.list(name) ?? []) {
    const parsed = URL.canParse(item) ? new URL(item) : null;
    if (
      parsed === null ||
      (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') ||
      parsed.username !== '' ||
      parsed.password !== '' ||
      `${parsed.pathname}${parsed.search}${parsed.hash}` !== '/'
    )
      read.problems.push(
        `${name}: each item must be an http(s) origin such as https://cdn.example.com (no path, no credentials), got "${redactUrl(item)}"`,
      );
    else origins.push(parsed.origin);
  }
  return origins;
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
