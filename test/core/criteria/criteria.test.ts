import { describe, expect, it } from 'vitest';
import { criteriaErrors, decideRunStatus } from '../../../functions/core/criteria/criteria.ts';
import { CriterionResult, type ErrorType, type Severity } from '../../../functions/core/report/findings.ts';
import { CRITERION_UNITS } from '../../../functions/core/run/checks.ts';
import { SuccessCriteria } from '../../../functions/core/suite/suite.ts';
import { judgeFigures } from '../../helpers/judge-figures.ts';
import { nonEmpty } from '../../helpers/non-empty.ts';

const DEFAULTS = SuccessCriteria.parse({});

function ids(): () => string {
  let n = 0;
  return () => `e${++n}`;
}

function find(results: CriterionResult[], name: string): CriterionResult | undefined {
  return results.find((r) => r.name === name);
}

describe('the checks’ success criteria', () => {
  it('passes seed 001 defaults exactly at their thresholds', () => {
    // Act
    const results = judgeFigures({ passRate: 90, coverage: 100, completeness: 100, criteria: DEFAULTS });

    // Assess
    expect(results).toEqual([
      {
        name: 'pass_rate',
        description: 'Share of golden queries that pass (%)',
        value: 90,
        threshold: 90,
        comparator: '>=',
        passed: true,
        severity: 'HIGH',
      },
      {
        name: 'coverage',
        description: 'Sitemap pages under the path prefix that are indexed (%)',
        value: 100,
        threshold: 100,
        comparator: '>=',
        passed: true,
        severity: 'MEDIUM',
      },
      {
        name: 'completeness',
        description: 'Points whose payload has every required metadata field (%)',
        value: 100,
        threshold: 100,
        comparator: '>=',
        passed: true,
        severity: 'MEDIUM',
      },
    ]);
    expect(results.map((r) => CriterionResult.parse(r))).toEqual(results);
  });

  it('breaches each default just below its threshold', () => {
    // Act
    const results = judgeFigures({ passRate: 89.99, coverage: 99.99, completeness: 99.99, criteria: DEFAULTS });

    // Assess
    expect(results.map((r) => [r.name, r.value, r.passed, r.severity])).toEqual([
      ['pass_rate', 89.99, false, 'HIGH'],
      ['coverage', 99.99, false, 'MEDIUM'],
      ['completeness', 99.99, false, 'MEDIUM'],
    ]);
  });

  it('passes just above the thresholds', () => {
    // Act
    const results = judgeFigures({
      passRate: 90.01,
      coverage: 100,
      completeness: 100,
      criteria: { ...DEFAULTS, min_coverage: 95, min_completeness: 99.5 },
    });

    // Assess
    expect(nonEmpty(results, 'judged criteria').every((r) => r.passed)).toBe(true);
  });

  it('rounds float noise to 2 decimals before comparing, so 99.999999999 is 100', () => {
    // Prepare: 99.999999999 rounds to 100.00; 99.994 rounds to 99.99.
    const criteria = DEFAULTS;

    // Act
    const results = judgeFigures({ passRate: 100, coverage: 99.999999999, completeness: 99.994, criteria });

    // Assess
    expect([find(results, 'coverage'), find(results, 'completeness')]).toMatchObject([
      { value: 100, passed: true },
      { value: 99.99, passed: false },
    ]);
  });

  it('makes a pass rate under half its threshold CRITICAL', () => {
    // Act: half of 90 is 45.
    const below = judgeFigures({ passRate: 44.99, coverage: 100, completeness: 100, criteria: DEFAULTS });
    const atHalf = judgeFigures({ passRate: 45, coverage: 100, completeness: 100, criteria: DEFAULTS });

    // Assess
    expect([find(below, 'pass_rate')?.severity, find(atHalf, 'pass_rate')?.severity]).toEqual(['CRITICAL', 'HIGH']);
  });

  it('makes coverage and completeness under 90% HIGH', () => {
    // Act
    const results = judgeFigures({ passRate: 100, coverage: 89.99, completeness: 90, criteria: DEFAULTS });

    // Assess
    expect([find(results, 'coverage')?.severity, find(results, 'completeness')?.severity]).toEqual(['HIGH', 'MEDIUM']);
  });

  it('counts a figure that could not be computed as breached at the worst severity', () => {
    // Act
    const results = judgeFigures({ passRate: null, coverage: null, completeness: null, criteria: DEFAULTS });

    // Assess
    expect(results.map((r) => [r.name, r.value, r.passed, r.severity])).toEqual([
      ['pass_rate', null, false, 'CRITICAL'],
      ['coverage', null, false, 'HIGH'],
      ['completeness', null, false, 'HIGH'],
    ]);
  });

  it('leaves out optional criteria that have no threshold or no figure', () => {
    // Act: no min_mrr or max_p95_latency_ms; no grounded rate given though min_grounded_rate defaults to 95.
    const results = judgeFigures({
      passRate: 100,
      coverage: 100,
      completeness: 100,
      mrr: 0.1,
      p95LatencyMs: 9000,
      criteria: DEFAULTS,
    });

    // Assess
    expect(results.map((r) => r.name)).toEqual(['pass_rate', 'coverage', 'completeness']);
  });

  it('evaluates MRR, p95 latency and grounded rate when they have a threshold and a figure', () => {
    // Prepare: MRR 0.69995 rounds to 4 decimals as 0.7 (at threshold); p95 1500.004 rounds to 1500 (at threshold);
    // grounded rate 94.99 is under 95.
    const criteria = { ...DEFAULTS, min_mrr: 0.7, max_p95_latency_ms: 1500 };

    // Act
    const results = judgeFigures({
      passRate: 100,
      coverage: 100,
      completeness: 100,
      mrr: 0.69995,
      p95LatencyMs: 1500.004,
      groundedRate: 94.99,
      criteria,
    });

    // Assess
    expect(results.slice(3)).toEqual([
      {
        name: 'mrr',
        description: 'Mean reciprocal rank over judged queries',
        value: 0.7,
        threshold: 0.7,
        comparator: '>=',
        passed: true,
        severity: 'MEDIUM',
      },
      {
        name: 'p95_latency_ms',
        description: '95th percentile of each query’s share of its batched embed and search calls (ms)',
        value: 1500,
        threshold: 1500,
        comparator: '<=',
        passed: true,
        severity: 'MEDIUM',
      },
      {
        name: 'grounded_rate',
        description: 'Agent answers grounded in their retrieved chunks (%)',
        value: 94.99,
        threshold: 95,
        comparator: '>=',
        passed: false,
        severity: 'MEDIUM',
      },
    ]);
  });

  it('holds the claim support rate exactly at its default threshold of 95%', () => {
    // Act
    const results = judgeFigures({
      passRate: 100,
      coverage: 100,
      completeness: 100,
      supportRate: 95,
      criteria: DEFAULTS,
    });

    // Assess
    expect(find(results, 'support_rate')).toEqual({
      name: 'support_rate',
      description: 'Claims in agent answers supported by the chunks they cite (%)',
      value: 95,
      threshold: 95,
      comparator: '>=',
      passed: true,
      severity: 'MEDIUM',
    });
  });

  it('breaches the claim support rate just under its threshold, HIGH under 90%', () => {
    // Act
    const at = (supportRate: number) =>
      find(
        judgeFigures({ passRate: 100, coverage: 100, completeness: 100, supportRate, criteria: DEFAULTS }),
        'support_rate',
      );

    // Assess
    expect([at(94.99), at(89.99), at(90)].map((r) => [r?.passed, r?.severity])).toEqual([
      [false, 'MEDIUM'],
      [false, 'HIGH'],
      [false, 'MEDIUM'],
    ]);
  });

  it('takes the claim support threshold from the suite’s min_support_rate', () => {
    // Act
    const results = judgeFigures({
      passRate: 100,
      coverage: 100,
      completeness: 100,
      supportRate: 80,
      criteria: SuccessCriteria.parse({ min_support_rate: 80 }),
    });

    // Assess
    expect(find(results, 'support_rate')).toMatchObject({ threshold: 80, passed: true });
  });

  it('breaches a latency ceiling just above it', () => {
    // Act
    const results = judgeFigures({
      passRate: 100,
      coverage: 100,
      completeness: 100,
      p95LatencyMs: 1500.01,
      criteria: { ...DEFAULTS, max_p95_latency_ms: 1500 },
    });

    // Assess
    expect(find(results, 'p95_latency_ms')).toMatchObject({ value: 1500.01, passed: false });
  });

  it('breaches an MRR criterion when no query was judged', () => {
    // Act
    const results = judgeFigures({
      passRate: 100,
      coverage: 100,
      completeness: 100,
      mrr: null,
      criteria: { ...DEFAULTS, min_mrr: 0.5 },
    });

    // Assess
    expect(find(results, 'mrr')).toMatchObject({ value: null, passed: false });
  });
});

describe('the checks’ success criteria: optional criteria', () => {
  const ALL_MET = { passRate: 100, coverage: 100, completeness: 100 };

  it('leaves out MRR and p95 latency when they have a threshold but their figure does not apply', () => {
    // Act: thresholds set, figures undefined (no judged query stage, no latency figure).
    const results = judgeFigures({ ...ALL_MET, criteria: { ...DEFAULTS, min_mrr: 0.5, max_p95_latency_ms: 1500 } });

    // Assess
    expect(results.map((r) => r.name)).toEqual(['pass_rate', 'coverage', 'completeness']);
  });

  it('breaches the p95 latency ceiling when the p95 could not be computed', () => {
    // Act
    const results = judgeFigures({
      ...ALL_MET,
      p95LatencyMs: null,
      criteria: { ...DEFAULTS, max_p95_latency_ms: 5000 },
    });

    // Assess
    expect(find(results, 'p95_latency_ms')).toEqual({
      name: 'p95_latency_ms',
      description: '95th percentile of each query’s share of its batched embed and search calls (ms)',
      value: null,
      threshold: 5000,
      comparator: '<=',
      passed: false,
      severity: 'MEDIUM',
    });
  });

  it('breaches the grounded rate when it could not be computed', () => {
    // Act
    const results = judgeFigures({ ...ALL_MET, groundedRate: null, criteria: DEFAULTS });

    // Assess
    expect(find(results, 'grounded_rate')).toMatchObject({ value: null, passed: false, severity: 'MEDIUM' });
  });

  it('passes the grounded rate exactly at its threshold', () => {
    // Act
    const results = judgeFigures({ ...ALL_MET, groundedRate: 95, criteria: DEFAULTS });

    // Assess
    expect(find(results, 'grounded_rate')).toMatchObject({ value: 95, threshold: 95, passed: true });
  });

  it('breaches MRR just under its threshold', () => {
    // Act
    const results = judgeFigures({ ...ALL_MET, mrr: 0.6999, criteria: { ...DEFAULTS, min_mrr: 0.7 } });

    // Assess
    expect(find(results, 'mrr')).toMatchObject({ value: 0.6999, passed: false, severity: 'MEDIUM' });
  });

  it('passes the abstention criterion at 100% with MEDIUM severity', () => {
    // Act
    const results = judgeFigures({ ...ALL_MET, abstentionCorrectRate: 100, criteria: DEFAULTS });

    // Assess
    expect(find(results, 'abstention_correct_rate')).toEqual({
      name: 'abstention_correct_rate',
      description: 'Questions the book cannot answer on which the agent abstained (%)',
      value: 100,
      threshold: 100,
      comparator: '>=',
      passed: true,
      severity: 'MEDIUM',
    });
  });

  it('breaches the abstention criterion just under 100% as HIGH', () => {
    // Act
    const results = judgeFigures({ ...ALL_MET, abstentionCorrectRate: 99.99, criteria: DEFAULTS });

    // Assess
    expect(find(results, 'abstention_correct_rate')).toMatchObject({ value: 99.99, passed: false, severity: 'HIGH' });
  });

  it('breaches the abstention criterion as HIGH when it could not be computed', () => {
    // Act
    const results = judgeFigures({ ...ALL_MET, abstentionCorrectRate: null, criteria: DEFAULTS });

    // Assess
    expect(find(results, 'abstention_correct_rate')).toMatchObject({ value: null, passed: false, severity: 'HIGH' });
  });

  it('breaches a criterion whose figure is not a finite number, as could not be computed', () => {
    // Act
    const results = judgeFigures({
      passRate: Number.NaN,
      coverage: Number.POSITIVE_INFINITY,
      completeness: 100,
      criteria: DEFAULTS,
    });

    // Assess
    expect(results.slice(0, 2).map((r) => [r.name, r.value, r.passed, r.severity])).toEqual([
      ['pass_rate', null, false, 'CRITICAL'],
      ['coverage', null, false, 'HIGH'],
    ]);
  });

  it('leaves out the abstention criterion when no unanswerable question was asked', () => {
    // Act
    const results = judgeFigures({ ...ALL_MET, groundedRate: 100, criteria: DEFAULTS });

    // Assess
    expect(results.map((r) => r.name)).toEqual(['pass_rate', 'coverage', 'completeness', 'grounded_rate']);
  });
});

describe('criteriaErrors', () => {
  it('turns each breached criterion into a CRITERION_BREACHED error with value and threshold', () => {
    // Prepare
    const results = judgeFigures({
      passRate: 85.71,
      coverage: 100,
      completeness: null,
      p95LatencyMs: 2100,
      criteria: { ...DEFAULTS, max_p95_latency_ms: 1500 },
    });

    // Act
    const errors = criteriaErrors(results, 'run-1', ids(), CRITERION_UNITS);

    // Assess
    expect(errors).toEqual([
      {
        id: 'e1',
        validation_id: 'run-1',
        error_type: 'CRITERION_BREACHED',
        message: 'pass_rate is 85.71%, required >= 90%',
        severity: 'HIGH',
        details: { criterion: 'pass_rate', value: 85.71, threshold: 90, comparator: '>=' },
      },
      {
        id: 'e2',
        validation_id: 'run-1',
        error_type: 'CRITERION_BREACHED',
        message: 'completeness could not be computed, required >= 100%',
        severity: 'HIGH',
        details: { criterion: 'completeness', value: null, threshold: 100, comparator: '>=' },
      },
      {
        id: 'e3',
        validation_id: 'run-1',
        error_type: 'CRITERION_BREACHED',
        message: 'p95_latency_ms is 2100 ms, required <= 1500 ms',
        severity: 'MEDIUM',
        details: { criterion: 'p95_latency_ms', value: 2100, threshold: 1500, comparator: '<=' },
      },
    ]);
  });

  it('writes a criterion without a unit, such as MRR, with bare figures', () => {
    // Prepare
    const results = judgeFigures({
      passRate: 100,
      coverage: 100,
      completeness: 100,
      mrr: 0.5,
      criteria: { ...DEFAULTS, min_mrr: 0.7 },
    });

    // Act
    const errors = criteriaErrors(results, 'run-1', ids(), CRITERION_UNITS);

    // Assess
    expect(errors.map((e) => [e.message, e.severity])).toEqual([['mrr is 0.5, required >= 0.7', 'MEDIUM']]);
  });

  it('writes coverage, grounded and abstention rates as percentages', () => {
    // Prepare
    const results = judgeFigures({
      passRate: 100,
      coverage: 99,
      completeness: 100,
      groundedRate: 80,
      abstentionCorrectRate: 50,
      criteria: DEFAULTS,
    });

    // Act
    const errors = criteriaErrors(results, 'run-1', ids(), CRITERION_UNITS);

    // Assess
    expect(errors.map((e) => [e.message, e.severity])).toEqual([
      ['coverage is 99%, required >= 100%', 'MEDIUM'],
      ['grounded_rate is 80%, required >= 95%', 'MEDIUM'],
      ['abstention_correct_rate is 50%, required >= 100%', 'HIGH'],
    ]);
  });

  it('raises nothing when every criterion holds', () => {
    // Prepare
    const results = judgeFigures({ passRate: 100, coverage: 100, completeness: 100, criteria: DEFAULTS });

    // Act
    const errors = criteriaErrors(results, 'run-1', ids(), CRITERION_UNITS);

    // Assess
    expect(errors).toEqual([]);
  });
});

describe('decideRunStatus', () => {
  const criterion = (name: string, value: number | null, passed: boolean) => ({
    name,
    description: name,
    value,
    threshold: 90,
    comparator: '>=' as const,
    passed,
    severity: 'HIGH' as const,
  });

  it('says ERROR with every stage that failed, whatever the criteria say', () => {
    expect(decideRunStatus(['sitemap: 404', 'queries: timeout'], [criterion('pass_rate', 95, true)])).toEqual({
      status: 'ERROR',
      statusReason: 'the run could not complete: sitemap: 404; queries: timeout',
    });
  });

  it('says FAILED with each breached criterion as value against threshold', () => {
    const result = decideRunStatus(
      [],
      [criterion('pass_rate', 80, false), criterion('coverage', null, false), criterion('x', 99, true)],
    );

    expect(result).toEqual({
      status: 'FAILED',
      statusReason: '2 of 3 success criteria breached: pass_rate 80 < 90; coverage n/a < 90',
    });
  });

  it('says a breached ceiling is over its threshold', () => {
    const p95 = { ...criterion('p95_latency_ms', 2100, false), threshold: 1500, comparator: '<=' as const };

    expect(decideRunStatus([], [p95]).statusReason).toBe(
      '1 of 1 success criteria breached: p95_latency_ms 2100 > 1500',
    );
  });

  it('says PASSED when every criterion holds', () => {
    expect(decideRunStatus([], [criterion('pass_rate', 95, true)])).toEqual({
      status: 'PASSED',
      statusReason: 'all 1 success criteria hold',
    });
  });

  describe('findings that fail the run whatever the criteria say', () => {
    const holds = [criterion('pass_rate', 95, true)];
    const finding = (error_type: ErrorType, severity: Severity) => ({ error_type, severity });

    it('fails a run with a CRITICAL finding of any type, counting each kind', () => {
      expect(decideRunStatus([], holds).status).toBe('PASSED');
      expect(
        decideRunStatus([], holds, [
          finding('MODEL_MISMATCH', 'CRITICAL'),
          finding('STALE_CHUNKS', 'CRITICAL'),
          finding('STALE_CHUNKS', 'CRITICAL'),
        ]),
      ).toEqual({
        status: 'FAILED',
        statusReason: 'findings that fail the run: CRITICAL MODEL_MISMATCH, 2 × CRITICAL STALE_CHUNKS',
      });
    });

    it('lists the findings that fail the run worst first, whatever order they came in', () => {
      expect(
        decideRunStatus([], holds, [
          finding('UNSUPPORTED_CLAIM', 'HIGH'),
          finding('MODEL_MISMATCH', 'CRITICAL'),
          finding('UNSUPPORTED_CLAIM', 'HIGH'),
          finding('EMBEDDING_DRIFT', 'CRITICAL'),
        ]).statusReason,
      ).toBe(
        'findings that fail the run: CRITICAL MODEL_MISMATCH, CRITICAL EMBEDDING_DRIFT, 2 × HIGH UNSUPPORTED_CLAIM',
      );
    });

    it('fails a run with a HIGH unsupported claim or broken grounding, not with another HIGH finding', () => {
      expect(decideRunStatus([], holds, [finding('UNSUPPORTED_CLAIM', 'HIGH')]).status).toBe('FAILED');
      expect(decideRunStatus([], holds, [finding('GROUNDING_FAILED', 'HIGH')]).status).toBe('FAILED');
      expect(decideRunStatus([], holds, [finding('STALE_CHUNKS', 'HIGH')]).status).toBe('PASSED');
      expect(decideRunStatus([], holds, [finding('UNSUPPORTED_CLAIM', 'MEDIUM')]).status).toBe('PASSED');
    });

    it('leaves a breached criterion’s own finding to the criterion, and names both reasons when both hold', () => {
      expect(decideRunStatus([], holds, [finding('CRITERION_BREACHED', 'CRITICAL')]).status).toBe('PASSED');
      expect(
        decideRunStatus([], [criterion('pass_rate', 80, false)], [finding('UNSUPPORTED_CLAIM', 'HIGH')]).statusReason,
      ).toBe('1 of 1 success criteria breached: pass_rate 80 < 90; findings that fail the run: HIGH UNSUPPORTED_CLAIM');
    });

    it('still says ERROR first when a stage failed', () => {
      expect(decideRunStatus(['queries: timeout'], holds, [finding('MODEL_MISMATCH', 'CRITICAL')]).status).toBe(
        'ERROR',
      );
    });
  });
});
