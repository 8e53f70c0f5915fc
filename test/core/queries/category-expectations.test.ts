import { describe, expect, it } from 'vitest';
import { buildValidationMetrics, categoryErrors } from '../../../functions/core/queries/aggregate-metrics.ts';
import type { QueryValidationResult } from '../../../functions/core/report/query-validation.ts';
import { QueryCategory } from '../../../functions/core/suite/suite.ts';

const RUN_ID = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
// Only the fields the aggregation reads.
const query = (category: string, passed: boolean, alignment: number | null) =>
  ({
    query_category: category,
    passed,
    status: passed ? 'PASS' : 'FAIL',
    semantic_alignment_score: alignment,
    best_similarity: 0.5,
    metrics: null,
    latency: { embedding_ms: 1, search_ms: 1, post_processing_ms: 0, total_ms: 2 },
  }) as QueryValidationResult;

function metricsFor(results: QueryValidationResult[], categories: Record<string, unknown>) {
  return buildValidationMetrics({
    runId: RUN_ID,
    timestamp: '2026-11-23T02:00:00.000Z',
    results,
    queryStageMs: 100,
    categories: Object.fromEntries(Object.entries(categories).map(([k, v]) => [k, QueryCategory.parse(v)])),
  });
}

describe('per-category figures against the suite’s QueryCategory expectations (seed 000)', () => {
  it('meets an expected pass rate that the category reaches exactly', () => {
    // Act
    const metrics = metricsFor([query('keyword', true, 1), query('keyword', false, 0)], {
      keyword: { description: 'Exact terms', expected_results: { min_pass_rate: 50 } },
    });

    // Assess
    expect(metrics.by_category.keyword).toEqual({
      total: 2,
      passed: 1,
      pass_rate: 50,
      mean_semantic_alignment: 0.5,
      description: 'Exact terms',
      expected_results: { min_pass_rate: 50 },
      expected_met: true,
    });
  });

  it('misses an expected mean alignment just above the category’s, and says so as a finding', () => {
    // Act
    const metrics = metricsFor([query('semantic', true, 0.6), query('semantic', true, 0.5)], {
      semantic: { expected_results: { min_semantic_alignment: 0.5501 } },
    });

    // Assess
    expect(metrics.by_category.semantic).toMatchObject({ mean_semantic_alignment: 0.55, expected_met: false });
    expect(categoryErrors(metrics, RUN_ID, () => 'e1')).toMatchObject([
      { error_type: 'CATEGORY_EXPECTATION_MISSED', severity: 'MEDIUM', details: { category: 'semantic' } },
    ]);
  });

  it('leaves a category without expectations unjudged', () => {
    // Act
    const metrics = metricsFor([query('other', false, 0)], {});

    // Assess
    expect(metrics.by_category.other).toMatchObject({ description: null, expected_results: null, expected_met: null });
    expect(categoryErrors(metrics, RUN_ID, () => 'e1')).toEqual([]);
  });

  it('misses an expected pass rate just above the category’s, and meets an alignment the category reaches exactly', () => {
    // Act: 1 of 2 passes (50 %), mean alignment 0.55
    const metrics = metricsFor([query('keyword', true, 0.6), query('keyword', false, 0.5)], {
      keyword: { expected_results: { min_pass_rate: 50.01 } },
      semantic: { expected_results: { min_semantic_alignment: 0.55 } },
    });
    const semantic = metricsFor([query('semantic', true, 0.6), query('semantic', true, 0.5)], {
      semantic: { expected_results: { min_semantic_alignment: 0.55 } },
    });

    // Assess
    expect(metrics.by_category.keyword?.expected_met).toBe(false);
    expect(semantic.by_category.semantic?.expected_met).toBe(true);
  });

  it('misses the expectations when one of two is met, and an alignment expected of a category with no alignment', () => {
    // Act: the pass rate is met (100 % >= 50), the alignment is not (0.4 < 0.5); the second category has none.
    const metrics = metricsFor([query('keyword', true, 0.4), query('refusal', true, null)], {
      keyword: { expected_results: { min_pass_rate: 50, min_semantic_alignment: 0.5 } },
      refusal: { expected_results: { min_semantic_alignment: 0.1 } },
    });

    // Assess
    expect(metrics.by_category.keyword?.expected_met).toBe(false);
    expect(metrics.by_category.refusal).toMatchObject({ mean_semantic_alignment: null, expected_met: false });
    let n = 0;
    expect(categoryErrors(metrics, RUN_ID, () => `e${++n}`)).toEqual([
      {
        id: 'e1',
        validation_id: RUN_ID,
        error_type: 'CATEGORY_EXPECTATION_MISSED',
        severity: 'MEDIUM',
        message:
          'Category \'keyword\' misses its expected results: pass rate 100%, mean semantic alignment 0.4 (expected {"min_pass_rate":50,"min_semantic_alignment":0.5})',
        details: {
          category: 'keyword',
          pass_rate: 100,
          mean_semantic_alignment: 0.4,
          expected_results: { min_pass_rate: 50, min_semantic_alignment: 0.5 },
        },
      },
      {
        id: 'e2',
        validation_id: RUN_ID,
        error_type: 'CATEGORY_EXPECTATION_MISSED',
        severity: 'MEDIUM',
        message:
          'Category \'refusal\' misses its expected results: pass rate 100%, mean semantic alignment n/a (expected {"min_semantic_alignment":0.1})',
        details: {
          category: 'refusal',
          pass_rate: 100,
          mean_semantic_alignment: null,
          expected_results: { min_semantic_alignment: 0.1 },
        },
      },
    ]);
  });

  it('does not meet even an expected alignment of 0 when no query of the category has an alignment', () => {
    const metrics = metricsFor([query('refusal', true, null)], {
      refusal: { expected_results: { min_semantic_alignment: 0 } },
    });
    expect(metrics.by_category.refusal).toMatchObject({ mean_semantic_alignment: null, expected_met: false });
  });
});
