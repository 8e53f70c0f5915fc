/**
 * The run's success criteria (seed 001: pass rate >= 90, coverage = 100, completeness = 100; plus optional MRR,
 * p95 latency, grounded-answer rate and claim support rate), each a verdict returned as data.
 * Float noise is handled by rounding, not by an epsilon: each value is rounded to the precision the report shows it
 * with (percentages and milliseconds 2 decimals, MRR 4) and then compared exactly with its threshold, so 99.999999
 * from float arithmetic is 100 and passes, while a reported 99.99 is a breach of 100.
 * A value that could not be computed (null) counts as breached, at the criterion's worst severity.
 */

import type { CriterionResult, Severity, ValidationError } from '../report/findings.ts';
import { roundTo } from '../shared/statistics.ts';
import type { SuccessCriteria } from '../suite/suite.ts';

/** A criterion to judge: its figure, threshold and comparison, and the severity of a breach. */
export interface CriterionSpec {
  name: string;
  description: string;
  decimals: number;
  value: number | null;
  threshold: number;
  comparator: CriterionResult['comparator'];
  /** The severity of a breach of this value (null = not computed). */
  severity: (value: number | null) => Severity;
}

/** How each criterion's figures are written in a message. */
const UNITS: Record<string, string> = {
  pass_rate: '%',
  coverage: '%',
  completeness: '%',
  p95_latency_ms: ' ms',
  grounded_rate: '%',
  abstention_correct_rate: '%',
  support_rate: '%',
};

const medium = (): Severity => 'MEDIUM';
const highBelow90 = (value: number | null): Severity => (value === null || value < 90 ? 'HIGH' : 'MEDIUM');

/** Evaluates every applicable criterion; an optional one is left out when it has no threshold or its figure does not apply (undefined). */
export function evaluateCriteria(options: {
  passRate: number | null;
  coverage: number | null;
  completeness: number | null;
  mrr?: number | null;
  p95LatencyMs?: number | null;
  groundedRate?: number | null;
  abstentionCorrectRate?: number | null;
  supportRate?: number | null;
  criteria: SuccessCriteria;
}): CriterionResult[] {
  const { criteria } = options;
  const specs: CriterionSpec[] = [
    {
      name: 'pass_rate',
      description: 'Share of golden queries that pass (%)',
      decimals: 2,
      value: options.passRate,
      threshold: criteria.min_pass_rate,
      comparator: '>=',
      severity: (v) => (v === null || v < criteria.min_pass_rate / 2 ? 'CRITICAL' : 'HIGH'),
    },
    {
      name: 'coverage',
      description: 'Sitemap pages under the path prefix that are indexed (%)',
      decimals: 2,
      value: options.coverage,
      threshold: criteria.min_coverage,
      comparator: '>=',
      severity: highBelow90,
    },
    {
      name: 'completeness',
      description: 'Points whose payload has every required metadata field (%)',
      decimals: 2,
      value: options.completeness,
      threshold: criteria.min_completeness,
      comparator: '>=',
      severity: highBelow90,
    },
  ];
  if (criteria.min_mrr !== undefined && options.mrr !== undefined)
    specs.push({
      name: 'mrr',
      description: 'Mean reciprocal rank over judged queries',
      decimals: 4,
      value: options.mrr,
      threshold: criteria.min_mrr,
      comparator: '>=',
      severity: medium,
    });
  if (criteria.max_p95_latency_ms !== undefined && options.p95LatencyMs !== undefined)
    specs.push({
      name: 'p95_latency_ms',
      description: '95th percentile of per-query latency (ms)',
      decimals: 2,
      value: options.p95LatencyMs,
      threshold: criteria.max_p95_latency_ms,
      comparator: '<=',
      severity: medium,
    });
  if (options.groundedRate !== undefined)
    specs.push({
      name: 'grounded_rate',
      description: 'Agent answers grounded in their retrieved chunks (%)',
      decimals: 2,
      value: options.groundedRate,
      threshold: criteria.min_grounded_rate,
      comparator: '>=',
      severity: medium,
    });
  if (options.abstentionCorrectRate !== undefined)
    specs.push({
      name: 'abstention_correct_rate',
      description: 'Questions the book cannot answer on which the agent abstained (%)',
      decimals: 2,
      value: options.abstentionCorrectRate,
      threshold: criteria.min_abstention_correct_rate,
      comparator: '>=',
      // Answering a question the book cannot answer means inventing: worse than a missed citation.
      severity: (v) => (v === null || v < 100 ? 'HIGH' : 'MEDIUM'),
    });
  if (options.supportRate !== undefined)
    specs.push({
      name: 'support_rate',
      description: 'Claims in agent answers supported by the chunks they cite (%)',
      decimals: 2,
      value: options.supportRate,
      threshold: criteria.min_support_rate,
      comparator: '>=',
      // An unsupported claim is an invented fact under a real citation: as bad as answering the unanswerable.
      severity: (v) => (v === null || v < 90 ? 'HIGH' : 'MEDIUM'),
    });
  return specs.map(judgeCriterion);
}

/** One CRITERION_BREACHED error per failed criterion, with value against threshold in message and details. */
export function criteriaErrors(
  results: readonly CriterionResult[],
  runId: string,
  newId: () => string,
): ValidationError[] {
  return results
    .filter((r) => !r.passed)
    .map((r) => {
      const unit = UNITS[r.name] ?? '';
      const value = r.value === null ? 'could not be computed' : `is ${r.value}${unit}`;
      return {
        id: newId(),
        validation_id: runId,
        error_type: 'CRITERION_BREACHED',
        message: `${r.name} ${value}, required ${r.comparator} ${r.threshold}${unit}`,
        severity: r.severity,
        details: { criterion: r.name, value: r.value, threshold: r.threshold, comparator: r.comparator },
      };
    });
}

/** Judges one criterion: its value rounded to the shown precision, then compared exactly with its threshold. */
export function judgeCriterion(spec: CriterionSpec): CriterionResult {
  const value = spec.value === null || !Number.isFinite(spec.value) ? null : roundTo(spec.value, spec.decimals);
  const passed = value !== null && (spec.comparator === '>=' ? value >= spec.threshold : value <= spec.threshold);
  return {
    name: spec.name,
    description: spec.description,
    value,
    threshold: spec.threshold,
    comparator: spec.comparator,
    passed,
    severity: spec.severity(value),
  };
}

/** The run's status: ERROR when a stage could not run, FAILED when a criterion is breached, else PASSED. */
export function decideRunStatus(
  stageFailures: readonly string[],
  criteria: readonly CriterionResult[],
): { status: 'PASSED' | 'FAILED' | 'ERROR'; statusReason: string } {
  if (stageFailures.length > 0)
    return { status: 'ERROR', statusReason: `the run could not complete: ${stageFailures.join('; ')}` };
  const breached = criteria.filter((c) => !c.passed);
  if (breached.length === 0) return { status: 'PASSED', statusReason: `all ${criteria.length} success criteria hold` };
  const what = breached.map((c) => `${c.name} ${c.value ?? 'n/a'} ${c.comparator === '>=' ? '<' : '>'} ${c.threshold}`);
  return {
    status: 'FAILED',
    statusReason: `${breached.length} of ${criteria.length} success criteria breached: ${what.join('; ')}`,
  };
}
