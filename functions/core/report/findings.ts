/**
 * The findings of a run, at the bottom of the data model: every other part of the report (and of ragwatch) names
 * a finding's type and severity from here. A finding is data, never an exception (seed 000 ValidationError), and a
 * success criterion's verdict is data too.
 */
import { z } from 'zod';
import { ifThen, withRecordRules } from './record-rules.ts';

/** Worst first: the order every list of findings a person reads is sorted in. */
export const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;
export const Severity = z.enum(SEVERITIES);
export type Severity = z.infer<typeof Severity>;

export const ERROR_TYPES = [
  'LOW_RELEVANCE',
  'METADATA_MISMATCH',
  'MISSING_EXPECTED_SOURCE',
  'LOW_PRECISION',
  'LATENCY_EXCEEDED',
  'NO_RESULTS',
  'UNEXPECTED_MATCH',
  'TIMEOUT',
  'RATE_LIMITED',
  'RETRIEVAL_FAILED',
  'EMBEDDING_FAILED',
  'DIMENSION_MISMATCH',
  'MODEL_MISMATCH',
  'SITEMAP_FAILED',
  'SITEMAP_URL_REFUSED',
  'SITEMAP_TRUNCATED',
  'COVERAGE_GAP',
  'ORPHAN_URLS',
  'INCOMPLETE_METADATA',
  'SMALL_CHUNKS',
  'CRITERION_BREACHED',
  'CATEGORY_EXPECTATION_MISSED',
  'NO_RELEVANT_DOCUMENTS',
  'GROUNDING_FAILED',
  'UNSUPPORTED_CLAIM',
  'RUN_FAILED',
  'STALE_CHUNKS',
  'MISSING_CHUNKS',
  'STALE_PAGES',
  'MIXED_MODELS',
  'EMBEDDING_DRIFT',
  'ANN_RECALL_LOW',
  'FILTER_VIOLATION',
  'UNSUPPORTED_DISTANCE',
  'INDEX_ANOMALY',
] as const;
export const ErrorType = z.enum(ERROR_TYPES);
export type ErrorType = z.infer<typeof ErrorType>;

/** Seed 000 ValidationError: a finding or a failure, always data in the report. */
export const ValidationError = z.object({
  id: z.string().min(1),
  validation_id: z.string().min(1).describe('The run id, or the query id for a per-query error'),
  error_type: ErrorType,
  message: z.string().min(1),
  severity: Severity,
  details: z.record(z.string(), z.unknown()),
});
export type ValidationError = z.infer<typeof ValidationError>;

/**
 * The run's status rule, per finding type (docs/DATA-MODEL.md, "The run's status"); the run's status
 * (criteria/criteria.ts) and the report's schema read this one table. A CRITICAL finding fails the run whatever its
 * type. Below CRITICAL, a finding whose figure the suite holds to a threshold of its own is judged by that success
 * criterion: its severity ranks it for ops, and the criterion (the tolerance the suite set) decides the status, so
 * a HIGH finding within the tolerance (3 stale pages under max_stale_chunk_pages 5, one failing query under
 * min_pass_rate 90) leaves the run PASSED and the status reason names it; otherwise the suite's thresholds would
 * stop mattering. Every other finding (an empty list) is judged by its severity: HIGH fails the run, MEDIUM and LOW
 * never do. A CRITERION_BREACHED finding is a criterion's own and is not counted twice. Typed over every error type,
 * so a new type cannot be added without deciding this.
 */
export const JUDGED_BY: Readonly<Record<Exclude<ErrorType, 'CRITERION_BREACHED'>, readonly string[]>> = {
  // One golden query's failure: the pass rate is the suite's tolerance for failing queries. An agent question that
  // could not be asked is left out of the grounded rate, which is not computed (breached) when every one failed.
  LOW_RELEVANCE: ['pass_rate'],
  METADATA_MISMATCH: ['pass_rate'],
  MISSING_EXPECTED_SOURCE: ['pass_rate'],
  LOW_PRECISION: ['pass_rate'],
  LATENCY_EXCEEDED: ['pass_rate'],
  NO_RESULTS: ['pass_rate'],
  UNEXPECTED_MATCH: ['pass_rate'],
  TIMEOUT: ['pass_rate', 'grounded_rate'],
  RATE_LIMITED: ['pass_rate'],
  RETRIEVAL_FAILED: ['pass_rate', 'grounded_rate'],
  EMBEDDING_FAILED: ['pass_rate'],
  // The index cannot be trusted for any query (all CRITICAL): no tolerance applies.
  DIMENSION_MISMATCH: [],
  MODEL_MISMATCH: [],
  UNSUPPORTED_DISTANCE: [],
  INDEX_ANOMALY: [],
  // The sitemap could not be read, or a URL of it was refused: coverage was computed without those pages, so the
  // coverage criterion cannot see what it would judge.
  SITEMAP_FAILED: [],
  SITEMAP_URL_REFUSED: [],
  SITEMAP_TRUNCATED: [],
  COVERAGE_GAP: ['coverage'],
  ORPHAN_URLS: ['coverage'],
  INCOMPLETE_METADATA: ['completeness'],
  // A category's own expectation (the suite's categories): a finding beside the pass rate (MEDIUM).
  CATEGORY_EXPECTATION_MISSED: [],
  // An answer that abstained though the book can answer: counted in the grounded rate.
  NO_RELEVANT_DOCUMENTS: ['grounded_rate'],
  // A wrong answer shown to a user (a claim its sources do not hold or contradict, broken citations, no abstention
  // where the book has no answer): the rates tolerate answers that fall short, not answers that are wrong.
  GROUNDING_FAILED: [],
  UNSUPPORTED_CLAIM: [],
  RUN_FAILED: [],
  STALE_CHUNKS: ['stale_chunk_pages'],
  MISSING_CHUNKS: ['missing_chunk_pages'],
  // The collection's shape, not a night's fault (LOW): reported, never failing the run.
  SMALL_CHUNKS: [],
  STALE_PAGES: ['stale_pages'],
  MIXED_MODELS: ['embedding_models'],
  EMBEDDING_DRIFT: ['canary_cosine'],
  ANN_RECALL_LOW: ['ann_recall'],
  FILTER_VIOLATION: ['filter_violations'],
};

/** The finding types judged by their severity (JUDGED_BY): a HIGH one fails the run. */
const JUDGED_BY_SEVERITY = (Object.keys(JUDGED_BY) as (keyof typeof JUDGED_BY)[]).filter(
  (type) => JUDGED_BY[type].length === 0,
);

/** Whether a finding fails the run on its own (JUDGED_BY); a breached criterion fails it as a criterion. */
export function failsTheRun(f: Pick<ValidationError, 'error_type' | 'severity'>): boolean {
  if (f.error_type === 'CRITERION_BREACHED') return false;
  return f.severity === 'CRITICAL' || (f.severity === 'HIGH' && JUDGED_BY[f.error_type].length === 0);
}

/** A sort's comparison: the worse severity first (SEVERITIES' order); equal ones keep their order (a stable sort). */
export function worstFirst(a: { severity: Severity }, b: { severity: Severity }): number {
  return SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity);
}

/**
 * Findings by severity and type, with a count, worst first (ops read them in a status reason, an alert's subject
 * and first line): "CRITICAL MODEL_MISMATCH, 2 × HIGH STALE_CHUNKS". Within a severity, in the order they came.
 */
export function findingKinds(findings: readonly Pick<ValidationError, 'error_type' | 'severity'>[]): string[] {
  const sorted = [...findings].sort(worstFirst);
  const counts = new Map<string, number>();
  for (const f of sorted)
    counts.set(`${f.severity} ${f.error_type}`, (counts.get(`${f.severity} ${f.error_type}`) ?? 0) + 1);
  return [...counts].map(([kind, n]) => (n > 1 ? `${n} × ${kind}` : kind));
}

/** A HIGH finding its success criterion judges (JUDGED_BY): it leaves a run whose criteria hold PASSED. */
export function withinTheSuitesThresholds(f: Pick<ValidationError, 'error_type' | 'severity'>): boolean {
  return f.severity === 'HIGH' && f.error_type !== 'CRITERION_BREACHED' && !failsTheRun(f);
}

/** failsTheRun as JSON Schema: a finding that matches one of these fails the run. */
export function failsTheRunJsonSchema(): Record<string, unknown> {
  return {
    anyOf: [
      { properties: { severity: { const: 'CRITICAL' }, error_type: { not: { const: 'CRITERION_BREACHED' } } } },
      { properties: { severity: { const: 'HIGH' }, error_type: { enum: JUDGED_BY_SEVERITY } } },
    ],
  };
}

export const CriterionResult = withRecordRules(
  z.object({
    name: z.string().min(1),
    description: z.string(),
    value: z.number().nullable().describe('null when the figure could not be computed (counts as breached)'),
    threshold: z.number(),
    comparator: z.enum(['>=', '<=']),
    passed: z.boolean(),
    severity: Severity,
  }),
  [
    {
      rule: 'a criterion whose value could not be computed (null) is not passed',
      holds: (c) => c.value !== null || !c.passed,
      jsonSchema: ifThen({ value: null }, { passed: { const: false } }),
    },
    {
      rule: 'passed is true exactly when value compares with threshold as comparator says (zod only: two numbers compared)',
      holds: (c) =>
        c.value === null || c.passed === (c.comparator === '>=' ? c.value >= c.threshold : c.value <= c.threshold),
      jsonSchema: null,
    },
  ],
);
export type CriterionResult = z.infer<typeof CriterionResult>;
