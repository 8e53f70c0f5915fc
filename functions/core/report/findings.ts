/**
 * The findings of a run, at the bottom of the data model: every other part of the report (and of ragwatch) names
 * a finding's type and severity from here. A finding is data, never an exception (seed 000 ValidationError), and a
 * success criterion's verdict is data too.
 */
import { z } from 'zod';

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
  'CRITERION_BREACHED',
  'CATEGORY_EXPECTATION_MISSED',
  'NO_RELEVANT_DOCUMENTS',
  'GROUNDING_FAILED',
  'UNSUPPORTED_CLAIM',
  'RUN_FAILED',
  'STALE_CHUNKS',
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
  id: z.string(),
  validation_id: z.string().describe('The run id, or the query id for a per-query error'),
  error_type: ErrorType,
  message: z.string(),
  severity: Severity,
  details: z.record(z.string(), z.unknown()),
});
export type ValidationError = z.infer<typeof ValidationError>;

export const CriterionResult = z.object({
  name: z.string(),
  description: z.string(),
  value: z.number().nullable().describe('null when the figure could not be computed (counts as breached)'),
  threshold: z.number(),
  comparator: z.enum(['>=', '<=']),
  passed: z.boolean(),
  severity: Severity,
});
export type CriterionResult = z.infer<typeof CriterionResult>;
