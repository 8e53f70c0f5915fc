import { describe, expect, it } from 'vitest';
import { BASELINE_RUNS, buildBaseline, MIN_BASELINE_RUNS } from '../../../functions/core/history/baseline.ts';
import { buildDigest, cleanHistory, query } from './digests.ts';

describe('buildBaseline', () => {
  it('needs at least three healthy runs', () => {
    expect(MIN_BASELINE_RUNS).toBe(3);
    expect(buildBaseline(cleanHistory(2))).toBeNull();
    expect(buildBaseline(cleanHistory(3))).not.toBeNull();
  });

  it('never counts ERROR runs', () => {
    const history = [buildDigest(5, { status: 'ERROR', metrics: {} }), ...cleanHistory(2)];
    expect(buildBaseline(history)).toBeNull();
  });

  it('uses the newest seven healthy runs and names them', () => {
    const baseline = buildBaseline(cleanHistory(10));
    expect(BASELINE_RUNS).toBe(7);
    expect(baseline?.runs.map((r) => r.runId)).toEqual(['run-9', 'run-8', 'run-7', 'run-6', 'run-5', 'run-4', 'run-3']);
  });

  it('keeps the median of a metric through three broken nights out of seven', () => {
    const broken = [0, 1, 2].map((n) => buildDigest(10 + n, { status: 'FAILED', metrics: { mrr: 0.2 } }));
    const baseline = buildBaseline([...broken, ...cleanHistory(4)]);
    // Three queries: one moving its rank moves MRR by up to 1/3, so the band's floor is 1/3, not 0.05.
    expect(baseline?.metrics.mrr).toEqual({ median: 0.8, band: 1 / 3, worse: 'lower' });
  });

  it('floors the MRR and nDCG bands at 0.05 for a suite of more than 20 queries, at 1/N below', () => {
    const many = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`q${i}`, query()]));
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`q${i}`, query()]));
    const flat = (queries: Record<string, ReturnType<typeof query>>) =>
      buildBaseline([0, 1, 2].map((n) => buildDigest(n, { queries })));
    expect(flat(many)?.metrics.ndcg_at_k?.band).toBe(0.05);
    expect(flat(twenty)?.metrics.ndcg_at_k?.band).toBe(0.05);
    expect(flat({ q1: query(), q2: query(), q3: query(), q4: query() })?.metrics.mrr?.band).toBe(0.25);
  });

  it('leaves runs that were themselves regressions out, so the baseline stays as it was before an onset', () => {
    const broken = [0, 1, 2, 3, 4].map((n) =>
      buildDigest(10 + n, { status: 'PASSED', regressed: true, metrics: { avg_similarity: 0.4 } }),
    );
    const baseline = buildBaseline([...broken, ...cleanHistory(4)]);
    expect(baseline?.metrics.avg_similarity?.median).toBe(0.6);
    expect(baseline?.runs.map((r) => r.runId)).toEqual(['run-3', 'run-2', 'run-1', 'run-0']);
  });

  it('widens a metric band to three robust sigmas of a noisy history', () => {
    const values = [0.7, 0.8, 0.9, 0.8, 0.7, 0.9, 0.8];
    const history = values.map((mrr, n) => buildDigest(n, { metrics: { mrr } }));
    // MAD is 0.1, so the band is 3 x 1.4826 x 0.1.
    expect(buildBaseline(history)?.metrics.mrr?.band).toBeCloseTo(0.44478, 5);
  });

  it("lets latency (each query's share of its batched calls) rise by three times its median before it is news", () => {
    const baseline = buildBaseline(cleanHistory(3));
    expect(baseline?.metrics.p95_latency_ms).toEqual({ median: 60, band: 180, worse: 'higher' });
    // A few milliseconds, as batch shares are: the band is 3 x 4 ms, not the 100 ms that fitted whole calls.
    const shares = buildBaseline([0, 1, 2].map((n) => buildDigest(n, { metrics: { p95_latency_ms: 4 } })));
    expect(shares?.metrics.p95_latency_ms?.band).toBe(12);
  });

  it('keeps a latency band of at least 5 ms: 3 x 1.6 ms is 4.8 ms, 3 x 1.7 ms is 5.1 ms', () => {
    const at = (ms: number) =>
      buildBaseline([0, 1, 2].map((n) => buildDigest(n, { metrics: { p50_latency_ms: ms } })))?.metrics.p50_latency_ms
        ?.band;
    expect(at(1.6)).toBe(5);
    expect(at(1.7)).toBeCloseTo(5.1, 10);
    expect(at(0)).toBe(5);
  });

  it('widens a latency band to three robust sigmas when the shares are noisier than three times their median', () => {
    // Median 10, MAD 10: 3 x 1.4826 x 10 = 44.478 > 30.
    const noisy = [0, 10, 20, 10, 0, 20, 10].map((ms, n) => buildDigest(n, { metrics: { p99_latency_ms: ms } }));
    expect(buildBaseline(noisy)?.metrics.p99_latency_ms?.band).toBeCloseTo(44.478, 3);
  });

  it('calls a query PASS when it passed in at least half of the runs that judged it', () => {
    const history = [
      buildDigest(3, { queries: { q1: query({ status: 'FAIL' }) } }),
      buildDigest(2, { queries: { q1: query({ status: 'ERROR' }) } }),
      buildDigest(1, { queries: { q1: query() } }),
      buildDigest(0, { queries: { q1: query({ status: 'FAIL' }) } }),
    ];
    expect(buildBaseline(history)?.queries.q1?.status).toBe('FAIL');
    const even = [buildDigest(2, { queries: { q1: query({ status: 'FAIL' }) } }), ...cleanHistory(1)];
    expect(buildBaseline([...even, buildDigest(-1, { queries: {} })])?.queries.q1?.status).toBe('PASS');
  });

  it('gives an expectation outside the top results in most runs a null rank', () => {
    const absent = query({ expectedRanks: { '/docs/a': null } });
    const history = [0, 1, 2].map((n) => buildDigest(n, { queries: { q1: n === 0 ? query() : absent } }));
    expect(buildBaseline(history)?.queries.q1?.expectedRanks).toEqual({ '/docs/a': null });
  });

  it('treats a URL missing in most baseline runs as a usual gap', () => {
    const history = [0, 1, 2].map((n) =>
      buildDigest(n, { coverage: { missing: n < 2 ? ['https://b/x'] : [], orphans: n === 0 ? ['https://b/o'] : [] } }),
    );
    expect(buildBaseline(history)?.coverage).toEqual({ missing: ['https://b/x'], orphans: [] });
  });

  it('lets p50 and p99 latency rise by three times their median too', () => {
    const slow = buildBaseline(
      [0, 1, 2].map((n) => buildDigest(n, { metrics: { p50_latency_ms: 300, p99_latency_ms: 900 } })),
    );
    expect(slow?.metrics.p50_latency_ms?.band).toBe(900);
    expect(slow?.metrics.p99_latency_ms?.band).toBe(2700);
  });

  it('takes a metric’s median over the runs that have it, and has no baseline for a metric none has', () => {
    const history = [
      buildDigest(2, { metrics: { mrr: 0.6 } }),
      buildDigest(1, { metrics: { mrr: 0.8 } }),
      buildDigest(0, { metrics: {} }),
    ];
    const baseline = buildBaseline(history);
    expect(baseline?.metrics.mrr?.median).toBe(0.7);
    expect(baseline?.metrics).not.toHaveProperty('ndcg_at_k');
  });

  it('judges a query only on the runs where it did not ERROR, and leaves out one that always did', () => {
    const history = [
      buildDigest(2, {
        queries: { q1: query({ status: 'ERROR', bestSimilarity: null }), q2: query({ status: 'ERROR' }) },
      }),
      buildDigest(1, {
        queries: { q1: query({ status: 'ERROR', bestSimilarity: null }), q2: query({ status: 'ERROR' }) },
      }),
      buildDigest(0, { queries: { q1: query({ bestSimilarity: 0.9 }), q2: query({ status: 'ERROR' }) } }),
    ];
    const baseline = buildBaseline(history);
    expect(baseline?.queries.q1).toMatchObject({ status: 'PASS', bestSimilarity: 0.9 });
    expect(baseline?.queries).not.toHaveProperty('q2');
  });

  it('takes a query’s median best similarity over the runs that had one, and null for a query without any', () => {
    const history = [
      buildDigest(2, { queries: { q1: query({ bestSimilarity: 0.6 }), q2: query({ bestSimilarity: null }) } }),
      buildDigest(1, { queries: { q1: query({ bestSimilarity: 0.8 }), q2: query({ bestSimilarity: null }) } }),
      buildDigest(0, { queries: { q1: query({ bestSimilarity: null }), q2: query({ bestSimilarity: null }) } }),
    ];
    const baseline = buildBaseline(history);
    expect(baseline?.queries.q1?.bestSimilarity).toBe(0.7);
    expect(baseline?.queries.q2?.bestSimilarity).toBeNull();
  });

  it('calls a gap usual only when more than half the runs with coverage had it, orphans as missing pages', () => {
    const gaps = (missing: string[], orphans: string[]) => ({ coverage: { missing, orphans } });
    const history = [
      buildDigest(3, gaps(['/half', '/most'], ['/orphan'])),
      buildDigest(2, gaps(['/half', '/most'], ['/orphan'])),
      buildDigest(1, gaps(['/most'], ['/orphan'])),
      buildDigest(0, gaps([], [])),
    ];
    expect(buildBaseline(history)?.coverage).toEqual({ missing: ['/most'], orphans: ['/orphan'] });
  });

  it('bounds the usual gaps by the smallest last URL of the runs whose stored list was cut', () => {
    const history = [
      buildDigest(2, { coverage: { missing: ['/a', '/k'], missingUpTo: '/k', orphans: [] } }),
      buildDigest(1, { coverage: { missing: ['/a', '/f'], missingUpTo: '/f', orphans: ['/o'] } }),
      buildDigest(0, { coverage: { missing: ['/a'], orphans: ['/o'] } }),
    ];
    expect(buildBaseline(history)?.coverage).toEqual({ missing: ['/a'], missingUpTo: '/f', orphans: ['/o'] });
  });

  it('has no usual gaps when no run had coverage', () => {
    expect(buildBaseline([0, 1, 2].map((n) => buildDigest(n, { coverage: null })))?.coverage).toBeNull();
  });
});
