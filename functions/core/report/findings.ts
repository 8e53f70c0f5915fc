/**
 * The findings of a run, at the bottom of the data model: every other part of the report (and of ragwatch) names
 * a finding's type and severity from here. A finding is data, never an exception (seed 000 ValidationError), and a
 * success criterion's verdict is data too.
 */
import { z } from 'zod';
import { ifThen, withRecordRules } from './record-rules.ts';

const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;
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
 * The findings that fail the run on their own, whatever the criteria say (docs/DATA-MODEL.md, "The run's status"):
 * every CRITICAL finding, and a HIGH finding of a type that says the answers a user gets are wrong. Here, at the
 * bottom of the data model, so the run's status (criteria/criteria.ts) and the report's schema read one table.
 */
const FAILS_THE_RUN: Readonly<Partial<Record<Severity, readonly ErrorType[] | 'every type'>>> = {
  CRITICAL: 'every type',
  HIGH: ['UNSUPPORTED_CLAIM', 'GROUNDING_FAILED'],
};

/** Whether a finding fails the run on its own (FAILS_THE_RUN); a breached criterion fails it as a criterion. */
export function failsTheRun(f: Pick<ValidationError, 'error_type' | 'severity'>): boolean {
  const types = FAILS_THE_RUN[f.severity];
  return f.error_type !== 'CRITERION_BREACHED' && (types === 'every type' || (types?.includes(f.error_type) ?? false));
}

/** FAILS_THE_RUN as JSON Schema: a finding that matches one of these fails the run. */
export function failsTheRunJsonSchema(): Record<string, unknown> {
  return {
    anyOf: Object.entries(FAILS_THE_RUN).map(([severity, types]) => ({
      properties: {
        severity: { const: severity },
        error_type: types === 'every type' ? { not: { const: 'CRITERION_BREACHED' } } : { enum: types },
      },
    })),
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
