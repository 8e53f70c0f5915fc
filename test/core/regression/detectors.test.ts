/**
 * Each regression detector on its own, against a hand-built baseline, so every threshold is pinned on both sides
 * and every finding's figures and message are checked (compare-with-history.test.ts runs them together).
 */
import { describe, expect, it } from 'vitest';
import type { Baseline, QueryBaseline } from '../../../functions/core/history/baseline.ts';
import type { RunDigest } from '../../../functions/core/history/run-digest.ts';
import { detectCoverageChanges } from '../../../functions/core/regression/coverage-changes.ts';
import type { DetectorContext } from '../../../functions/core/regression/detector.ts';
import { detectQueryRegressions, recoveredQueries } from '../../../functions/core/regression/query-regressions.ts';
import { detectRankDrops } from '../../../functions/core/regression/rank-drops.ts';
import { detectSimilarityDrops } from '../../../functions/core/regression/similarity-drops.ts';
import { finding } from '../../../functions/core/report/regression-report.ts';
import { buildDigest, query } from '../history/digests.ts';
import { buildReport } from './reports.ts';

function usual(fields: Partial<QueryBaseline> = {}): QueryBaseline {
  return { status: 'PASS', bestSimilarity: 0.6, similarityBand: 0.05, expectedRanks: { '/docs/a': 1 }, ...fields };
}

function baselineOf(fields: Partial<Baseline> = {}): Baseline {
  return { runs: [], metrics: {}, queries: { q1: usual() }, coverage: null, ...fields };
}

function context(
  current: Partial<RunDigest>,
  baseline: Partial<Baseline> = {},
  stale: string[] = [],
  sets: { flaky?: string[]; added?: string[] } = {},
): DetectorContext {
  const digest = buildDigest(9, current);
  const aside = new Set([...stale, ...(sets.flaky ?? []), ...(sets.added ?? [])]);
  return {
    report: buildReport(),
    current: digest,
    // What compare-with-history does: the queries set aside are not compared.
    comparable: {
      ...digest,
      queries: Object.fromEntries(Object.entries(digest.queries).filter(([id]) => !aside.has(id))),
    },
    baseline: baselineOf(baseline),
    stale: new Set(stale),
    flaky: new Set(sets.flaky ?? []),
    flakySimilarity: new Map(),
    added: new Set(sets.added ?? []),
  };
}

describe('detectQueryRegressions', () => {
  it('reports a query that passed in the baseline and fails now, with its id', () => {
    expect(detectQueryRegressions(context({ queries: { q1: query({ status: 'FAIL' }) } }))).toEqual([
      finding({
        kind: 'QUERY_REGRESSED',
        severity: 'MEDIUM',
        message: 'query q1 fails now; it passed in the baseline runs',
        query_id: 'q1',
      }),
    ]);
  });

  it('leaves alone a query that failed in the baseline too, one in ERROR now, one set aside as stale, and a new one', () => {
    const failing = { queries: { q1: query({ status: 'FAIL' }) } };
    expect(detectQueryRegressions(context(failing, { queries: { q1: usual({ status: 'FAIL' }) } }))).toEqual([]);
    expect(detectQueryRegressions(context({ queries: { q1: query({ status: 'ERROR' }) } }))).toEqual([]);
    expect(detectQueryRegressions(context(failing, {}, ['q1']))).toEqual([]);
    expect(detectQueryRegressions(context({ queries: { q9: query({ status: 'FAIL' }) } }))).toEqual([]);
  });

  it('lists as recovered only the queries that failed in the baseline and pass now', () => {
    const ctx = context(
      { queries: { q1: query(), q2: query(), q3: query({ status: 'FAIL' }), q4: query() } },
      { queries: { q1: usual({ status: 'FAIL' }), q2: usual(), q3: usual({ status: 'FAIL' }) } },
    );
    expect(recoveredQueries(ctx)).toEqual(['q1']);
  });
});

describe('detectRankDrops', () => {
  const at = (rank: number | null, was: number | null = 1) =>
    detectRankDrops(
      context(
        { queries: { q1: query({ expectedRanks: { '/docs/a': rank } }) } },
        { queries: { q1: usual({ expectedRanks: { '/docs/a': was } }) } },
      ),
    );

  it('reports an expectation that fell more than three places, with its ranks and band', () => {
    expect(at(6, 2)).toEqual([
      finding({
        kind: 'RANK_DROPPED',
        severity: 'LOW',
        message: 'query q1: /docs/a fell to rank 6 (usually rank 2)',
        query_id: 'q1',
        value: 6,
        baseline: 2,
        band: 3,
        urls: ['/docs/a'],
      }),
    ]);
  });

  it('lets an expectation fall exactly three places', () => {
    expect(at(5, 2)).toEqual([]);
  });

  it('reports an expectation gone from the top results', () => {
    expect(at(null, 2)).toEqual([
      expect.objectContaining({ message: 'query q1: /docs/a is out of the top results (usually rank 2)', value: null }),
    ]);
  });

  it('says nothing of an expectation usually outside the top results, or one this run does not name', () => {
    expect(at(null, null)).toEqual([]);
    const renamed = context(
      { queries: { q1: query({ expectedRanks: { '/docs/b': null } }) } },
      { queries: { q1: usual({ expectedRanks: { '/docs/a': 1 } }) } },
    );
    expect(detectRankDrops(renamed)).toEqual([]);
  });

  it('says nothing of a query in ERROR, a stale one, or one without a baseline', () => {
    const gone = { queries: { q1: query({ expectedRanks: { '/docs/a': null } }) } };
    expect(
      detectRankDrops(context({ queries: { q1: query({ status: 'ERROR', expectedRanks: { '/docs/a': null } }) } })),
    ).toEqual([]);
    expect(detectRankDrops(context(gone, {}, ['q1']))).toEqual([]);
    expect(detectRankDrops(context(gone, { queries: {} }))).toEqual([]);
  });
});

describe('detectSimilarityDrops', () => {
  const at = (now: number | null, fields: Partial<QueryBaseline> = {}, stale: string[] = []) =>
    detectSimilarityDrops(
      context({ queries: { q1: query({ bestSimilarity: now }) } }, { queries: { q1: usual(fields) } }, stale),
    );

  it('reports a best similarity under its baseline by more than its band, with the figures rounded in the message', () => {
    expect(at(0.4444, { bestSimilarity: 0.6123, similarityBand: 0.0816 })).toEqual([
      finding({
        kind: 'SIMILARITY_DROPPED',
        severity: 'LOW',
        message: 'query q1: best similarity 0.444, usually 0.612 ± 0.082',
        query_id: 'q1',
        value: 0.4444,
        baseline: 0.6123,
        band: 0.0816,
      }),
    ]);
  });

  it('leaves a best similarity exactly at the band’s edge alone', () => {
    expect(at(0.5, { bestSimilarity: 0.75, similarityBand: 0.25 })).toEqual([]);
    expect(at(0.4999, { bestSimilarity: 0.75, similarityBand: 0.25 })).toHaveLength(1);
  });

  it('says nothing without a similarity on either side, for a stale query, or without a baseline', () => {
    expect(at(null)).toEqual([]);
    expect(at(-0.5, { bestSimilarity: null })).toEqual([]);
    expect(at(0.1, {}, ['q1'])).toEqual([]);
    expect(
      detectSimilarityDrops(context({ queries: { q1: query({ bestSimilarity: 0.1 }) } }, { queries: {} })),
    ).toEqual([]);
  });
});

describe('detectSimilarityDrops on a query flaky by its similarity', () => {
  const flakyAt = (bestSimilarity: number | null, status: 'PASS' | 'FAIL' = 'PASS') =>
    detectSimilarityDrops({
      ...context({ queries: { q1: query({ bestSimilarity, status }) } }, { queries: {} }, [], { flaky: ['q1'] }),
      flakySimilarity: new Map([['q1', { level: 0.5123, band: 0.0516 }]]),
    });

  it('reports it as FLAKY (never SIMILARITY_DROPPED) when it is under its band now, with its figures', () => {
    expect(flakyAt(0.2345)).toEqual([
      finding({
        kind: 'FLAKY',
        severity: 'LOW',
        message:
          'query q1: best similarity 0.235, usually 0.512 ± 0.052; it fell below that and came back at least twice within its last 7 runs (flaky: reported, not alerted)',
        query_id: 'q1',
        value: 0.2345,
        baseline: 0.5123,
        band: 0.0516,
      }),
    ]);
  });

  it('says nothing at its band’s edge or above, without a similarity, or when it fails (query-regressions reports that)', () => {
    expect(flakyAt(0.4607)).toEqual([]);
    expect(flakyAt(0.4606)).toHaveLength(1);
    expect(flakyAt(null)).toEqual([]);
    expect(flakyAt(0.2, 'FAIL')).toEqual([]);
  });
});

describe('detectCoverageChanges', () => {
  it('reports URLs missing or orphaned now that were not usually, with counts and URLs', () => {
    const ctx = context(
      { coverage: { missing: ['/a', '/b', '/usual'], orphans: ['/old', '/usual-orphan'] } },
      { coverage: { missing: ['/usual'], orphans: ['/usual-orphan'] } },
    );
    expect(detectCoverageChanges(ctx)).toEqual([
      finding({
        kind: 'COVERAGE_NEWLY_MISSING',
        severity: 'MEDIUM',
        message: '2 sitemap URL(s) no longer (or never) indexed since the baseline',
        value: 2,
        baseline: 0,
        urls: ['/a', '/b'],
      }),
      finding({
        kind: 'COVERAGE_NEWLY_ORPHANED',
        severity: 'LOW',
        message: '1 indexed URL(s) newly absent from the sitemap (stale chunks of a removed page?)',
        value: 1,
        baseline: 0,
        urls: ['/old'],
      }),
    ]);
  });

  it('judges only the URLs a cut baseline list still names: up to its last URL, not past it', () => {
    // The baseline's stored lists were cut after /m (render/url-lists.ts); /n and /z may well be usual gaps.
    const ctx = context(
      { coverage: { missing: ['/a', '/m', '/n', '/z'], orphans: ['/o2', '/p'] } },
      { coverage: { missing: ['/a'], missingUpTo: '/m', orphans: [], orphansUpTo: '/o2' } },
    );
    expect(detectCoverageChanges(ctx).map((f) => [f.kind, f.urls])).toEqual([
      ['COVERAGE_NEWLY_MISSING', ['/m']],
      ['COVERAGE_NEWLY_ORPHANED', ['/o2']],
    ]);
  });

  it('lists the first 100 of 50,000 newly missing URLs, and counts them all', () => {
    const missing = Array.from({ length: 50_000 }, (_, i) => `/p${String(i).padStart(5, '0')}`);
    const [news] = detectCoverageChanges(
      context({ coverage: { missing, orphans: [] } }, { coverage: { missing: [], orphans: [] } }),
    );
    expect(news?.value).toBe(50_000);
    expect(news?.urls).toEqual(missing.slice(0, 100));
  });

  it('says nothing of the usual gaps, or when either side has no coverage', () => {
    const usualGaps = { coverage: { missing: ['/a'], orphans: ['/o'] } };
    expect(detectCoverageChanges(context(usualGaps, usualGaps))).toEqual([]);
    expect(detectCoverageChanges(context({ coverage: null }, usualGaps))).toEqual([]);
    expect(detectCoverageChanges(context({ coverage: { missing: ['/a'], orphans: [] } }, { coverage: null }))).toEqual(
      [],
    );
  });
});
