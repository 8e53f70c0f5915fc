/** METRIC_DROPPED and SCORE_SHIFT on their own, against hand-built baselines: each side of each band. */
import { describe, expect, it } from 'vitest';
import type { Baseline, MetricBaseline } from '../../../functions/core/history/baseline.ts';
import { digestReport, type RunDigest } from '../../../functions/core/history/run-digest.ts';
import { detectMetricDrops, figuresWithout } from '../../../functions/core/regression/metric-drops.ts';
import { detectScoreShift } from '../../../functions/core/regression/score-shift.ts';
import { finding } from '../../../functions/core/report/regression-report.ts';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import { buildDigest, query } from '../history/digests.ts';
import { buildReport } from './reports.ts';

const baselineOf = (fields: Partial<Baseline>): Baseline => ({
  runs: [],
  metrics: {},
  queries: {},
  coverage: null,
  bestSimilarities: [],
  ...fields,
});
const lower = (median: number, band: number): MetricBaseline => ({ median, band, worse: 'lower' });
const higher = (median: number, band: number): MetricBaseline => ({ median, band, worse: 'higher' });

function drops(
  metrics: RunDigest['metrics'],
  baseline: Baseline['metrics'],
  report = buildReport(),
  stale: string[] = [],
) {
  return detectMetricDrops({
    report,
    current: buildDigest(9, { metrics }),
    baseline: baselineOf({ metrics: baseline }),
    stale: new Set(stale),
  });
}

describe('detectMetricDrops', () => {
  it('reports a figure under its band as MEDIUM, with the rounded figures in the message', () => {
    expect(drops({ mrr: 0.4444 }, { mrr: lower(0.6123, 0.0816) })).toEqual([
      finding({
        kind: 'METRIC_DROPPED',
        severity: 'MEDIUM',
        message: 'MRR is 0.444, outside its usual 0.612 ± 0.082',
        metric: 'mrr',
        value: 0.4444,
        baseline: 0.6123,
        band: 0.0816,
      }),
    ]);
  });

  it('leaves a figure exactly at the lower edge of its band alone', () => {
    expect(drops({ hit_rate: 0.5 }, { hit_rate: lower(0.75, 0.25) })).toEqual([]);
    expect(drops({ hit_rate: 0.4999 }, { hit_rate: lower(0.75, 0.25) })).toHaveLength(1);
  });

  it('reports latency over its band as LOW, and leaves it exactly at the edge alone', () => {
    expect(drops({ p95_latency_ms: 200 }, { p95_latency_ms: higher(100, 100) })).toEqual([]);
    expect(drops({ p95_latency_ms: 200.5 }, { p95_latency_ms: higher(100, 100) })).toEqual([
      expect.objectContaining({
        severity: 'LOW',
        metric: 'p95_latency_ms',
        message: 'p95 latency (ms) is 200.5, outside its usual 100 ± 100',
      }),
    ]);
  });

  it('does not call a latency that fell, or a ratio that rose, a drop', () => {
    expect(drops({ p50_latency_ms: 1, mrr: 1 }, { p50_latency_ms: higher(100, 10), mrr: lower(0.5, 0.1) })).toEqual([]);
  });

  it('judges only figures present both in the run and in the baseline', () => {
    expect(drops({ mrr: 0.1 }, { ndcg_at_k: lower(0.9, 0.05) })).toEqual([]);
    expect(drops({}, { mrr: lower(0.9, 0.05) })).toEqual([]);
  });

  it('recomputes the pass rate without the stale queries', () => {
    const report = buildReport();
    const q1 = report.query_results[0];
    if (!q1) throw new Error('fixture has queries');
    q1.status = 'FAIL';
    // 9 of 10 pass (90): a drop against 100 ± 5, but not once the stale q1 is set aside.
    expect(drops({ pass_rate: 90 }, { pass_rate: lower(100, 5) }, report)).toHaveLength(1);
    expect(drops({ pass_rate: 90 }, { pass_rate: lower(100, 5) }, report, ['q1'])).toEqual([]);
  });
});

describe('figuresWithout', () => {
  const report = (): ValidationReport => buildReport();
  const digest = (r: ValidationReport) => digestReport(r, '') as RunDigest;

  it('is the run’s own figures when nothing is stale', () => {
    const r = report();
    const current = digest(r);
    expect(figuresWithout(r, current, new Set())).toBe(current.metrics);
  });

  it('takes pass rate and the IR means over the other queries', () => {
    const r = report();
    const [q1, q2] = r.query_results;
    if (!q1 || !q2) throw new Error('fixture has queries');
    q2.status = 'FAIL';
    if (q2.metrics) q2.metrics = { ...q2.metrics, reciprocal_rank: 0.5, ndcg_at_k: 0.5, hit: false };
    const figures = figuresWithout(r, digest(r), new Set([q1.id]));
    expect(figures).toMatchObject({ pass_rate: (8 / 9) * 100, mrr: 0.9444, ndcg_at_k: 0.9444, hit_rate: 0.8889 });
  });

  it('drops an IR mean no kept query was judged on, and keeps the pass rate when every query is stale', () => {
    const r = report();
    for (const q of r.query_results) q.metrics = null;
    const current = digest(r);
    const figures = figuresWithout(r, current, new Set(r.query_results.map((q) => q.id)));
    expect(figures).not.toHaveProperty('mrr');
    expect(figures).not.toHaveProperty('hit_rate');
    expect(figures.pass_rate).toBe(current.metrics.pass_rate);
  });
});

describe('detectScoreShift', () => {
  const sims = (...values: number[]) =>
    Object.fromEntries(values.map((v, i) => [`q${i}`, query({ bestSimilarity: v })]));
  const shift = (now: number[], usual: number[], embeddingModel: string | null = null) =>
    detectScoreShift({
      current: buildDigest(9, { queries: sims(...now), embeddingModel }),
      baseline: baselineOf({ bestSimilarities: usual }),
    });
  const ten = (v: number) => Array.from({ length: 10 }, () => v);

  it('reports a whole-distribution fall with its test, naming the embedding model the run reported', () => {
    const result = shift(ten(0.5), ten(0.8), 'embed-v4');
    expect(result.test).toMatchObject({ statistic: 1, sample_sizes: [10, 10] });
    expect(result.test?.median_shift).toBeCloseTo(-0.3, 10);
    expect(result.findings).toEqual([
      finding({
        kind: 'SCORE_SHIFT',
        severity: 'HIGH',
        message: `best similarities fell as a whole: median -0.3, KS D=1, p=${result.test?.p_value.toExponential(1)} (embedding model reported: embed-v4)`,
        metric: 'best_similarity_distribution',
        value: 1,
        baseline: 0.8,
        band: 0.01,
      }),
    ]);
    expect(result.test?.p_value).toBeLessThan(0.01);
  });

  it('names no model when the run reported none', () => {
    const result = shift(ten(0.5), ten(0.8));
    expect(result.findings[0]?.message).toBe(
      `best similarities fell as a whole: median -0.3, KS D=1, p=${result.test?.p_value.toExponential(1)}`,
    );
  });

  it('needs the median to fall by at least 0.05: exactly 0.05 is a shift, 0.0499 is not', () => {
    expect(shift(ten(0.1 - 0.05), ten(0.1)).findings).toHaveLength(1);
    expect(shift(ten(0.1 - 0.0499), ten(0.1)).findings).toEqual([]);
  });

  it('does not call a fall the test cannot tell from noise a shift', () => {
    const result = shift([0.5, 0.5, 0.8], [0.8, 0.8, 0.8]);
    expect(result.test?.median_shift).toBeCloseTo(-0.3, 10);
    expect(result.test?.p_value).toBeGreaterThanOrEqual(0.01);
    expect(result.findings).toEqual([]);
  });

  it('runs no test without a similarity on either side', () => {
    expect(shift([], ten(0.8))).toEqual({ test: null, findings: [] });
    expect(shift(ten(0.8), [])).toEqual({ test: null, findings: [] });
    const nulls = detectScoreShift({
      current: buildDigest(9, { queries: { q1: query({ bestSimilarity: null }) } }),
      baseline: baselineOf({ bestSimilarities: ten(0.8) }),
    });
    expect(nulls).toEqual({ test: null, findings: [] });
  });
});
