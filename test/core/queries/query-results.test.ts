import { describe, expect, it } from 'vitest';
import type { SearchHit } from '../../../functions/core/ports.ts';
import { judgeQuery } from '../../../functions/core/queries/judge-query.ts';
import {
  indexSearchedHits,
  judgmentsOf,
  onTopic,
  scoreQueryConfidence,
  scoreResultConfidence,
  toQueryResults,
} from '../../../functions/core/queries/query-results.ts';
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
  const relevant = { grade: 1, topGrade: 1 };

  it('is 1 for a relevant result exactly at the query’s min_similarity', () => {
    expect(scoreResultConfidence({ similarity: 0.2, minSimilarity: 0.2, ...relevant })).toBe(1);
  });

  it('is the share of min_similarity a relevant result reaches just under it', () => {
    expect(scoreResultConfidence({ similarity: 0.1999, minSimilarity: 0.2, ...relevant })).toBe(0.9995);
  });

  it('is 1 for every relevant result when min_similarity is 0', () => {
    expect(scoreResultConfidence({ similarity: 0, minSimilarity: 0, ...relevant })).toBe(1);
  });

  it('is 0 for a result judged not relevant, however far above min_similarity it scores', () => {
    expect(
      [0.99, 0.2].map((similarity) => scoreResultConfidence({ similarity, minSimilarity: 0.2, grade: 0, topGrade: 1 })),
    ).toEqual([0, 0]);
  });

  it('scales by the result’s grade against the query’s top grade', () => {
    expect(
      [1, 2, 3].map((grade) => scoreResultConfidence({ similarity: 0.5, minSimilarity: 0.2, grade, topGrade: 3 })),
    ).toEqual([0.3333, 0.6667, 1]);
  });
});

describe('scoreQueryConfidence', () => {
  const at = (...confidences: number[]) =>
    confidences.map((confidence_score, i) => ({ rank: i + 1, confidence_score }));

  it('is 1 when every result is relevant at the bar, and 0 when none is relevant', () => {
    expect([scoreQueryConfidence(at(1, 1, 1)), scoreQueryConfidence(at(0, 0, 0))]).toEqual([1, 0]);
  });

  it('weighs a result by rank as nDCG discounts it: an irrelevant first result costs more than an irrelevant last one', () => {
    // weights 1, 1/log2(3) = 0.6309; (0 * 1 + 1 * 0.6309) / 1.6309 = 0.3869 and (1 * 1 + 0) / 1.6309 = 0.6131
    expect([scoreQueryConfidence(at(0, 1)), scoreQueryConfidence(at(1, 0))]).toEqual([0.3869, 0.6131]);
  });

  it('is null when nothing came back', () => {
    expect(scoreQueryConfidence([])).toBeNull();
  });
});

const BOOK = 'https://book.example.com/docs';
const LATENCY = { embedding_ms: 1, search_ms: 1, post_processing_ms: 0, total_ms: 2 };

function makeQuery(overrides: Partial<ResolvedQuery> = {}): ResolvedQuery {
  return {
    id: 'q1',
    query_text: 'What is a topic?',
    category: 'semantic',
    description: null,
    expected_module: null,
    expected_chapter: null,
    expected_sources: [],
    relevant: null,
    min_similarity: 0.7,
    top_k: 3,
    filters: {},
    criteria: {},
    agent: false,
    expect_answer: true,
    ...overrides,
  };
}

function hit(id: string, score: number, payload: SearchHit['payload'] = {}): SearchHit {
  return { id, score, payload: { chunk_text: `text of ${id}`, source_url: `${BOOK}/${id}`, ...payload } };
}

describe('toQueryResults: relevance and payload types', () => {
  it('counts a row scoring exactly min_similarity as relevant, and one just under as not', () => {
    // Act
    const rows = toQueryResults(makeQuery(), [hit('a', 0.7), hit('b', 0.69994)]);

    // Assess: 0.69994 rounds to 0.6999.
    expect(rows.map((r) => [r.similarity_score, r.relevance, r.relevance_grade])).toEqual([
      [0.7, true, 1],
      [0.6999, false, 0],
    ]);
  });

  it('reads payload values of the wrong type as null', () => {
    // Act
    const [row] = toQueryResults(makeQuery(), [
      hit('a', 0.9, {
        token_count: Number.POSITIVE_INFINITY,
        chunk_index: '3',
        heading_hierarchy: ['Intro', 2],
        module_name: 7,
      }),
    ]);

    // Assess
    expect(row).toMatchObject({ token_count: null, chunk_index: null, heading_hierarchy: null, module_name: null });
  });

  it('keeps numeric and list payload values of the right type', () => {
    // Act
    const [row] = toQueryResults(makeQuery(), [
      hit('a', 0.9, { token_count: 120, chunk_index: 0, heading_hierarchy: ['Intro', 'Setup'] }),
    ]);

    // Assess
    expect(row).toMatchObject({ token_count: 120, chunk_index: 0, heading_hierarchy: ['Intro', 'Setup'] });
  });
});

describe('judgmentsOf', () => {
  it('falls back to the expected sources when the relevant list is empty', () => {
    // Act
    const judgments = judgmentsOf(makeQuery({ relevant: [], expected_sources: ['intro'] }));

    // Assess
    expect(judgments).toEqual([{ kind: 'url', target: 'intro', grade: 1 }]);
  });

  it('takes the relevant list over the expected sources', () => {
    // Act
    const relevant = [{ kind: 'chunk_id' as const, target: 'c1', grade: 2 }];
    const judgments = judgmentsOf(makeQuery({ relevant, expected_sources: ['intro'] }));

    // Assess
    expect(judgments).toEqual(relevant);
  });

  it('has no judgments without a relevant list or expected sources', () => {
    expect(judgmentsOf(makeQuery())).toBeNull();
  });
});

describe('indexSearchedHits', () => {
  function judged(query: ResolvedQuery, hits: SearchHit[] | null, failure?: boolean) {
    return judgeQuery({
      query,
      hits,
      ...(failure ? { failure: { errorType: 'TIMEOUT' as const, message: 'timed out' } } : {}),
      latency: LATENCY,
      timestamp: '2026-01-01T00:00:00.000Z',
      newId: () => 'e',
    }).result;
  }

  it('gives back the hits of a query searched with the same text, top_k and filters, without null fields', () => {
    // Prepare
    const query = makeQuery({ filters: { module: 'm1' } });
    const lookup = indexSearchedHits([judged(query, [hit('a', 0.91234, { module_name: 'm1' })])]);

    // Act
    const hits = lookup({ query: 'What is a topic?', top_k: 3, filters: { module: 'm1' } });

    // Assess
    expect(hits).toEqual([
      {
        id: 'a',
        score: 0.9123,
        payload: { chunk_text: 'text of a', source_url: `${BOOK}/a`, module_name: 'm1' },
      },
    ]);
  });

  it('finds nothing for another top_k, another filter or another text', () => {
    // Prepare
    const lookup = indexSearchedHits([judged(makeQuery({ filters: { chapter: 'c1' } }), [hit('a', 0.9)])]);

    // Act
    const misses = [
      lookup({ query: 'What is a topic?', top_k: 5, filters: { chapter: 'c1' } }),
      lookup({ query: 'What is a topic?', top_k: 3, filters: { chapter: 'c2' } }),
      lookup({ query: 'What is a topic?', top_k: 3 }),
      lookup({ query: 'What is a node?', top_k: 3, filters: { chapter: 'c1' } }),
    ];

    // Assess
    expect(misses).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('treats no filters as empty filters', () => {
    // Prepare
    const lookup = indexSearchedHits([judged(makeQuery(), [hit('a', 0.9)])]);

    // Act / Assess
    expect(lookup({ query: 'What is a topic?', top_k: 3 })?.map((h) => h.id)).toEqual(['a']);
    expect(lookup({ query: 'What is a topic?', top_k: 3, filters: {} })?.map((h) => h.id)).toEqual(['a']);
  });

  it('tells each filter apart, so a section filter is not a url filter', () => {
    // Prepare
    const lookup = indexSearchedHits([
      judged(makeQuery({ id: 's', filters: { section: 'x' } }), [hit('s', 0.9)]),
      judged(makeQuery({ id: 'u', filters: { url: 'x' } }), [hit('u', 0.9)]),
      judged(makeQuery({ id: 'm', filters: { module: 'x' } }), [hit('m', 0.9)]),
    ]);

    // Act
    const ids = [{ section: 'x' }, { url: 'x' }, { module: 'x' }, { chapter: 'x' }].map(
      (filters) => lookup({ query: 'What is a topic?', top_k: 3, filters })?.[0]?.id,
    );

    // Assess
    expect(ids).toEqual(['s', 'u', 'm', undefined]);
  });

  it('keeps an unfiltered query apart from the same text filtered by module, chapter, section or url', () => {
    // Prepare
    const lookup = indexSearchedHits([
      judged(makeQuery({ id: 'n' }), [hit('n', 0.9)]),
      judged(makeQuery({ id: 'm', filters: { module: 'x' } }), [hit('m', 0.9)]),
      judged(makeQuery({ id: 'c', filters: { chapter: 'x' } }), [hit('c', 0.9)]),
      judged(makeQuery({ id: 's', filters: { section: 'x' } }), [hit('s', 0.9)]),
      judged(makeQuery({ id: 'u', filters: { url: 'x' } }), [hit('u', 0.9)]),
    ]);

    // Act
    const ids = [{}, { module: 'x' }, { chapter: 'x' }, { section: 'x' }, { url: 'x' }].map(
      (filters) => lookup({ query: 'What is a topic?', top_k: 3, filters })?.[0]?.id,
    );

    // Assess
    expect(ids).toEqual(['n', 'm', 'c', 's', 'u']);
  });

  it('leaves out a query that could not run, so it is searched again', () => {
    // Prepare
    const lookup = indexSearchedHits([judged(makeQuery(), null, true)]);

    // Act / Assess
    expect(lookup({ query: 'What is a topic?', top_k: 3 })).toBeUndefined();
  });
});

describe('query-results: edges its mutants found', () => {
  it('refuses a fractional token_count or chunk_index, and an infinite one, naming each; a number as text is no number', () => {
    const [fractional] = toQueryResults(QUERY, [
      { id: '1', score: 0.5, payload: { ...PAYLOAD, token_count: 2.5, chunk_index: 1.5 } },
    ]);
    expect(fractional).toMatchObject({ token_count: null, chunk_index: null });
    expect(fractional?.payload_issues).toEqual([
      'token_count: must be a whole number > 0, got 2.5',
      'chunk_index: must be a whole number >= 0, got 1.5',
    ]);
    const [odd] = toQueryResults(QUERY, [
      { id: '1', score: 0.5, payload: { ...PAYLOAD, token_count: '12', chunk_index: Number.POSITIVE_INFINITY } },
    ]);
    // Not numbers at all: read as absent, which is no issue of its own.
    expect(odd).toMatchObject({ token_count: null, chunk_index: null, payload_issues: [] });
  });

  it('accepts http as well as https, and quotes at most 100 characters of a URL it refuses', () => {
    const long = `ftp://book.example.com/${'x'.repeat(150)}`;
    const [plain, refused] = toQueryResults(QUERY, [
      { id: '1', score: 0.6, payload: { ...PAYLOAD, source_url: 'http://book.example.com/docs/a' } },
      { id: '2', score: 0.5, payload: { ...PAYLOAD, source_url: long } },
    ]);
    expect(plain).toMatchObject({ source_url: 'http://book.example.com/docs/a', payload_issues: [] });
    expect(refused?.source_url).toBeNull();
    expect(refused?.payload_issues).toEqual([`source_url: not an http(s) URL: ${JSON.stringify(long.slice(0, 100))}`]);
  });

  it('scales by the highest grade the suite gives, so a grade-1 page under a grade-3 one scores a third', () => {
    const query: ResolvedQuery = {
      ...QUERY,
      relevant: [
        { kind: 'url', target: '/docs/intro', grade: 1 },
        { kind: 'url', target: '/docs/core', grade: 3 },
      ],
    };
    const [row] = toQueryResults(query, [{ id: '1', score: 0.5, payload: PAYLOAD }]);
    expect(row).toMatchObject({ relevance_grade: 1, confidence_score: 0.3333 });
  });

  it('scores 0 for a grade of 0 or less, or a top grade of 0 or less', () => {
    const at = { similarity: 0.9, minSimilarity: 0.5 };
    expect(scoreResultConfidence({ ...at, grade: -1, topGrade: 3 })).toBe(0);
    expect(scoreResultConfidence({ ...at, grade: 1, topGrade: 0 })).toBe(0);
    expect(scoreResultConfidence({ ...at, grade: 1, topGrade: -1 })).toBe(0);
    expect(scoreResultConfidence({ ...at, grade: 1, topGrade: 1 })).toBe(1);
  });

  it('keeps a result scoring exactly min_similarity on topic', () => {
    const rows = toQueryResults({ ...QUERY, min_similarity: 0.5 }, [
      { id: '1', score: 0.5, payload: PAYLOAD },
      { id: '2', score: 0.4999, payload: PAYLOAD },
    ]);
    expect(onTopic({ ...QUERY, min_similarity: 0.5 }, rows).map((r) => r.chunk_id)).toEqual(['1']);
  });
});
