/** METRIC_DROPPED and SCORE_SHIFT on their own, against hand-built baselines: each side of each band. */
import { describe, expect, it } from 'vitest';
import type { Baseline, MetricBaseline, QueryBaseline } from '../../../functions/core/history/baseline.ts';
import type { RunDigest } from '../../../functions/core/history/run-digest.ts';
import { detectMetricDrops } from '../../../functions/core/regression/metric-drops.ts';
import { detectScoreShift } from '../../../functions/core/regression/score-shift.ts';
import { finding } from '../../../functions/core/report/regression-report.ts';
import { buildDigest, query } from '../history/digests.ts';
import { buildReport } from './reports.ts';

const baselineOf = (fields: Partial<Baseline>): Baseline => ({
  runs: [],
  metrics: {},
  queries: {},
  coverage: null,
  ...fields,
});
const lower = (median: number, band: number): MetricBaseline => ({ median, band, worse: 'lower' });
const higher = (median: number, band: number): MetricBaseline => ({ median, band, worse: 'higher' });

function drops(metrics: RunDigest['metrics'], baseline: Baseline['metrics']) {
  const digest = buildDigest(9, { metrics });
  return detectMetricDrops({
    report: buildReport(),
    current: digest,
    comparable: digest,
    baseline: baselineOf({ metrics: baseline }),
    stale: new Set(),
    flaky: new Set(),
    flakySimilarity: new Map(),
    added: new Set(),
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
});

describe('detectScoreShift', () => {
  const usual = (bestSimilarity: number | null): QueryBaseline => ({
    status: 'PASS',
    bestSimilarity,
    similarityBand: 0.05,
    expectedRanks: {},
  });
  /** Query i now at now[i], its baseline at before[i]. */
  const shift = (now: (number | null)[], before: (number | null)[], embeddingModel: string | null = null) =>
    detectScoreShift({
      comparable: buildDigest(9, {
        queries: Object.fromEntries(now.map((v, i) => [`q${i}`, query({ bestSimilarity: v })])),
        embeddingModel,
      }),
      baseline: baselineOf({ queries: Object.fromEntries(before.map((v, i) => [`q${i}`, usual(v)])) }),
    });
  const twelve = (f: (i: number) => number) => Array.from({ length: 12 }, (_, i) => f(i));

  it('reports twelve queries that all fell by 0.03 against overlapping baselines, naming the model', () => {
    // Baselines spread from 0.2 to 0.53: an unpaired test sees two overlapping sets; paired, every query fell.
    const before = twelve((i) => 0.2 + i * 0.03);
    const result = shift(
      before.map((v, i) => v - 0.03 - i * 0.0001),
      before,
      'embed-v4',
    );
    expect(result.test).toMatchObject({ statistic: 0, pairs: 12, method: 'exact', p_value: 1 / 4096 });
    expect(result.test?.median_shift).toBeCloseTo(-0.03055, 6);
    expect(result.findings).toEqual([
      finding({
        kind: 'SCORE_SHIFT',
        severity: 'HIGH',
        message: `best similarities fell together against their baseline: median -0.031 over 12 queries, Wilcoxon W+=0, p=2.4e-4 (embedding model reported: embed-v4)`,
        metric: 'best_similarity_paired',
        value: result.test?.median_shift ?? 0,
        baseline: 0,
        band: 0.01,
      }),
    ]);
  });

  it('needs the median fall to reach 0.02: 0.02 is a shift, 0.0199 is not', () => {
    const before = twelve(() => 0.5);
    expect(
      shift(
        before.map((v, i) => v - 0.02 - (i % 2) * 0.001 * (i < 6 ? -1 : 1)),
        before,
      ).findings,
    ).toHaveLength(1);
    expect(
      shift(
        before.map((v) => v - 0.0199),
        before,
      ).findings,
    ).toEqual([]);
  });

  it('needs p < 0.01: a fall on 7 of 12 queries is not a shift however large', () => {
    const before = twelve(() => 0.5);
    const result = shift(
      before.map((v, i) => (i < 7 ? v - 0.2 - i * 0.001 : v + 0.01 + i * 0.001)),
      before,
    );
    expect(result.test?.median_shift).toBeLessThan(-0.02);
    expect(result.test?.p_value).toBeGreaterThanOrEqual(0.01);
    expect(result.findings).toEqual([]);
  });

  it('names no model when the run reported none, and pairs only queries with a similarity on both sides', () => {
    const before = [...twelve(() => 0.5), null, 0.5];
    const result = shift([...twelve((i) => 0.4 - i * 0.001), 0.1, null], before);
    expect(result.test?.pairs).toBe(12);
    expect(result.findings[0]?.message).not.toContain('embedding model');
  });

  it('runs no test without a pair', () => {
    expect(shift([], [])).toEqual({ test: null, findings: [] });
    expect(shift([null], [0.8])).toEqual({ test: null, findings: [] });
  });
});
