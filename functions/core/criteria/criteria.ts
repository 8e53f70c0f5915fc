/**
 * How a success criterion is judged, the same for every one (each check declares and judges its own criteria:
 * checks/check.ts), the findings a breach makes, and the run's status from its criteria and failures.
 * Float noise is handled by rounding, not by an epsilon: each value is rounded to the precision the report shows it
 * with (percentages and milliseconds 2 decimals, MRR 4) and then compared exactly with its threshold, so 99.999999
 * from float arithmetic is 100 and passes, while a reported 99.99 is a breach of 100.
 * A value that could not be computed (null) counts as breached, at the criterion's worst severity.
 */

import {
  type CriterionResult,
  failsTheRun,
  findingKinds,
  type Severity,
  type ValidationError,
  withinTheSuitesThresholds,
} from '../report/findings.ts';
import { roundTo } from '../shared/statistics.ts';

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

/** One CRITERION_BREACHED error per failed criterion, with value against threshold in message and details. */
export function criteriaErrors(
  results: readonly CriterionResult[],
  runId: string,
  newId: () => string,
  /** How each criterion's figures are written in a message ('%', ' ms'), by criterion name. */
  units: Readonly<Record<string, string>>,
): ValidationError[] {
  return results
    .filter((r) => !r.passed)
    .map((r) => {
      const unit = units[r.name] ?? '';
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

/**
 * The run's status, one rule: ERROR when a stage could not run; FAILED when a criterion is breached or a finding
 * fails the run (JUDGED_BY in report/findings.ts); else PASSED, whose reason names the HIGH findings the suite's
 * thresholds tolerate, so a PASSED run with a HIGH finding says so.
 */
export function decideRunStatus(
  stageFailures: readonly string[],
  criteria: readonly CriterionResult[],
  findings: readonly Pick<ValidationError, 'error_type' | 'severity'>[] = [],
): { status: 'PASSED' | 'FAILED' | 'ERROR'; statusReason: string } {
  if (stageFailures.length > 0)
    return { status: 'ERROR', statusReason: `the run could not complete: ${stageFailures.join('; ')}` };
  const breached = criteria.filter((c) => !c.passed);
  const serious = findings.filter(failsTheRun);
  if (breached.length === 0 && serious.length === 0) {
    const tolerated = findingKinds(findings.filter(withinTheSuitesThresholds));
    const note = tolerated.length > 0 ? `; HIGH findings within the suite's thresholds: ${tolerated.join(', ')}` : '';
    return { status: 'PASSED', statusReason: `all ${criteria.length} success criteria hold${note}` };
  }
  const what = breached.map((c) => `${c.name} ${c.value ?? 'n/a'} ${c.comparator === '>=' ? '<' : '>'} ${c.threshold}`);
  const kinds = findingKinds(serious);
  const reasons = [
    ...(breached.length > 0
      ? [`${breached.length} of ${criteria.length} success criteria breached: ${what.join('; ')}`]
      : []),
    ...(kinds.length > 0 ? [`findings that fail the run: ${kinds.join(', ')}`] : []),
  ];
  return { status: 'FAILED', statusReason: reasons.join('; ') };
}
