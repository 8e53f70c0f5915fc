/** Which queries a run is compared on: flaky, new and shared ones, and run figures recomputed over the shared. */
import { describe, expect, it } from 'vitest';
import { addedQueries, flakyQueries, onQueries, sharedQueries } from '../../../functions/core/regression/comparable.ts';
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
