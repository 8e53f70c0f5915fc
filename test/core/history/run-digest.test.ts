import { describe, expect, it } from 'vitest';
import { digestReport } from '../../../functions/core/history/run-digest.ts';
import { asSchemaVersion1 } from '../../helpers/schema-v1-report.ts';
import { buildErrorReport, buildFailedReport, buildPassedReport } from '../../nightly/fixtures/reports.ts';

describe('digestReport', () => {
  it('keeps the figures, per-query outcomes and coverage gaps of a report', () => {
    const report = buildFailedReport();
    const digest = digestReport(report, 's3://b/k.json');
    expect(digest).toMatchObject({
      runId: report.run_id,
      status: 'FAILED',
      startedAt: report.timestamp,
      collection: 'book',
      environment: 'prod',
      location: 's3://b/k.json',
      embeddingModel: 'embed-english-v3.0',
      coverage: { missing: report.coverage_report?.missing_urls, orphans: report.coverage_report?.extra_urls },
    });
    expect(digest?.metrics).toMatchObject({ pass_rate: report.pass_rate, mrr: 0.8, p95_latency_ms: 60 });
    expect(Object.keys(digest?.queries ?? {})).toEqual(report.query_results.map((q) => q.id));
  });

  it('marks a stored list cut at its first URLs: nothing is known past its last URL', () => {
    const report = buildFailedReport();
    if (report.coverage_report === null) throw new Error('fixture has coverage');
    report.coverage_report = {
      ...report.coverage_report,
      missing_urls: ['https://b/docs/a', 'https://b/docs/b'],
      missing_count: 5_000,
      extra_urls: ['https://b/docs/o'],
      extra_count: 1,
    };
    expect(digestReport(report, 'k')?.coverage).toEqual({
      missing: ['https://b/docs/a', 'https://b/docs/b'],
      missingUpTo: 'https://b/docs/b',
      orphans: ['https://b/docs/o'],
    });
  });

  it('finds the rank of each expected source and relevant URL in the top results', () => {
    const report = buildPassedReport();
    const first = report.query_results[0];
    if (!first) throw new Error('fixture has queries');
    first.query = { id: first.id, expected_sources: ['ch1-basics'], relevant: [{ url: '/docs/intro', grade: 3 }] };
    const hit = (rank: number, url: string) => ({
      rank,
      chunk_id: `c${rank}`,
      chunk_text: 't',
      similarity_score: 0.9,
      source_url: url,
      chapter_id: null,
      module_name: null,
      heading_hierarchy: null,
      token_count: null,
      chunk_index: null,
      raw_score: 0.9,
      confidence_score: 1,
      timestamp: null,
      model_version: null,
      payload_issues: [],
      relevance: true,
      relevance_grade: 1,
    });
    first.top_results = [hit(1, 'https://b/docs/other'), hit(2, 'https://b/docs/m1/ch1-basics')];
    expect(digestReport(report, 'x')?.queries[first.id]?.expectedRanks).toEqual({
      'ch1-basics': 2,
      '/docs/intro': null,
    });
  });

  it('reads relevant URLs in the resolved shape { kind: url, target } and leaves chunk ids out', () => {
    const report = buildPassedReport();
    const first = report.query_results[0];
    if (!first) throw new Error('fixture has queries');
    first.query = {
      id: first.id,
      relevant: [
        { kind: 'url', target: '/docs/intro', grade: 3 },
        { kind: 'chunk_id', target: 'c-9', grade: 1 },
      ],
    };
    expect(Object.keys(digestReport(report, 'x')?.queries[first.id]?.expectedRanks ?? {})).toEqual(['/docs/intro']);
  });

  it('does not count the pass rate of an ERROR run that judged no query', () => {
    const report = { ...buildErrorReport(), total_queries: 0, pass_rate: 0, query_results: [] };
    expect(digestReport(report, 'x')?.metrics.pass_rate).toBeUndefined();
  });

  it('reads a report stored under schema_version 1 (the names before the renames) as the same run in version 2', () => {
    // Prepare: the same run with a stage version 1 spelt with a space, stored as version 1 wrote it
    const report = buildFailedReport();
    report.execution.stages.exact_search = { status: 'ok', duration_ms: 12 };
    const stored = asSchemaVersion1(report);

    // Act
    const digest = digestReport(stored, 'k');

    // Assess: the old report is history like a new one, figure for figure
    expect(stored).toMatchObject({ schema_version: '1', execution: { stages: { 'exact search': {} } } });
    expect(digest).toEqual(digestReport(report, 'k'));
    expect(digest?.metrics.pass_rate).toBe(report.pass_rate);
  });

  it('reads an older report with fields missing', () => {
    const digest = digestReport({ run_id: 'r', status: 'PASSED', timestamp: '2026-01-01T00:00:00.000Z' }, 'x');
    expect(digest).toEqual({
      runId: 'r',
      status: 'PASSED',
      startedAt: '2026-01-01T00:00:00.000Z',
      collection: '',
      environment: '',
      location: 'x',
      metrics: {},
      queries: {},
      coverage: null,
      embeddingModel: null,
      regressed: false,
    });
  });

  it('marks a run regressed when its regression section held a finding that alerts ops, and only then', () => {
    const withFindings = (...findings: Record<string, unknown>[]) =>
      digestReport({ run_id: 'r', status: 'PASSED', timestamp: 't', regression: { findings } }, 'x')?.regressed;
    const ops = { addressed_to: 'operations' };
    expect(withFindings({ ...ops, kind: 'QUERY_REGRESSED' })).toBe(true);
    expect(withFindings({ ...ops, kind: 'METRIC_DROPPED', metric: 'mrr' })).toBe(true);
    expect(withFindings({ ...ops, kind: 'FLAKY' })).toBe(false);
    expect(withFindings({ ...ops, kind: 'METRIC_DROPPED', metric: 'p95_latency_ms' })).toBe(false);
    expect(withFindings({ kind: 'NEW_QUERY_FAILING', addressed_to: 'suite maintainer' })).toBe(false);
    expect(withFindings()).toBe(false);
  });

  it('hashes a query’s definition whatever its key order, differently once edited, and keeps its IR figures', () => {
    const digestOf = (query: Record<string, unknown>, metrics: unknown = null) =>
      digestReport(
        { run_id: 'r', status: 'PASSED', timestamp: 't', query_results: [{ id: 'q', status: 'PASS', query, metrics }] },
        'x',
      )?.queries.q;
    const a = digestOf({ query_text: 'x', relevant: [{ url: '/a' }] });
    const b = digestOf({ relevant: [{ url: '/a' }], query_text: 'x' });
    const edited = digestOf({ query_text: 'x', relevant: [{ url: '/b' }] });
    expect(a?.hash).toMatch(/^[0-9a-f]{8}$/);
    expect(b?.hash).toBe(a?.hash);
    expect(edited?.hash).not.toBe(a?.hash);
    expect(digestOf({}, { reciprocal_rank: 0.5, ndcg_at_k: 0.4, hit: true })?.ir).toEqual({
      rr: 0.5,
      ndcg: 0.4,
      hit: true,
    });
    expect(digestOf({}, { reciprocal_rank: 0.5, ndcg_at_k: 0.4 })?.ir).toBeNull();
  });

  it('is null for JSON that is not a report', () => {
    expect(digestReport({ run_id: 'r', status: 'MAYBE', timestamp: 't' }, 'x')).toBeNull();
    expect(digestReport([1, 2], 'x')).toBeNull();
  });

  it('keeps an ERROR run, with its status', () => {
    expect(digestReport(buildErrorReport(), 'x')?.status).toBe('ERROR');
  });

  it('is null without a run id or a start time, or for something that is not an object', () => {
    const { run_id, ...noId } = buildPassedReport();
    const { timestamp, ...noStart } = buildPassedReport();
    expect(run_id).toBeTruthy();
    expect(timestamp).toBeTruthy();
    expect(digestReport(noId, 'x')).toBeNull();
    expect(digestReport(noStart, 'x')).toBeNull();
    expect(digestReport(null, 'x')).toBeNull();
    expect(digestReport('a report', 'x')).toBeNull();
  });

  it('keeps only finite numbers as figures, and no pass rate from validation_metrics', () => {
    const digest = digestReport(
      {
        run_id: 'r',
        status: 'PASSED',
        timestamp: 't',
        total_queries: 0,
        pass_rate: 100,
        validation_metrics: {
          pass_rate: 50,
          mrr: '0.8',
          ndcg_at_k: Number.NaN,
          hit_rate: Infinity,
          avg_similarity: 0.7,
        },
      },
      'x',
    );
    expect(digest?.metrics).toEqual({ avg_similarity: 0.7 });
    expect(digest?.metrics).not.toHaveProperty('pass_rate');
    expect(digest?.metrics).not.toHaveProperty('mrr');
    const noPassRate = digestReport({ run_id: 'r', status: 'PASSED', timestamp: 't', total_queries: 3 }, 'x');
    expect(noPassRate?.metrics).not.toHaveProperty('pass_rate');
  });

  it('skips query results it cannot read, and keeps ERROR queries', () => {
    const digest = digestReport(
      {
        run_id: 'r',
        status: 'FAILED',
        timestamp: 't',
        query_results: [
          null,
          { status: 'PASS' },
          { id: 'maybe', status: 'MAYBE' },
          { id: 'e', status: 'ERROR', best_similarity: null },
          { id: 'ok', status: 'PASS', best_similarity: 0.7, query: 'not an object', top_results: [null] },
        ],
      },
      'x',
    );
    expect(digest?.queries).toEqual({
      e: { status: 'ERROR', bestSimilarity: null, expectedRanks: {}, hash: null, ir: null },
      ok: { status: 'PASS', bestSimilarity: 0.7, expectedRanks: {}, hash: null, ir: null },
    });
  });

  it('reads expectations leniently: odd relevant entries skipped, a non-string target read as a suite file’s url, a hit without a URL not matching', () => {
    const digest = digestReport(
      {
        run_id: 'r',
        status: 'PASSED',
        timestamp: 't',
        query_results: [
          {
            id: 'q',
            status: 'PASS',
            query: {
              expected_sources: ['/docs/a', 7],
              relevant: [null, 'x', { kind: 'url', target: 5, url: '/docs/b' }, { kind: 'chunk', target: 'c1' }],
            },
            top_results: [null, { rank: 1, source_url: 42 }, { rank: 2, source_url: 'https://b/docs/b' }],
          },
        ],
        coverage_report: { missing_urls: ['https://b/docs/c', 3], extra_urls: 'none' },
      },
      'x',
    );
    expect(digest?.queries.q?.expectedRanks).toEqual({ '/docs/a': null, '/docs/b': 2 });
    expect(digest?.coverage).toEqual({ missing: ['https://b/docs/c'], orphans: [] });
  });
});
