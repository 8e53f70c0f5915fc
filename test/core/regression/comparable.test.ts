/** Which queries a run is compared on: flaky, new and shared ones, and run figures recomputed over the shared. */
import { describe, expect, it } from 'vitest';
import {
  addedQueries,
  flakyQueries,
  medianBestSimilarities,
  onQueries,
  sameQuery,
  sharedQueries,
  similarityFlakyQueries,
} from '../../../functions/core/regression/comparable.ts';
import { buildDigest, query } from '../history/digests.ts';

/** History newest first: q1's statuses in that order. */
const historyOf = (...statuses: ('PASS' | 'FAIL')[]) =>
  statuses.map((status, i) => buildDigest(20 - i, { queries: { q1: query({ status }) } }));

describe('flakyQueries', () => {
  it('calls a query flaky after two flips within its last 7 runs and now, not after one', () => {
    const now = buildDigest(21, { queries: { q1: query({ status: 'FAIL' }) } });
    expect(flakyQueries(now, historyOf('PASS', 'FAIL', 'PASS', 'PASS'))).toEqual(new Set(['q1']));
    // PASS -> FAIL -> FAIL: a change, not noise.
    expect(flakyQueries(now, historyOf('FAIL', 'PASS', 'PASS', 'PASS'))).toEqual(new Set());
    expect(flakyQueries(now, historyOf('PASS', 'PASS', 'PASS'))).toEqual(new Set());
  });

  it('looks no further back than 7 runs, and not across an edit of the query', () => {
    const now = buildDigest(21, { queries: { q1: query({ status: 'FAIL' }) } });
    // The 8th run back is out of the window: FAIL now, then seven passes, is one flip.
    expect(flakyQueries(now, historyOf('PASS', 'PASS', 'PASS', 'PASS', 'PASS', 'PASS', 'PASS', 'FAIL'))).toEqual(
      new Set(),
    );
    expect(flakyQueries(now, historyOf('PASS', 'PASS', 'PASS', 'PASS', 'PASS', 'FAIL', 'PASS'))).toEqual(
      new Set(['q1']),
    );
    const edited = buildDigest(21, { queries: { q1: query({ status: 'FAIL', hash: 'new' }) } });
    const before = historyOf('PASS', 'FAIL', 'PASS').map((r) => ({
      ...r,
      queries: { q1: { ...(r.queries.q1 ?? query()), hash: 'old' } },
    }));
    expect(flakyQueries(edited, before)).toEqual(new Set());
  });
});

describe('similarityFlakyQueries', () => {
  /** History newest first: q1's best similarities in that order, each run passing; `regressed` runs marked. */
  const simsOf = (sims: number[], regressed: number[] = []) =>
    sims.map((bestSimilarity, i) =>
      buildDigest(20 - i, { queries: { q1: query({ bestSimilarity }) }, regressed: regressed.includes(i) }),
    );
  const nowAt = (bestSimilarity: number) => buildDigest(21, { queries: { q1: query({ bestSimilarity }) } });

  it('calls a query flaky when its similarity fell below its band and came back twice, with its level and band', () => {
    // Usually 0.50 (band floor 0.05): 0.23 now, back at 0.50, 0.23 before: below, back, below = two flips.
    const history = simsOf([0.5, 0.23, 0.5, 0.51, 0.49, 0.5], [1]);
    expect(similarityFlakyQueries(nowAt(0.23), history)).toEqual(new Map([['q1', { level: 0.5, band: 0.05 }]]));
    // A value under the band is "below" (0.449 < 0.45); at the band's edge it is not.
    expect(similarityFlakyQueries(nowAt(0.449), simsOf([0.5, 0.449, 0.5, 0.5, 0.5]))).toEqual(
      new Map([['q1', { level: 0.5, band: 0.05 }]]),
    );
    expect(similarityFlakyQueries(nowAt(0.45), simsOf([0.5, 0.45, 0.5, 0.5, 0.5]))).toEqual(new Map());
  });

  it('does not call a fall that stays a flaky query: one flip is a change', () => {
    expect(similarityFlakyQueries(nowAt(0.3), simsOf([0.3, 0.3, 0.5, 0.5, 0.5, 0.5], [0, 1]))).toEqual(new Map());
    expect(similarityFlakyQueries(nowAt(0.5), simsOf([0.5, 0.5, 0.5, 0.5]))).toEqual(new Map());
  });

  it('counts a return only at level - band / 2 or above: noise at the edge of the band is no flip', () => {
    // Held near the edge (0.44 below, 0.46 between): below, between, below, ... never "back": one flip at most.
    const edge = simsOf([0.46, 0.44, 0.46, 0.44, 0.5, 0.5, 0.5], [0, 1, 2, 3]);
    expect(similarityFlakyQueries(nowAt(0.44), edge)).toEqual(new Map());
    // The same nights with the returns at 0.475 (= 0.5 - 0.05 / 2) are back: flaky.
    const back = simsOf([0.475, 0.44, 0.475, 0.44, 0.5, 0.5, 0.5], [1, 3]);
    expect(similarityFlakyQueries(nowAt(0.44), back).has('q1')).toBe(true);
    const justShort = simsOf([0.474, 0.44, 0.474, 0.44, 0.5, 0.5, 0.5], [1, 3]);
    expect(similarityFlakyQueries(nowAt(0.44), justShort).has('q1')).toBe(false);
  });

  it('looks back 7 judged runs, judges by runs that were not regressions, and needs 3 of them', () => {
    // The dip 8 runs back is out of the window: below now, then seven at the level, is one flip.
    expect(similarityFlakyQueries(nowAt(0.23), simsOf([0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.23]))).toEqual(new Map());
    expect(similarityFlakyQueries(nowAt(0.23), simsOf([0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.23]))).toEqual(
      new Map([['q1', { level: 0.5, band: 0.05 }]]),
    );
    // Only two usual runs: no level to judge by.
    expect(similarityFlakyQueries(nowAt(0.23), simsOf([0.5, 0.23, 0.5, 0.23], [1, 3]))).toEqual(new Map());
    // The level is the usual runs' (not regressed): with the low nights marked regressions it stays 0.5.
    const mostlyLow = simsOf([0.5, 0.23, 0.23, 0.5, 0.23, 0.5, 0.5], [1, 2, 4]);
    expect(similarityFlakyQueries(nowAt(0.23), mostlyLow).get('q1')).toEqual({ level: 0.5, band: 0.05 });
  });

  it('judges by the last 7 usual runs only, and by as few as 3', () => {
    // Seven usual runs at 0.5 and, older, nine at 0.2 (their median would be 0.2): the level is 0.5, band 0.05.
    const long = simsOf([0.5, 0.44, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, ...Array<number>(9).fill(0.2)], [1]);
    expect(similarityFlakyQueries(nowAt(0.44), long).get('q1')).toEqual({ level: 0.5, band: 0.05 });
    // Exactly three usual runs are enough.
    expect(similarityFlakyQueries(nowAt(0.23), simsOf([0.5, 0.23, 0.5, 0.5], [1])).has('q1')).toBe(true);
  });

  it('skips a query in ERROR or without a similarity now, ERROR runs, and runs of another version of it', () => {
    const history = simsOf([0.5, 0.23, 0.5, 0.5, 0.5]);
    expect(
      similarityFlakyQueries(
        buildDigest(21, { queries: { q1: query({ status: 'ERROR', bestSimilarity: 0.23 }) } }),
        history,
      ),
    ).toEqual(new Map());
    expect(
      similarityFlakyQueries(buildDigest(21, { queries: { q1: query({ bestSimilarity: null }) } }), history),
    ).toEqual(new Map());
    const withErrors = history.map((r, i) => (i === 1 ? { ...r, status: 'ERROR' as const } : r));
    expect(similarityFlakyQueries(nowAt(0.23), withErrors)).toEqual(new Map());
    // The query in ERROR in a run that completed: that run's similarity is not read either.
    const queryError = history.map((r, i) =>
      i === 1 ? { ...r, queries: { q1: query({ status: 'ERROR', bestSimilarity: 0.23 }) } } : r,
    );
    expect(similarityFlakyQueries(nowAt(0.23), queryError)).toEqual(new Map());
    expect(similarityFlakyQueries(nowAt(0.23), history).has('q1')).toBe(true);
    const edited = buildDigest(21, { queries: { q1: query({ bestSimilarity: 0.23, hash: 'new' }) } });
    const before = history.map((r) => ({ ...r, queries: { q1: { ...(r.queries.q1 ?? query()), hash: 'old' } } }));
    expect(similarityFlakyQueries(edited, before)).toEqual(new Map());
  });
});

describe('addedQueries and sharedQueries', () => {
  const now = buildDigest(9, { queries: { q1: query({ hash: 'a' }), q2: query({ hash: 'b' }), q3: query() } });

  it('calls a query new when a healthy run lacked it or held another version of it', () => {
    const history = [
      buildDigest(8, { queries: { q1: query({ hash: 'a' }), q2: query({ hash: 'old' }), q3: query() } }),
      buildDigest(7, { queries: { q1: query({ hash: 'a' }), q2: query({ hash: 'b' }) } }),
      buildDigest(6, { status: 'ERROR', queries: {} }),
    ];
    expect(addedQueries(now, history)).toEqual(new Set(['q2', 'q3']));
    expect(sharedQueries(now, history.slice(0, 2), new Set())).toEqual(new Set(['q1']));
    expect(sharedQueries(now, history.slice(0, 1), new Set(['q1']))).toEqual(new Set(['q3']));
  });
});

describe('onQueries', () => {
  it('keeps the digests as they are when each holds exactly the shared queries', () => {
    const runs = [buildDigest(2), buildDigest(1)];
    expect(onQueries(runs, new Set(['q1', 'q2', 'q3']))).toEqual(runs);
  });

  it('recomputes pass rate, IR means and mean best similarity over the shared queries, for every digest', () => {
    const ir = (rr: number, hit: boolean) => ({ rr, ndcg: rr, hit });
    const run = buildDigest(3, {
      queries: {
        q1: query({ status: 'PASS', bestSimilarity: 0.6, ir: ir(1, true) }),
        q2: query({ status: 'FAIL', bestSimilarity: 0.3, ir: ir(0, false) }),
        q3: query({ status: 'FAIL', bestSimilarity: 0.1, ir: ir(0, false) }),
      },
    });
    const [restricted] = onQueries([run], new Set(['q1', 'q2']));
    expect(Object.keys(restricted?.queries ?? {})).toEqual(['q1', 'q2']);
    expect(restricted?.metrics).toEqual({
      pass_rate: 50,
      mrr: 0.5,
      ndcg_at_k: 0.5,
      hit_rate: 0.5,
      avg_similarity: 0.44999999999999996,
      p50_latency_ms: 40,
      p95_latency_ms: 60,
      p99_latency_ms: 70,
    });
  });
});

describe('medianBestSimilarities', () => {
  it("takes each query's median over the runs that have it, leaving out null similarities and ERROR queries", () => {
    const runs = [
      buildDigest(3, { queries: { q1: query({ bestSimilarity: 0.2 }), q2: query({ bestSimilarity: null }) } }),
      buildDigest(2, { queries: { q1: query({ bestSimilarity: 0.4 }), q2: query({ bestSimilarity: 0.7 }) } }),
      buildDigest(1, { queries: { q1: query({ bestSimilarity: 0.9, status: 'ERROR' }), q3: query() } }),
      buildDigest(0, { queries: { q1: query({ bestSimilarity: 0.3 }), q4: query({ status: 'ERROR' }) } }),
    ];
    // q1: 0.2, 0.4, 0.3 (the ERROR 0.9 left out): 0.3. q2: 0.7 alone (null left out). q3: 0.6. q4: only ERROR: none.
    expect(medianBestSimilarities(runs)).toEqual({ q1: 0.3, q2: 0.7, q3: 0.6 });
    expect(medianBestSimilarities([])).toEqual({});
  });
});

describe('onQueries: figures a digest cannot have', () => {
  it('keeps the latencies it has and leaves out the figures no shared query carries', () => {
    const run = buildDigest(3, {
      metrics: { p95_latency_ms: 60 },
      queries: {
        q1: query({ status: 'FAIL', bestSimilarity: null, ir: null }),
        q9: query({ bestSimilarity: 0.8, ir: { rr: 1, ndcg: 1, hit: true } }),
      },
    });
    const [restricted] = onQueries([run], new Set(['q1']));
    // No IR figures and no similarity on q1: no MRR, nDCG, hit rate or mean similarity; latency as it was.
    expect(restricted?.metrics).toEqual({ pass_rate: 0, p95_latency_ms: 60 });
    const [none] = onQueries([run], new Set(['q5']));
    expect(none?.metrics).toEqual({ p95_latency_ms: 60 });
    expect(none?.queries).toEqual({});
  });

  it('recomputes every digest when one of them holds other queries than the shared ones', () => {
    const exact = buildDigest(2, { queries: { q1: query({ status: 'FAIL' }) }, metrics: { pass_rate: 42 } });
    const more = buildDigest(1, { queries: { q1: query({ status: 'FAIL' }), q2: query() } });
    const [first, second] = onQueries([exact, more], new Set(['q1']));
    // The first holds exactly q1, but its figures are recomputed by the same rule as the second's.
    expect(first?.metrics.pass_rate).toBe(0);
    expect(second?.metrics.pass_rate).toBe(0);
    // A digest with the same number of queries but another one is not "the same" either.
    const [swapped] = onQueries([buildDigest(0, { queries: { q2: query() }, metrics: {} })], new Set(['q1']));
    expect(swapped?.queries).toEqual({});
  });
});

describe('sameQuery', () => {
  it('trusts a digest without a hash on either side, and otherwise needs the same hash', () => {
    expect(sameQuery(query({ hash: null }), query({ hash: 'a' }))).toBe(true);
    expect(sameQuery(query({ hash: 'a' }), query({ hash: null }))).toBe(true);
    expect(sameQuery(query({ hash: 'a' }), query({ hash: 'a' }))).toBe(true);
    expect(sameQuery(query({ hash: 'a' }), query({ hash: 'b' }))).toBe(false);
    expect(sameQuery(query({ hash: null }), undefined)).toBe(false);
  });
});

describe('flakyQueries: what counts', () => {
  const now = buildDigest(21, { queries: { q1: query({ status: 'FAIL' }) } });

  it('calls exactly two flips flaky', () => {
    // FAIL now, then PASS, PASS, FAIL: two flips.
    expect(flakyQueries(now, historyOf('PASS', 'PASS', 'FAIL'))).toEqual(new Set(['q1']));
  });

  it('skips a query in ERROR now, and leaves ERROR verdicts and runs without the query out of the sequence', () => {
    const erroring = buildDigest(21, { queries: { q1: query({ status: 'ERROR' }) } });
    expect(flakyQueries(erroring, historyOf('PASS', 'FAIL', 'PASS', 'FAIL'))).toEqual(new Set());
    // FAIL now, PASS, ERROR, PASS: with the ERROR counted, three flips; left out, one.
    const withError = historyOf('PASS', 'PASS', 'PASS').map((r, i) =>
      i === 1 ? { ...r, queries: { q1: query({ status: 'ERROR' }) } } : r,
    );
    expect(flakyQueries(now, withError)).toEqual(new Set());
    // A run without q1 in between is no verdict either.
    const without = [buildDigest(20, { queries: {} }), ...historyOf('PASS', 'PASS')];
    expect(flakyQueries(now, without)).toEqual(new Set());
  });
});

describe('similarityFlakyQueries: what counts', () => {
  it('leaves a run whose similarity is null out of the sequence (null is not "below")', () => {
    const sims = [0.5, null, 0.5, 0.5, 0.5];
    const history = sims.map((bestSimilarity, i) =>
      buildDigest(20 - i, { queries: { q1: query({ bestSimilarity }) } }),
    );
    // 0.23 now, back, (null), back, back: one flip. With null read as 0, below: two.
    expect(
      similarityFlakyQueries(buildDigest(21, { queries: { q1: query({ bestSimilarity: 0.23 }) } }), history),
    ).toEqual(new Map());
  });
});

describe('onQueries: digests that hold other queries', () => {
  it('recomputes a digest of as many queries as the shared ones but only some of them', () => {
    const run = buildDigest(1, {
      queries: { q1: query({ status: 'FAIL' }), q2: query({ status: 'PASS' }) },
      metrics: { pass_rate: 50 },
    });
    const [restricted] = onQueries([run], new Set(['q1', 'q3']));
    expect(restricted?.queries).toEqual({ q1: query({ status: 'FAIL' }) });
    expect(restricted?.metrics.pass_rate).toBe(0);
  });

  it('sets no latency it does not have', () => {
    const run = buildDigest(1, { queries: { q1: query(), q2: query() }, metrics: { p50_latency_ms: 3 } });
    const [restricted] = onQueries([run], new Set(['q1']));
    expect(Object.keys(restricted?.metrics ?? {}).sort()).toEqual(['avg_similarity', 'p50_latency_ms', 'pass_rate']);
  });
});
