import { describe, expect, it } from 'vitest';
import { scoreResultConfidence, toQueryResults } from '../../../functions/core/queries/query-results.ts';
import type { ResolvedQuery } from '../../../functions/core/suite/suite.ts';

const QUERY: ResolvedQuery = {
  id: 'q1',
  query_text: 'What is ROS 2?',
  category: 'semantic',
  description: null,
  expected_module: null,
  expected_chapter: null,
  expected_sources: [],
  relevant: null,
  min_similarity: 0.2,
  top_k: 5,
  filters: {},
  criteria: {},
  agent: false,
  expect_answer: true,
};
const PAYLOAD = {
  chunk_text: 'ROS 2 is a middleware.',
  source_url: 'https://book.example.com/docs/intro',
  token_count: 5,
  chunk_index: 0,
  indexed_at: '2026-11-20T01:00:00.000Z',
  model_version: 'embed-english-v3.0',
};

describe('toQueryResults', () => {
  it('reports a stored value that breaks a seed rule as null and names it in payload_issues', () => {
    // Act
    const [row] = toQueryResults(QUERY, [
      { id: '1', score: 0.5, payload: { chunk_text: '  ', source_url: 'book/intro', token_count: 0, chunk_index: -1 } },
    ]);

    // Assess
    expect(row).toMatchObject({ chunk_text: null, source_url: null, token_count: null, chunk_index: null });
    expect(row?.payload_issues).toEqual([
      'chunk_text: missing or empty',
      'source_url: not an http(s) URL: "book/intro"',
      'token_count: must be a whole number > 0, got 0',
      'chunk_index: must be a whole number >= 0, got -1',
    ]);
  });

  it('keeps valid values as stored, with the indexing time and model, and no issue', () => {
    // Act
    const [row] = toQueryResults(QUERY, [{ id: '1', score: 0.5, payload: PAYLOAD }]);

    // Assess
    expect(row).toMatchObject({
      chunk_text: PAYLOAD.chunk_text,
      source_url: PAYLOAD.source_url,
      token_count: 5,
      chunk_index: 0,
      timestamp: PAYLOAD.indexed_at,
      model_version: 'embed-english-v3.0',
      payload_issues: [],
    });
  });

  it('clamps a negative cosine to similarity 0 and keeps the index’s score as raw_score', () => {
    // Act
    const [row] = toQueryResults(QUERY, [{ id: '1', score: -0.31, payload: PAYLOAD }]);

    // Assess
    expect(row).toMatchObject({ similarity_score: 0, raw_score: -0.31, confidence_score: 0 });
  });

  it('ranks rows by similarity, highest first, whatever order the index answered in', () => {
    // Act
    const rows = toQueryResults(QUERY, [
      { id: '1', score: 0.3, payload: PAYLOAD },
      { id: '2', score: 0.6, payload: PAYLOAD },
    ]);

    // Assess
    expect(rows.map((r) => [r.rank, r.chunk_id])).toEqual([
      [1, '2'],
      [2, '1'],
    ]);
  });
});

describe('scoreResultConfidence', () => {
  it('is 1 for a result exactly at the query’s min_similarity', () => {
    expect(scoreResultConfidence(0.2, 0.2)).toBe(1);
  });

  it('is the share of min_similarity reached just under it', () => {
    expect(scoreResultConfidence(0.1999, 0.2)).toBe(0.9995);
  });

  it('is 1 for every result when min_similarity is 0', () => {
    expect(scoreResultConfidence(0, 0)).toBe(1);
  });
});
