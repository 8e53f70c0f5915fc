/** The seeds' rules on a report, enforced by its schema: a report that breaks one cannot be written unnoticed. */
import { describe, expect, it } from 'vitest';
import { QueryResult, QueryValidationResult } from '../../../functions/core/report/query-validation.ts';
import { ValidationMetrics } from '../../../functions/core/report/validation-metrics.ts';
import { buildPassedReport } from '../../nightly/fixtures/reports.ts';

const ROW: QueryResult = {
  rank: 1,
  chunk_id: '5f0c9d2e-1b3a-5c4d-8e6f-7a8b9c0d1e2f',
  chunk_text: 'ROS 2 is a middleware.',
  similarity_score: 0.8,
  raw_score: 0.8,
  confidence_score: 1,
  source_url: 'https://book.example.com/docs/intro',
  chapter_id: 'intro',
  module_name: 'Introduction',
  heading_hierarchy: ['Introduction'],
  token_count: 5,
  chunk_index: 0,
  timestamp: '2026-11-20T01:00:00.000Z',
  model_version: 'embed-english-v3.0',
  payload_issues: [],
  relevance: true,
  relevance_grade: 1,
};
const refuses = (change: Partial<QueryResult>) => !QueryResult.safeParse({ ...ROW, ...change }).success;

describe('the report schema enforces the seeds’ rules', () => {
  it('accepts a result that keeps every rule', () => {
    expect(QueryResult.parse(ROW)).toEqual(ROW);
  });

  it('refuses a similarity outside 0..1, and accepts both ends', () => {
    expect([1.7, -3, 1.0001, -0.0001, 0, 1].map((similarity_score) => refuses({ similarity_score }))).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it('refuses an empty chunk text but accepts null (a missing text is reported, not invented)', () => {
    expect([refuses({ chunk_text: '' }), refuses({ chunk_text: null })]).toEqual([true, false]);
  });

  it('refuses a negative chunk_index and a token_count under 1, and accepts 0 and 1', () => {
    expect([
      refuses({ chunk_index: -1 }),
      refuses({ chunk_index: 0 }),
      refuses({ token_count: 0 }),
      refuses({ token_count: 1 }),
    ]).toEqual([true, false, true, false]);
  });

  it('refuses a source URL that is not an http(s) URL', () => {
    expect([
      refuses({ source_url: 'book/intro' }),
      refuses({ source_url: 'ftp://book.example.com/x' }),
      refuses({ source_url: 'http://book.example.com/x' }),
    ]).toEqual([true, true, false]);
  });

  it('refuses a chunk id that is neither a UUID nor an unsigned integer', () => {
    expect([refuses({ chunk_id: 'chunk-1' }), refuses({ chunk_id: '42' })]).toEqual([true, false]);
  });

  it('refuses results that are not in descending similarity, or not ranked 1..n', () => {
    // Prepare
    const query = structuredClone(buildPassedReport().query_results[0]);
    if (!query) throw new Error('fixture has queries');
    const unordered = [ROW, { ...ROW, rank: 2, similarity_score: 0.9 }];
    const misranked = [ROW, { ...ROW, rank: 3, similarity_score: 0.7 }];
    const ordered = [ROW, { ...ROW, rank: 2, similarity_score: 0.8 }];

    // Assess
    const best_similarity = (rows: QueryResult[]) => Math.max(...rows.map((r) => r.similarity_score));
    const refused = (top_results: QueryResult[]) =>
      !QueryValidationResult.safeParse({ ...query, top_results, best_similarity: best_similarity(top_results) })
        .success;
    expect([refused(unordered), refused(misranked), refused(ordered)]).toEqual([true, true, false]);
  });

  it('refuses a validation_run_id that is not a UUID', () => {
    // Prepare
    const metrics = buildPassedReport().validation_metrics;

    // Assess
    expect(ValidationMetrics.safeParse({ ...metrics, validation_run_id: 'validation-run-12345' }).success).toBe(false);
  });
});
