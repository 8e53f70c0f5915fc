/** Which known items calibrate sets aside: those whose page is not in their top k, unless too many are. */
import { describe, expect, it } from 'vitest';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import {
  MAX_SHARE,
  proposeSetAside,
  recheckSetAside,
  withoutSetAside,
} from '../../../functions/core/suite/set-aside.ts';

interface Row {
  id: string;
  status?: 'PASS' | 'FAIL' | 'ERROR';
  /** Relevance of each result, best first. */
  hits?: boolean[];
  probe?: boolean;
  judged?: boolean;
  expectedSources?: [found: number, total: number];
  topK?: number;
}

function reportOf(rows: Row[]): ValidationReport {
  return {
    query_results: rows.map((r) => ({
      id: r.id,
      status: r.status ?? 'FAIL',
      query: { top_k: r.topK ?? 3, ...(r.probe ? { expect_match: false } : {}) },
      metrics: r.judged === false ? null : { k: r.topK ?? 3 },
      expected_sources_found: r.expectedSources?.[0] ?? 0,
      total_expected_sources: r.expectedSources?.[1] ?? 0,
      top_results: (r.hits ?? [false, false, false]).map((relevance, i) => ({
        rank: i + 1,
        chunk_id: `c${i}`,
        source_url: i === 0 ? 'https://book.example/docs/other' : null,
        similarity_score: 0.61234 - i * 0.1,
        relevance,
      })),
    })),
  } as unknown as ValidationReport;
}

const passing = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ id: `ok${i}`, status: 'PASS' }));

describe('proposeSetAside', () => {
  it('sets aside a failing known item none of whose top k results is judged relevant, with the reason', () => {
    const p = proposeSetAside(reportOf([...passing(9), { id: 'miss' }]));
    expect(p).toEqual({
      queries: [
        {
          id: 'miss',
          reason:
            'calibrate: its page was not in its top 3 (rank 1 was https://book.example/docs/other at 0.6123); a question no threshold can pass. Fix or reword it, then delete this field',
        },
      ],
      refused: null,
    });
  });

  it('keeps a failing query whose page is in its top k (it fails for another reason a threshold can fix)', () => {
    const p = proposeSetAside(reportOf([...passing(9), { id: 'low', hits: [false, false, true] }]));
    expect(p.queries).toEqual([]);
  });

  it('looks only at the top k: a relevant result deeper (a benchmark cut-off) does not count', () => {
    const p = proposeSetAside(reportOf([...passing(9), { id: 'deep', topK: 2, hits: [false, false, true] }]));
    expect(p.queries.map((q) => q.id)).toEqual(['deep']);
  });

  it('keeps a query that found one of its expected_sources, or has no judgment at all', () => {
    const p = proposeSetAside(
      reportOf([
        ...passing(8),
        { id: 'source', judged: false, expectedSources: [1, 2] },
        { id: 'unjudged', judged: false },
      ]),
    );
    expect(p.queries).toEqual([]);
  });

  it('sets aside a query judged by expected_sources alone that found none of them', () => {
    const p = proposeSetAside(reportOf([...passing(9), { id: 'src', judged: false, expectedSources: [0, 1] }]));
    expect(p.queries.map((q) => q.id)).toEqual(['src']);
  });

  it('never sets aside a passing query, a probe or a query in ERROR', () => {
    const p = proposeSetAside(
      reportOf([
        ...passing(6),
        { id: 'pass', status: 'PASS' },
        { id: 'probe', probe: true },
        { id: 'error', status: 'ERROR' },
      ]),
    );
    expect(p).toEqual({ queries: [], refused: null });
  });

  it('says when nothing came back at all', () => {
    const p = proposeSetAside(reportOf([...passing(9), { id: 'empty', hits: [] }]));
    expect(p.queries[0]?.reason).toContain('(nothing came back)');
  });

  it(`sets aside up to ${MAX_SHARE * 100} % of the known items that ran, and nothing over it, saying why`, () => {
    // 2 of 10 is exactly the share: set aside. 3 of 10 is over it: refused. Probes and errors are not counted.
    const at = proposeSetAside(
      reportOf([...passing(8), { id: 'm1' }, { id: 'm2' }, { id: 'p', probe: true }, { id: 'e', status: 'ERROR' }]),
    );
    expect(at).toMatchObject({ queries: [{ id: 'm1' }, { id: 'm2' }], refused: null });
    const over = proposeSetAside(reportOf([...passing(7), { id: 'm1' }, { id: 'm2' }, { id: 'm3' }]));
    expect(over.queries).toEqual([]);
    expect(over.refused).toBe(
      '3 of 10 known items (30 %, over 20 %) do not find their page in their top k: that is the index or the suite, not a few questions; nothing set aside (m1, m2, m3)',
    );
  });

  it('leaves queries in ERROR out of the share: 2 misses of 9 known items that ran is over it', () => {
    const p = proposeSetAside(reportOf([...passing(7), { id: 'm1' }, { id: 'm2' }, { id: 'e', status: 'ERROR' }]));
    expect(p.queries).toEqual([]);
    expect(p.refused).toMatch(/^2 of 9 known items \(22 %, over 20 %\)/);
  });

  it('names at most five of the misses when it refuses, and says "..." only when there are more', () => {
    const misses = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `m${i}` }));
    expect(proposeSetAside(reportOf(misses(6))).refused).toContain('nothing set aside (m0, m1, m2, m3, m4, ...)');
    expect(proposeSetAside(reportOf(misses(5))).refused).toContain('nothing set aside (m0, m1, m2, m3, m4)');
  });

  it('takes the top k from the results when the resolved query does not say it', () => {
    const report = reportOf([...passing(9), { id: 'no-k' }]);
    const row = report.query_results.at(-1);
    if (row) row.query = {};
    expect(proposeSetAside(report).queries[0]?.reason).toContain('its page was not in its top 3 (');
  });
});

describe('withoutSetAside', () => {
  it('removes every set_aside mark and names the queries that had one, by id or position', () => {
    const raw = {
      name: 'book',
      queries: [
        { id: 'a', query_text: 'A?' },
        { query_text: 'B?', set_aside: 'calibrate: not in its top 5' },
        { id: 'c', query_text: 'C?', set_aside: 'by hand' },
      ],
    };
    expect(withoutSetAside(raw)).toEqual({
      raw: {
        name: 'book',
        queries: [{ id: 'a', query_text: 'A?' }, { query_text: 'B?' }, { id: 'c', query_text: 'C?' }],
      },
      setAside: [
        { id: 'q2', reason: 'calibrate: not in its top 5' },
        { id: 'c', reason: 'by hand' },
      ],
    });
    // The file as read is left as it was.
    expect(raw.queries[1]).toHaveProperty('set_aside');
  });

  it('leaves a suite without queries, or with entries that are not objects, to the suite’s own validation', () => {
    expect(withoutSetAside({ queries: 'none' })).toEqual({ raw: { queries: 'none' }, setAside: [] });
    expect(withoutSetAside({ queries: [null, 3] })).toEqual({ raw: { queries: [null, 3] }, setAside: [] });
  });
});

describe('recheckSetAside', () => {
  const previous = [
    { id: 'fixed', reason: 'r1' },
    { id: 'still', reason: 'r2' },
    { id: 'low', reason: 'r3' },
    { id: 'errored', reason: 'r4' },
    { id: 'gone', reason: 'r5' },
  ];
  it('brings back a query whose page is in its top k again (passing, or failing on its threshold)', () => {
    const report = reportOf([
      { id: 'fixed', status: 'PASS', hits: [true, false, false] },
      { id: 'still' },
      { id: 'low', hits: [false, true, false] },
      { id: 'errored', status: 'ERROR' },
    ]);
    expect(recheckSetAside(previous, report)).toEqual({
      back: ['fixed', 'low'],
      // Still missing its page, not judged (ERROR), or not in the report: the mark stays, with its reason.
      kept: [
        { id: 'still', reason: 'r2' },
        { id: 'errored', reason: 'r4' },
        { id: 'gone', reason: 'r5' },
      ],
    });
  });

  it('has nothing to say of a file that set nothing aside', () => {
    expect(recheckSetAside([], reportOf([{ id: 'x' }]))).toEqual({ back: [], kept: [] });
  });
});
