/**
 * The suite of golden queries: its schema (the union of seeds 000, 001, 003 and 004), parsing from JSON or YAML,
 * and resolution of suite-level defaults. A bad suite yields one InputError listing every problem with its path.
 */
import { parse as parseYaml, type Tags } from 'yaml';
import { z } from 'zod';
import { InputError } from '../shared/errors.ts';
import { benchmarkDepth, parseBenchmarkMetric } from './benchmark-metric-names.ts';
import { listIssues } from './issue-messages.ts';
import { liftFilterThresholds, normaliseSuiteForm, type SuiteForm } from './seed-forms.ts';
import { decodeUtf8 } from './utf8.ts';

const unit = (_name: string) =>
  z.number({ error: 'must be a number from 0 to 1' }).min(0, 'must be 0..1').max(1, 'must be 0..1');
const topK = z.number().int('must be a whole number').min(1, 'must be 1..50').max(50, 'must be 1..50');

const RelevantItem = z.union([
  z.string().min(1, 'must not be empty'),
  z
    .object({
      chunk_id: z.string().min(1).optional(),
      url: z.string().min(1).optional(),
      grade: z.number().int('must be 1, 2 or 3').min(1, 'must be 1, 2 or 3').max(3, 'must be 1, 2 or 3').default(1),
    })
    .strict()
    .refine((r) => (r.chunk_id === undefined) !== (r.url === undefined), 'give exactly one of chunk_id or url'),
]);

const Filters = z
  .object({
    module: z.string().min(1).optional(),
    chapter: z.string().min(1).optional(),
    section: z.string().min(1).optional(),
    url: z.string().min(1).optional(),
  })
  .strict();

const QueryCriteria = z
  .object({
    min_precision: unit('min_precision').optional(),
    max_latency_ms: z.number().positive('must be > 0').optional(),
    require_expected_sources: z.boolean().optional(),
  })
  .strict();

const SuiteQuery = z
  .object({
    id: z.string().min(1).max(100).optional(),
    query_text: z
      .string({ error: 'required: the query string' })
      .transform((s) => s.trim())
      .pipe(z.string().min(1, 'must not be empty').max(1000, 'must be at most 1000 characters')),
    category: z.string().min(1).optional(),
    description: z.string().optional(),
    expected_module: z.string().min(1).optional(),
    expected_chapter: z.string().min(1).optional(),
    expected_sources: z.array(z.string().min(1, 'must not be empty')).default([]),
    relevant: z.array(RelevantItem).optional(),
    min_similarity: unit('min_similarity').optional(),
    top_k: topK.optional(),
    filters: Filters.default({}),
    criteria: QueryCriteria.default({}),
    agent: z.boolean().default(false),
    expect_answer: z.boolean().default(true),
    expect_match: z
      .boolean()
      .default(true)
      .describe('false for an out-of-domain probe: it passes only when no result reaches min_similarity'),
    set_aside: z
      .string()
      .trim()
      .min(1, 'must say why (calibrate writes the reason)')
      .max(500, 'must be at most 500 characters')
      .optional()
      .describe('why the query is kept in the file but neither run nor counted (calibrate --write sets it)'),
  })
  .strict();

export const SuccessCriteria = z
  .object({
    min_pass_rate: z.number().min(0).max(100, 'must be 0..100').default(90),
    min_coverage: z.number().min(0).max(100, 'must be 0..100').default(100),
    min_completeness: z.number().min(0).max(100, 'must be 0..100').default(100),
    // A page deleted from the site but still indexed is served to readers: none is allowed unless said (coverage).
    max_orphan_urls: z.number().int().min(0).default(0),
    min_mrr: unit('min_mrr').optional(),
    max_p95_latency_ms: z.number().positive().optional(),
    min_grounded_rate: z.number().min(0).max(100, 'must be 0..100').default(95),
    min_abstention_correct_rate: z.number().min(0).max(100, 'must be 0..100').default(100),
    min_support_rate: z.number().min(0).max(100, 'must be 0..100').default(95),
    // Index health (core/index-health): each check's criterion, judged when the check could run.
    max_stale_chunk_pages: z.number().int().min(0).default(0),
    max_missing_chunk_pages: z.number().int().min(0).default(0),
    max_stale_pages: z.number().int().min(0).default(0),
    max_embedding_models: z.number().int().min(1).default(1),
    min_canary_cosine: z.number().min(-1).max(1, 'must be -1..1').default(0.98),
    min_ann_recall: unit('min_ann_recall').default(0.95),
    max_filter_violations: z.number().int().min(0).default(0),
  })
  .strict();
export type SuccessCriteria = z.infer<typeof SuccessCriteria>;

/** Seed 000 QueryCategory: what a kind of query tests and what to expect of it (name is its key in `categories`). */
export const QueryCategory = z
  .object({
    description: z.string().min(1).optional(),
    examples: z.array(z.string().min(1)).optional(),
    expected_results: z
      .object({
        min_pass_rate: z.number().min(0).max(100, 'must be 0..100').optional(),
        min_semantic_alignment: unit('min_semantic_alignment').optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type QueryCategory = z.infer<typeof QueryCategory>;

export const Suite = z
  .object({
    name: z.string().min(1).default('golden-queries'),
    description: z.string().optional(),
    categories: z.record(z.string().min(1), QueryCategory).default({}),
    defaults: z
      .object({
        top_k: topK.default(5),
        min_similarity: unit('min_similarity').default(0.7),
        category: z.string().min(1).optional(),
      })
      .strict()
      .default({ top_k: 5, min_similarity: 0.7 }),
    success_criteria: SuccessCriteria.default(SuccessCriteria.parse({})),
    metrics: z
      .array(
        z
          .string()
          .refine(
            (m) => parseBenchmarkMetric(m) !== null,
            'must be precision@k, recall@k, ndcg@k, hit_rate@k (k 1..50), mrr or mrr@k',
          ),
      )
      .optional()
      .describe('benchmark metrics (seed 004), each at its own cut-off; queries are searched to the deepest'),
    queries: z.array(SuiteQuery).min(1, 'must hold at least one query'),
  })
  .strict()
  .superRefine((suite, ctx) => {
    if (suite.queries.length > 0 && suite.queries.every((q) => q.set_aside !== undefined))
      ctx.addIssue({ code: 'custom', path: ['queries'], message: 'every query is set_aside: nothing would run' });
    const seen = new Map<string, number>();
    suite.queries.forEach((q, i) => {
      if (q.id === undefined) return;
      const first = seen.get(q.id);
      if (first !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['queries', i, 'id'],
          message: `duplicates queries[${first}].id "${q.id}"`,
        });
      else seen.set(q.id, i);
    });
  });
export type Suite = z.infer<typeof Suite>;

export interface Relevance {
  kind: 'chunk_id' | 'url';
  target: string;
  grade: number;
}

/** A query with every default applied: what the engine runs. */
export interface ResolvedQuery {
  id: string;
  query_text: string;
  category: string;
  description: string | null;
  expected_module: string | null;
  expected_chapter: string | null;
  expected_sources: string[];
  relevant: Relevance[] | null;
  min_similarity: number;
  top_k: number;
  filters: z.infer<typeof Filters>;
  criteria: z.infer<typeof QueryCriteria>;
  agent: boolean;
  expect_answer: boolean;
  /** False for an out-of-domain probe (suite `expect_match: false`); absent means true. */
  expect_match?: boolean;
  /** The suite's benchmark metrics (benchmark-metrics.ts), when it lists some. */
  benchmark_metrics?: string[];
  /** How many results to ask for: top_k, or the deepest benchmark cut-off when deeper. */
  search_limit?: number;
}

function looksLikeUrl(value: string): boolean {
  return /^https?:\/\//i.test(value) || value.startsWith('/');
}

/**
 * YAML 1.2's core schema reads 0x10 as 16, 0o10 as 8 and .inf/.nan as numbers; a suite is written by people, and a
 * numeral they did not mean as decimal is refused: without these tags such scalars stay strings, and the schema
 * names the field that wanted a number.
 */
const DECIMAL_ONLY = (tags: Tags): Tags =>
  tags.filter(
    (t) => typeof t !== 'object' || !(t.format === 'HEX' || t.format === 'OCT' || /nan|inf/i.test(String(t.test))),
  );

/** Parses suite bytes: refused, naming the byte offset, when they are not UTF-8; then as parseSuite. */
export function parseSuiteBytes(bytes: Uint8Array, sourceName: string): Suite {
  const decoded = decodeUtf8(bytes);
  if ('problem' in decoded) throw new InputError(sourceName, [decoded.problem]);
  return parseSuite(decoded.text, sourceName);
}

/** Parses suite text (JSON, or YAML when the source name ends in .yaml/.yml) and validates it. */
export function parseSuite(text: string, sourceName: string): Suite {
  return parseSuiteFile(text, sourceName).suite;
}

/** Parses suite text in any seed's form: the suite with defaults applied, the project-form text as written, the form. */
export function parseSuiteFile(text: string, sourceName: string): ReturnType<typeof validateSuite> {
  let raw: unknown;
  try {
    raw = /\.ya?ml$/i.test(sourceName) ? parseYaml(text, { customTags: DECIMAL_ONLY }) : JSON.parse(text);
  } catch (error) {
    throw new InputError(sourceName, [
      `not valid ${/\.ya?ml$/i.test(sourceName) ? 'YAML' : 'JSON'}: ${(error as Error).message}`,
    ]);
  }
  return validateSuite(raw, sourceName);
}

/**
 * Validates a parsed suite file written in any seed's form (seed-forms.ts); returns it in the project's form, both
 * as written (`written`, for `suite normalize`) and with every default applied (`suite`). Problems are named with
 * the file's own field names.
 */
export function validateSuite(raw: unknown, sourceName: string): { suite: Suite; written: unknown; form: SuiteForm } {
  const normalised = liftFilterThresholds(normaliseSuiteForm(raw, sourceName), sourceName);
  const parsed = Suite.safeParse(normalised.suite, { reportInput: true });
  if (!parsed.success) throw new InputError(sourceName, listIssues(parsed.error, normalised.originalPath));
  return { suite: parsed.data, written: normalised.suite, form: normalised.form };
}

/** The queries the suite keeps but sets aside (`set_aside`), with their ids as resolveQueries would give them. */
export function setAsideQueries(suite: Suite): { id: string; reason: string }[] {
  return suite.queries.flatMap((q, i) =>
    q.set_aside === undefined ? [] : [{ id: q.id ?? `q${i + 1}`, reason: q.set_aside }],
  );
}

/**
 * Applies suite defaults (and optional overrides from config) to every query that is not set aside. A default id
 * is the query's position in the file, set-aside ones included, so marking one does not rename the others.
 */
export function resolveQueries(
  suite: Suite,
  overrides: { top_k?: number; min_similarity?: number } = {},
): ResolvedQuery[] {
  return suite.queries.flatMap((q, i) => (q.set_aside === undefined ? [resolveQuery(suite, q, i, overrides)] : []));
}

function resolveQuery(
  suite: Suite,
  q: Suite['queries'][number],
  i: number,
  overrides: { top_k?: number; min_similarity?: number },
): ResolvedQuery {
  return {
    id: q.id ?? `q${i + 1}`,
    query_text: q.query_text,
    category: q.category ?? suite.defaults.category ?? 'semantic',
    description: q.description ?? null,
    expected_module: q.expected_module ?? null,
    expected_chapter: q.expected_chapter ?? null,
    expected_sources: q.expected_sources,
    relevant:
      q.relevant?.map((r) =>
        typeof r === 'string'
          ? { kind: looksLikeUrl(r) ? 'url' : 'chunk_id', target: r, grade: 1 }
          : r.url !== undefined
            ? { kind: 'url', target: r.url, grade: r.grade }
            : { kind: 'chunk_id', target: r.chunk_id ?? '', grade: r.grade },
      ) ?? null,
    min_similarity: q.min_similarity ?? overrides.min_similarity ?? suite.defaults.min_similarity,
    top_k: q.top_k ?? overrides.top_k ?? suite.defaults.top_k,
    filters: q.filters,
    criteria: q.criteria,
    agent: q.agent,
    expect_answer: q.expect_answer,
    ...(q.expect_match ? {} : { expect_match: false }),
    ...(suite.metrics === undefined || suite.metrics.length === 0
      ? {}
      : {
          benchmark_metrics: suite.metrics,
          search_limit: Math.max(q.top_k ?? overrides.top_k ?? suite.defaults.top_k, benchmarkDepth(suite.metrics)),
        }),
  };
}
