import { describe, expect, it } from 'vitest';
import type { Payload, SearchHit } from '../../../functions/core/ports.ts';
import { judgeQuery, scoreSemanticAlignment } from '../../../functions/core/queries/judge-query.ts';
import {
  type LatencyBreakdown,
  type QueryResult,
  QueryValidationResult,
} from '../../../functions/core/report/query-validation.ts';
import type { ResolvedQuery } from '../../../functions/core/suite/suite.ts';

const BOOK = 'https://book.example.com/docs';
const AT = '2026-01-01T02:00:00.000Z';
const LATENCY: LatencyBreakdown = { embedding_ms: 120, search_ms: 30, post_processing_ms: 1, total_ms: 151 };

function makeQuery(overrides: Partial<ResolvedQuery> = {}): ResolvedQuery {
  return {
    id: 'q1',
    query_text: 'What is ROS 2?',
    category: 'semantic',
    description: null,
    expected_module: 'Module 1 Ros2',
    expected_chapter: null,
    expected_sources: [],
    relevant: null,
    min_similarity: 0.7,
    top_k: 5,
    filters: {},
    criteria: {},
    agent: false,
    expect_answer: true,
    ...overrides,
  };
}

const ROS_BASICS: Payload = {
  chunk_text: 'ROS 2 is a robotics middleware...',
  source_url: `${BOOK}/module-1-ros2/ch1-ros2-basics`,
  chapter_id: 'module-1-ros2/ch1-ros2-basics',
  module_name: 'Module 1 Ros2',
  heading_hierarchy: ['ROS 2 Basics', 'Introduction'],
  token_count: 512,
  chunk_index: 0,
};
const GAZEBO: Payload = {
  chunk_text: 'Gazebo simulates...',
  source_url: `${BOOK}/module-2-simulation/ch3-gazebo`,
  chapter_id: 'module-2-simulation/ch3-gazebo',
  module_name: 'Module 2 Simulation',
  heading_hierarchy: ['Gazebo'],
  token_count: 300,
  chunk_index: 2,
};

/** The fields of a report row the payload does not give: a relevant row with no indexing metadata and no issue. */
const ROW = { timestamp: null, model_version: null, payload_issues: [], relevance: true, relevance_grade: 1 };

function hit(id: string, score: number, payload: Payload): SearchHit {
  return { id, score, payload };
}

function judge(query: ResolvedQuery, hits: SearchHit[] | null, extra: Partial<Parameters<typeof judgeQuery>[0]> = {}) {
  let n = 0;
  return judgeQuery({ query, hits, latency: LATENCY, timestamp: AT, newId: () => `e${++n}`, ...extra });
}

describe('judgeQuery', () => {
  it('passes a query whose best chunk is in the expected module, as seed 001 reports it', () => {
    // Prepare
    const query = makeQuery();
    const hits = [hit('1', 0.85, ROS_BASICS), hit('2', 0.612345, GAZEBO)];

    // Act
    const { result, errors } = judge(query, hits);

    // Assess: mean = (0.85 + 0.6123) / 2 = 0.73115 -> 0.7312 (scores are rounded to 4 decimals first); row 2 is off
    // its module, so its confidence is 0 and the query's is (1 × 1 + 0 × 1/log2(3)) / (1 + 1/log2(3)) = 0.6131;
    // alignment = 0.85 / (0.85 + 0.6123) = 0.5813 (only row 1 is relevant).
    expect(result).toEqual({
      id: 'q1',
      query_text: 'What is ROS 2?',
      query_category: 'semantic',
      description: null,
      query: { ...query },
      status: 'PASS',
      passed: true,
      pass_reason: "Found relevant chunk (similarity=0.85) in expected module 'Module 1 Ros2'",
      fail_reason: null,
      top_results: [
        { rank: 1, chunk_id: '1', similarity_score: 0.85, raw_score: 0.85, confidence_score: 1, ...ROW, ...ROS_BASICS },
        {
          rank: 2,
          chunk_id: '2',
          similarity_score: 0.6123,
          raw_score: 0.612345,
          confidence_score: 0,
          ...ROW,
          relevance: false,
          relevance_grade: 0,
          ...GAZEBO,
        },
      ],
      best_similarity: 0.85,
      mean_top_k_similarity: 0.7312,
      semantic_alignment_score: 0.5813,
      confidence_score: 0.6131,
      module_match: true,
      chapter_match: null,
      expected_sources_found: 0,
      total_expected_sources: 0,
      sources_match_ratio: null,
      missing_expected_sources: [],
      metrics: null,
      latency: LATENCY,
      criteria_evaluations: { similarity: true, module: true },
      error_types: [],
      timestamp: AT,
    });
    expect(errors).toEqual([]);
    expect(QueryValidationResult.parse(result)).toEqual(result);
  });

  it('fails with every failed criterion in the reason and one error each', () => {
    // Prepare
    const query = makeQuery({ id: 'q3', expected_module: 'Module 3 Isaac' });

    // Act
    const { result, errors } = judge(query, [hit('1', 0.52, ROS_BASICS)]);

    // Assess
    expect(result).toMatchObject({
      status: 'FAIL',
      passed: false,
      pass_reason: null,
      fail_reason: "best similarity 0.52 < 0.70; expected module 'Module 3 Isaac' not in top 1 (got: Module 1 Ros2)",
      module_match: false,
      criteria_evaluations: { similarity: false, module: false },
      error_types: ['LOW_RELEVANCE', 'METADATA_MISMATCH'],
    });
    expect(errors).toEqual([
      {
        id: 'e1',
        validation_id: 'q3',
        error_type: 'LOW_RELEVANCE',
        message: "Query 'q3': best similarity 0.52 < 0.70",
        severity: 'MEDIUM',
        details: { query_text: 'What is ROS 2?', best_similarity: 0.52, min_similarity: 0.7 },
      },
      {
        id: 'e2',
        validation_id: 'q3',
        error_type: 'METADATA_MISMATCH',
        message: "Query 'q3': expected module 'Module 3 Isaac' not in top 1 (got: Module 1 Ros2)",
        severity: 'MEDIUM',
        details: { query_text: 'What is ROS 2?', expected_module: 'Module 3 Isaac', found_modules: ['Module 1 Ros2'] },
      },
    ]);
    expect(QueryValidationResult.parse(result)).toEqual(result);
  });

  it('does not round a near miss up to the threshold in the reason', () => {
    // Act
    const { result } = judge(makeQuery(), [hit('1', 0.69994, ROS_BASICS)]);

    // Assess: 0.69994 -> 0.6999, shown as is because 0.70 would hide the miss.
    expect(result.fail_reason).toBe('best similarity 0.6999 < 0.70');
  });

  it('matches the module through the chapter folder when the payload lacks a module name', () => {
    // Prepare
    const payload = { ...ROS_BASICS, module_name: undefined, chapter_id: 'module1-ros2/ch1-ros2-basics' };

    // Act
    const { result } = judge(makeQuery(), [hit('1', 0.8, payload)]);

    // Assess
    expect(result).toMatchObject({ status: 'PASS', module_match: true });
    expect(result.top_results[0]?.module_name).toBeNull();
  });

  it('does not let an off-topic chunk under min_similarity make the module match', () => {
    // Prepare: the expected module appears only at rank 2, scoring under the query's 0.70.
    const query = makeQuery({ expected_module: 'Module 3 Isaac' });
    const isaac = { ...ROS_BASICS, module_name: 'Module 3 Isaac', chapter_id: 'module-3-isaac/ch1-sim' };

    // Act
    const { result } = judge(query, [hit('1', 0.9, ROS_BASICS), hit('2', 0.4, isaac)]);

    // Assess
    expect(result).toMatchObject({
      status: 'FAIL',
      module_match: false,
      fail_reason: "expected module 'Module 3 Isaac' not among the 1 of top 2 scoring >= 0.70 (got: Module 1 Ros2)",
    });
  });

  it('fails with METADATA_MISMATCH when the expected chapter is not in the results', () => {
    // Prepare
    const query = makeQuery({ expected_chapter: 'ch2-nodes' });

    // Act
    const { result, errors } = judge(query, [hit('1', 0.9, ROS_BASICS)]);

    // Assess
    expect(result).toMatchObject({
      status: 'FAIL',
      chapter_match: false,
      fail_reason: "expected chapter 'ch2-nodes' not in top 1 (got: module-1-ros2/ch1-ros2-basics)",
      criteria_evaluations: { similarity: true, module: true, chapter: false },
      error_types: ['METADATA_MISMATCH'],
    });
    expect(errors.map((e) => [e.error_type, e.severity])).toEqual([['METADATA_MISMATCH', 'MEDIUM']]);
  });

  it('reports missing expected sources without failing when they are not required', () => {
    // Prepare: the doc file is found, the path is not.
    const query = makeQuery({ expected_sources: ['ch1-ros2-basics.md', '/docs/module-1-ros2/ch2-nodes'] });

    // Act
    const { result, errors } = judge(query, [hit('1', 0.9, ROS_BASICS)]);

    // Assess
    expect(result).toMatchObject({
      status: 'PASS',
      pass_reason:
        "Found relevant chunk (similarity=0.90) in expected module 'Module 1 Ros2'; 1/2 expected sources found",
      expected_sources_found: 1,
      total_expected_sources: 2,
      sources_match_ratio: 0.5,
      missing_expected_sources: ['/docs/module-1-ros2/ch2-nodes'],
      criteria_evaluations: { similarity: true, module: true },
    });
    expect(errors).toEqual([]);
  });

  it('fails with MISSING_EXPECTED_SOURCE when expected sources are required', () => {
    // Prepare
    const query = makeQuery({
      expected_sources: ['ch1-ros2-basics', 'ch2-nodes'],
      criteria: { require_expected_sources: true },
    });

    // Act
    const { result, errors } = judge(query, [hit('1', 0.9, ROS_BASICS)]);

    // Assess
    expect(result).toMatchObject({
      status: 'FAIL',
      fail_reason: 'expected sources not in top 1: ch2-nodes (1/2 found)',
      error_types: ['MISSING_EXPECTED_SOURCE'],
    });
    expect(errors[0]).toMatchObject({
      error_type: 'MISSING_EXPECTED_SOURCE',
      severity: 'MEDIUM',
      details: { missing_expected_sources: ['ch2-nodes'], expected_sources_found: 1, total_expected_sources: 2 },
    });
  });

  it('passes required expected sources when every one is found', () => {
    // Prepare
    const query = makeQuery({
      expected_sources: ['ch1-ros2-basics', 'ch3-gazebo'],
      criteria: { require_expected_sources: true },
    });

    // Act
    const { result, errors } = judge(query, [hit('c1', 0.9, ROS_BASICS), hit('c2', 0.8, GAZEBO)]);

    // Assess
    expect(result).toMatchObject({
      status: 'PASS',
      expected_sources_found: 2,
      missing_expected_sources: [],
      criteria_evaluations: { similarity: true, module: true, expected_sources: true },
    });
    expect(errors).toEqual([]);
  });

  it('judges relevance and IR metrics by expected sources when there are no judgments', () => {
    // Prepare: two chunks of the same expected page, then an unexpected page; k = 5.
    const query = makeQuery({ expected_sources: ['ch1-ros2-basics'] });
    const hits = [hit('1', 0.9, ROS_BASICS), hit('2', 0.8, ROS_BASICS), hit('3', 0.7, GAZEBO)];

    // Act
    const { result } = judge(query, hits);

    // Assess: both chunks of the page are relevant, and count in the alignment: (0.9 + 0.8) / (0.9 + 0.8 + 0.7) =
    // 0.7083. The IR metrics credit the page once: P@5 = 1/5, recall 1/1, RR 1, nDCG 1/1.
    expect(result.top_results.map((r) => r.relevance)).toEqual([true, true, false]);
    expect(result.semantic_alignment_score).toBe(0.7083);
    expect(result.metrics).toEqual({
      k: 5,
      judged_relevant: 1,
      retrieved_relevant: 1,
      precision_at_k: 0.2,
      recall_at_k: 1,
      reciprocal_rank: 1,
      ndcg_at_k: 1,
      hit: true,
    });
  });

  it('grades relevance by the query’s judgments when it has some', () => {
    // Prepare: c2 is judged grade 3, the Gazebo page grade 2 by URL.
    const query = makeQuery({
      relevant: [
        { kind: 'chunk_id', target: '2', grade: 3 },
        { kind: 'url', target: `${BOOK}/module-2-simulation/ch3-gazebo/`, grade: 2 },
      ],
    });
    const hits = [hit('1', 0.9, ROS_BASICS), hit('2', 0.8, ROS_BASICS), hit('3', 0.7, GAZEBO)];

    // Act
    const { result } = judge(query, hits);

    // Assess
    // DCG = 0 + 3/log2(3) + 2/log2(4) = 1.8928 + 1 = 2.8928; IDCG = 3 + 2/log2(3) = 4.2619; nDCG = 0.6788.
    expect(result.top_results.map((r) => r.relevance_grade)).toEqual([0, 3, 2]);
    expect(result.metrics).toMatchObject({ reciprocal_rank: 0.5, ndcg_at_k: 0.6788, precision_at_k: 0.4 });
  });

  it('fails with LOW_PRECISION when too few results are relevant', () => {
    // Prepare: without judgments, relevant = in the expected module and >= 0.70: only c1. P@5 = 1/5 = 0.2.
    const query = makeQuery({ criteria: { min_precision: 0.4 } });
    const hits = [hit('1', 0.9, ROS_BASICS), hit('2', 0.8, GAZEBO), hit('3', 0.6, ROS_BASICS)];

    // Act
    const { result, errors } = judge(query, hits);

    // Assess
    expect(result).toMatchObject({
      status: 'FAIL',
      fail_reason: 'precision@5 0.20 < 0.40',
      criteria_evaluations: { similarity: true, module: true, precision: false },
    });
    expect(errors[0]).toMatchObject({
      error_type: 'LOW_PRECISION',
      details: { precision_at_k: 0.2, min_precision: 0.4, k: 5 },
    });
  });

  it('fails with a LOW severity LATENCY_EXCEEDED when embedding + search exceed the budget', () => {
    // Prepare: embedding 120 + search 30 = 150 ms against a 149 ms ceiling.
    const query = makeQuery({ criteria: { max_latency_ms: 149 } });

    // Act
    const { result, errors } = judge(query, [hit('1', 0.9, ROS_BASICS)]);

    // Assess
    expect(result).toMatchObject({ status: 'FAIL', fail_reason: 'embedding + search latency 150 ms > 149 ms' });
    expect(errors[0]).toMatchObject({ error_type: 'LATENCY_EXCEEDED', severity: 'LOW' });
  });

  it('passes a query whose best similarity is exactly min_similarity', () => {
    // Act
    const { result, errors } = judge(makeQuery(), [hit('c1', 0.7, ROS_BASICS)]);

    // Assess
    expect(result).toMatchObject({
      status: 'PASS',
      best_similarity: 0.7,
      module_match: true,
      criteria_evaluations: { similarity: true, module: true },
    });
    expect(errors).toEqual([]);
  });

  it('fails with LOW_RELEVANCE when the best similarity is just under min_similarity', () => {
    // Act
    const { result, errors } = judge(makeQuery(), [hit('c1', 0.6999, ROS_BASICS)]);

    // Assess
    expect(result).toMatchObject({ status: 'FAIL', criteria_evaluations: { similarity: false } });
    expect(errors.map((e) => [e.error_type, e.severity])).toEqual([['LOW_RELEVANCE', 'MEDIUM']]);
  });

  it('fails with LOW_PRECISION when precision is just under its minimum', () => {
    // Prepare: one relevant row of 5 is 0.2, against 0.2001.
    const query = makeQuery({ criteria: { min_precision: 0.2001 } });

    // Act
    const { result } = judge(query, [hit('c1', 0.9, ROS_BASICS)]);

    // Assess
    expect(result).toMatchObject({ status: 'FAIL', criteria_evaluations: { precision: false } });
  });

  it('passes at exactly the budget: ragwatch’s own post-processing is not the system’s latency', () => {
    // Prepare: embedding + search = 150 ms; total 151 ms with 1 ms of judging.
    const query = makeQuery({ criteria: { max_latency_ms: 150 } });

    // Act
    const { result } = judge(query, [hit('c1', 0.9, ROS_BASICS)]);

    // Assess
    expect(result.status).toBe('PASS');
  });

  it('mentions evaluated precision and latency in the pass reason', () => {
    // Prepare
    const query = makeQuery({ criteria: { min_precision: 0.2, max_latency_ms: 200 } });

    // Act
    const { result } = judge(query, [hit('1', 0.9, ROS_BASICS)]);

    // Assess
    expect(result.pass_reason).toBe(
      "Found relevant chunk (similarity=0.90) in expected module 'Module 1 Ros2'; precision@5=0.20; embedding + search latency 150 ms",
    );
  });

  it('names module and chapter in the pass reason when the relevant chunk is in both', () => {
    // Act
    const { result } = judge(makeQuery({ expected_chapter: 'ch1-ros2-basics' }), [hit('1', 0.88, ROS_BASICS)]);

    // Assess
    expect(result.pass_reason).toBe(
      "Found relevant chunk (similarity=0.88) in expected module 'Module 1 Ros2', chapter 'ch1-ros2-basics'",
    );
  });

  it('does not claim a relevant chunk when the query passes without one', () => {
    // Prepare: the judged chunk z was not retrieved; similarity and module still hold.
    const query = makeQuery({ relevant: [{ kind: 'chunk_id', target: 'z', grade: 1 }] });

    // Act
    const { result } = judge(query, [hit('1', 0.85, ROS_BASICS)]);

    // Assess
    expect(result).toMatchObject({
      status: 'PASS',
      pass_reason: "Best similarity 0.85 >= 0.70; expected module 'Module 1 Ros2' in top 1; no chunk judged relevant",
      metrics: { hit: false },
    });
  });

  it('ends in ERROR with a HIGH NO_RESULTS when the index returns nothing (seed 000)', () => {
    // Act
    const { result, errors } = judge(makeQuery({ relevant: [{ kind: 'chunk_id', target: '1', grade: 1 }] }), []);

    // Assess: a judged query with no results scores zero.
    expect(result).toMatchObject({
      status: 'ERROR',
      fail_reason: 'no results returned (top_k=5)',
      best_similarity: null,
      mean_top_k_similarity: null,
      semantic_alignment_score: null,
      confidence_score: null,
      module_match: false,
      criteria_evaluations: { results: false },
      error_types: ['NO_RESULTS'],
      metrics: { retrieved_relevant: 0, precision_at_k: 0, hit: false },
    });
    expect(errors).toMatchObject([{ error_type: 'NO_RESULTS', severity: 'HIGH', validation_id: 'q1' }]);
    expect(QueryValidationResult.parse(result)).toEqual(result);
  });

  it('gives a judged query that could not run no IR figures, not zeros', () => {
    // Prepare: judged by an expected source, but Cohere failed.
    const failure = { errorType: 'EMBEDDING_FAILED' as const, message: 'Cohere embed failed (503)' };
    const query = makeQuery({ expected_sources: ['/docs/module-1-ros2/ch1-ros2-basics'] });

    // Act
    const { result } = judge(query, null, { failure });

    // Assess
    expect(result.metrics).toBeNull();
  });

  it('reports ERROR with the failure’s type and message when the query could not run', () => {
    // Prepare
    const failure = { errorType: 'TIMEOUT' as const, message: 'Qdrant did not answer within 10000 ms' };

    // Act
    const { result, errors } = judge(makeQuery(), null, { failure });

    // Assess
    expect(result).toMatchObject({
      status: 'ERROR',
      passed: false,
      pass_reason: null,
      fail_reason: 'Qdrant did not answer within 10000 ms',
      top_results: [],
      criteria_evaluations: {},
      error_types: ['TIMEOUT'],
    });
    expect(errors).toEqual([
      {
        id: 'e1',
        validation_id: 'q1',
        error_type: 'TIMEOUT',
        message: "Query 'q1': Qdrant did not answer within 10000 ms",
        severity: 'HIGH',
        details: { query_text: 'What is ROS 2?', total_ms: 151 },
      },
    ]);
    expect(QueryValidationResult.parse(result)).toEqual(result);
  });

  it('fills payload fields that are missing or of the wrong type with null', () => {
    // Prepare
    const payload = { source_url: 42, heading_hierarchy: 'ROS 2 > Basics', token_count: '512' };

    // Act
    const { result } = judge(makeQuery({ expected_module: null }), [hit('1', 0.9, payload)]);

    // Assess
    expect(result.top_results).toEqual([
      {
        rank: 1,
        chunk_id: '1',
        chunk_text: null,
        similarity_score: 0.9,
        raw_score: 0.9,
        confidence_score: 1,
        timestamp: null,
        model_version: null,
        payload_issues: ['chunk_text: missing or empty'],
        source_url: null,
        chapter_id: null,
        module_name: null,
        heading_hierarchy: null,
        token_count: null,
        chunk_index: null,
        relevance: true,
        relevance_grade: 1,
      },
    ]);
    expect(result).toMatchObject({ status: 'PASS', module_match: null, criteria_evaluations: { similarity: true } });
  });

  it('copies the query so later changes to the suite entry do not reach the report', () => {
    // Prepare
    const query = makeQuery({ expected_sources: ['ch1-ros2-basics'] });

    // Act
    const { result } = judge(query, [hit('1', 0.9, ROS_BASICS)]);
    query.expected_sources.push('changed');

    // Assess
    expect(result.query.expected_sources).toEqual(['ch1-ros2-basics']);
  });
});

describe('an out-of-domain probe (expect_match: false)', () => {
  const probe = (min: number) => makeQuery({ min_similarity: min, expect_match: false, expected_module: null });

  it('passes when its best result stays under min_similarity', () => {
    // Act: best 0.69 against 0.7.
    const { result } = judge(probe(0.7), [hit('c1', 0.69, ROS_BASICS)]);

    // Assess
    expect(result).toMatchObject({ status: 'PASS', pass_reason: 'Out-of-domain probe: best similarity 0.69 < 0.70' });
  });

  it('fails with UNEXPECTED_MATCH when its best result reaches min_similarity', () => {
    // Act: best 0.7 against 0.7.
    const { result, errors } = judge(probe(0.7), [hit('c1', 0.7, ROS_BASICS)]);

    // Assess
    expect(result).toMatchObject({ status: 'FAIL', error_types: ['UNEXPECTED_MATCH'] });
    expect(errors[0]).toMatchObject({ error_type: 'UNEXPECTED_MATCH', severity: 'MEDIUM' });
  });

  it('ends in ERROR with NO_RESULTS when nothing comes back: an empty answer proves nothing about a probe', () => {
    expect(judge(probe(0.7), []).result).toMatchObject({ status: 'ERROR', error_types: ['NO_RESULTS'] });
  });
});

describe('scoreSemanticAlignment', () => {
  const row = (similarity: number, relevance: boolean) => ({ similarity_score: similarity, relevance }) as QueryResult;

  it('is 1 when every result is judged relevant and 0 when none is', () => {
    expect([
      scoreSemanticAlignment([row(0.8, true), row(0.4, true)]),
      scoreSemanticAlignment([row(0.8, false), row(0.4, false)]),
    ]).toEqual([1, 0]);
  });

  it('weighs each relevant result by the similarity the retriever gave it', () => {
    // 0.6 of a total 0.6 + 0.2: a relevant top result counts more than a relevant tail
    expect(scoreSemanticAlignment([row(0.6, true), row(0.2, false)])).toBe(0.75);
  });

  it('is 0 when every result scores 0, and null when nothing came back', () => {
    expect([scoreSemanticAlignment([row(0, true)]), scoreSemanticAlignment([])]).toEqual([0, null]);
  });

  it('finds an expected source in any result, not only the first', () => {
    // Prepare
    const query = makeQuery({ expected_module: null, expected_sources: ['ch3-gazebo'] });

    // Act
    const { result } = judge(query, [hit('c1', 0.9, ROS_BASICS), hit('c2', 0.8, GAZEBO)]);

    // Assess
    expect(result).toMatchObject({ expected_sources_found: 1, missing_expected_sources: [] });
  });

  it('matches the expected chapter on any on-topic result', () => {
    // Prepare
    const query = makeQuery({ expected_module: null, expected_chapter: 'ch3-gazebo' });

    // Act
    const { result } = judge(query, [hit('c1', 0.9, ROS_BASICS), hit('c2', 0.8, GAZEBO)]);

    // Assess
    expect(result).toMatchObject({ status: 'PASS', chapter_match: true, criteria_evaluations: { chapter: true } });
  });

  it('evaluates no module or chapter criterion when the query expects none', () => {
    // Act
    const { result } = judge(makeQuery({ expected_module: null }), [hit('c1', 0.9, GAZEBO)]);

    // Assess
    expect([result.criteria_evaluations, result.module_match, result.chapter_match]).toEqual([
      { similarity: true },
      null,
      null,
    ]);
  });

  it('names each module found once, leaving out results without one, or says none', () => {
    // Prepare
    const query = makeQuery({ expected_module: 'Module 3 Isaac' });
    const bare = { ...GAZEBO, module_name: undefined, chapter_id: undefined };
    // A top-level page, in no module, is stored with an empty module name.
    const topLevel = { ...GAZEBO, module_name: '', chapter_id: ' ' };

    // Act
    const some = judge(query, [hit('c1', 0.9, GAZEBO), hit('c2', 0.85, GAZEBO), hit('c3', 0.8, bare)]).result;
    const none = judge(query, [hit('c1', 0.9, bare)]).result;
    const empty = judge(query, [hit('c1', 0.9, GAZEBO), hit('c2', 0.85, topLevel)]).result;
    const onlyEmpty = judge({ ...query, expected_chapter: 'ch9-missing' }, [hit('c1', 0.9, topLevel)]).result;

    // Assess
    expect([some.fail_reason, none.fail_reason, empty.fail_reason, onlyEmpty.fail_reason]).toEqual([
      "expected module 'Module 3 Isaac' not in top 3 (got: Module 2 Simulation)",
      "expected module 'Module 3 Isaac' not in top 1 (got: none)",
      "expected module 'Module 3 Isaac' not in top 2 (got: Module 2 Simulation)",
      "expected module 'Module 3 Isaac' not in top 1 (got: none); expected chapter 'ch9-missing' not in top 1 (got: none)",
    ]);
  });

  it('lists the chapters found in a chapter mismatch', () => {
    // Prepare
    const query = makeQuery({ expected_module: null, expected_chapter: 'ch9-missing' });

    // Act
    const { errors } = judge(query, [hit('c1', 0.9, ROS_BASICS), hit('c2', 0.8, GAZEBO)]);

    // Assess
    expect(errors.map((e) => [e.message, e.details.found_chapters])).toEqual([
      [
        "Query 'q1': expected chapter 'ch9-missing' not in top 2 (got: module-1-ros2/ch1-ros2-basics, module-2-simulation/ch3-gazebo)",
        ['module-1-ros2/ch1-ros2-basics', 'module-2-simulation/ch3-gazebo'],
      ],
    ]);
  });

  it('gives the best similarity in the pass reason when no chunk is judged relevant', () => {
    // Prepare: the judged chunk z was not retrieved.
    const query = makeQuery({ relevant: [{ kind: 'chunk_id', target: 'z', grade: 1 }] });

    // Act
    const { result } = judge(query, [hit('c1', 0.75, ROS_BASICS), hit('c2', 0.85, ROS_BASICS)]);

    // Assess
    expect(result.pass_reason?.startsWith('Best similarity 0.85 >= 0.70')).toBe(true);
  });

  it('names the expected module on its own in the pass reason when the relevant chunk is elsewhere', () => {
    // Prepare: the judged chunk is the Gazebo one; the module expectation is met by the other.
    const query = makeQuery({ relevant: [{ kind: 'chunk_id', target: 'c2', grade: 1 }] });

    // Act
    const { result } = judge(query, [hit('c1', 0.9, ROS_BASICS), hit('c2', 0.8, GAZEBO)]);

    // Assess
    expect(result.pass_reason).toBe("Found relevant chunk (similarity=0.80); expected module 'Module 1 Ros2' in top 2");
  });
});

describe('judgeQuery: the words and details of each finding (from its mutation survivors)', () => {
  const CATALOG = { modules: ['Module 1 Ros2', 'Module 2 Simulation'], chapters: ['module-1-ros2/ch1-ros2-basics'] };

  it('says an expected module or chapter the index does not have is not in the index, and one it has is not found', () => {
    // Prepare: both expectations miss; the first names what the index lacks, the second what it has elsewhere.
    const hits = [hit('1', 0.85, GAZEBO)];
    const unknown = makeQuery({ expected_module: 'Module 9 Nowhere', expected_chapter: 'ch9-nowhere' });
    const known = makeQuery({ expected_module: 'Module 1 Ros2', expected_chapter: 'ch1-ros2-basics' });

    // Act
    const a = judge(unknown, hits, { catalog: CATALOG });
    const b = judge(known, hits, { catalog: CATALOG });
    const c = judge(unknown, hits);

    // Assess
    expect(a.result.fail_reason).toBe(
      "expected module 'Module 9 Nowhere' is not in the index (known modules: Module 1 Ros2, Module 2 Simulation); " +
        "expected chapter 'ch9-nowhere' is not in the index (known chapters: module-1-ros2/ch1-ros2-basics)",
    );
    expect(b.result.fail_reason).toBe(
      "expected module 'Module 1 Ros2' not in top 1 (got: Module 2 Simulation); " +
        "expected chapter 'ch1-ros2-basics' not in top 1 (got: module-2-simulation/ch3-gazebo)",
    );
    // Without a catalog there is nothing to say the index lacks.
    expect(c.result.fail_reason).toBe(
      "expected module 'Module 9 Nowhere' not in top 1 (got: Module 2 Simulation); " +
        "expected chapter 'ch9-nowhere' not in top 1 (got: module-2-simulation/ch3-gazebo)",
    );
    expect(a.errors.map((e) => e.details)).toEqual([
      { query_text: 'What is ROS 2?', expected_module: 'Module 9 Nowhere', found_modules: ['Module 2 Simulation'] },
      {
        query_text: 'What is ROS 2?',
        expected_chapter: 'ch9-nowhere',
        found_chapters: ['module-2-simulation/ch3-gazebo'],
      },
    ]);
  });

  it('names the missing expected sources, how many were found, and the precision found against the one asked', () => {
    const query = makeQuery({
      expected_module: null,
      min_similarity: 0.5,
      expected_sources: ['/docs/module-1-ros2/ch1-ros2-basics', '/docs/module-3/ch9'],
      criteria: { require_expected_sources: true, min_precision: 0.6 },
    });
    const { result, errors } = judge(query, [hit('1', 0.85, ROS_BASICS), hit('2', 0.8, GAZEBO)]);
    expect(result.fail_reason).toBe(
      'expected sources not in top 2: /docs/module-3/ch9 (1/2 found); precision@5 0.20 < 0.60',
    );
    expect(errors.map((e) => [e.error_type, e.severity])).toEqual([
      ['MISSING_EXPECTED_SOURCE', 'MEDIUM'],
      ['LOW_PRECISION', 'MEDIUM'],
    ]);
  });

  it('gives a failed search its own type at HIGH with its time, and an unknown filter METADATA_MISMATCH naming it', () => {
    const failed = judge(makeQuery(), null, { failure: { errorType: 'TIMEOUT', message: 'Qdrant timed out' } });
    expect(failed.errors).toEqual([
      {
        id: 'e1',
        validation_id: 'q1',
        error_type: 'TIMEOUT',
        message: "Query 'q1': Qdrant timed out",
        severity: 'HIGH',
        details: { query_text: 'What is ROS 2?', total_ms: 151 },
      },
    ]);
    expect(failed.result.criteria_evaluations).toEqual({});
    const filters = { module: 'Module 9' };
    const unknown = judge(makeQuery({ filters }), null, {
      unknownFilters: ["module 'Module 9' is not in the index", "chapter 'x' is not in the index"],
    });
    expect(unknown.errors).toEqual([
      {
        id: 'e1',
        validation_id: 'q1',
        error_type: 'METADATA_MISMATCH',
        message:
          "Query 'q1': not searched: filter module 'Module 9' is not in the index; filter chapter 'x' is not in the index",
        severity: 'HIGH',
        details: {
          query_text: 'What is ROS 2?',
          filters,
          unknown_filters: ["module 'Module 9' is not in the index", "chapter 'x' is not in the index"],
        },
      },
    ]);
    expect(unknown.result.status).toBe('ERROR');
  });

  it('fails a probe on its best result, naming its score and URL; passes one under the bar; says when nothing came back', () => {
    const probe = makeQuery({ expect_match: false, expected_module: null, min_similarity: 0.5 });
    const matched = judge(probe, [hit('2', 0.3, GAZEBO), hit('1', 0.61, { ...ROS_BASICS, source_url: undefined })]);
    expect(matched.errors).toEqual([
      {
        id: 'e1',
        validation_id: 'q1',
        error_type: 'UNEXPECTED_MATCH',
        message: "Query 'q1': out-of-domain probe matched: best similarity 0.61 >= 0.50 (no URL)",
        severity: 'MEDIUM',
        details: { query_text: 'What is ROS 2?', best_similarity: 0.61, min_similarity: 0.5 },
      },
    ]);
    const clear = judge(probe, [hit('2', 0.3, GAZEBO), hit('1', 0.45, ROS_BASICS)]);
    expect(clear.result.pass_reason).toBe('Out-of-domain probe: best similarity 0.45 < 0.50');
    const empty = judge(makeQuery({ filters: { module: 'Module 1 Ros2' } }), []);
    expect(empty.errors[0]?.details).toEqual({
      query_text: 'What is ROS 2?',
      top_k: 5,
      filters: { module: 'Module 1 Ros2' },
    });
  });

  it('judges only the top_k of a deeper search, and reports benchmark metrics only when the suite asks for them', () => {
    const hits = [hit('1', 0.9, ROS_BASICS), hit('2', 0.8, GAZEBO), hit('3', 0.7, GAZEBO)];
    const { result } = judge(makeQuery({ top_k: 2, min_similarity: 0.5 }), hits);
    expect(result.top_results.map((r) => r.chunk_id)).toEqual(['1', '2']);
    expect(result).not.toHaveProperty('benchmark_metrics');
  });

  it('in a pass, names the best relevant chunk, and each expectation that chunk does not hold itself', () => {
    // Prepare: the suite's judgments make the Gazebo page the relevant one; the module and chapter are met by another.
    const query = makeQuery({
      min_similarity: 0.5,
      expected_chapter: 'ch1-ros2-basics',
      expected_sources: ['/docs/module-2-simulation/ch3-gazebo'],
    });
    const hits = [hit('1', 0.9, GAZEBO), hit('2', 0.6, ROS_BASICS)];
    const unnamed = makeQuery({ min_similarity: 0.5, expected_module: null, expected_sources: query.expected_sources });

    // Act
    const { result } = judge(query, hits);
    const plain = judge(unnamed, hits).result;

    // Assess
    expect(result.pass_reason).toBe(
      "Found relevant chunk (similarity=0.90); expected module 'Module 1 Ros2' in top 2; expected chapter 'ch1-ros2-basics' in top 2; 1/1 expected sources found",
    );
    expect(plain.pass_reason).toBe('Found relevant chunk (similarity=0.90); 1/1 expected sources found');
  });

  it('lists every module found and every source missing; names the criteria of a probe and of an unknown filter', () => {
    const expectations = makeQuery({
      min_similarity: 0.5,
      expected_module: 'Module 3 Isaac',
      expected_sources: ['/docs/a', '/docs/b'],
      criteria: { require_expected_sources: true },
    });
    const both = judge(expectations, [hit('1', 0.9, ROS_BASICS), hit('2', 0.8, GAZEBO)]).result;
    expect(both.fail_reason).toBe(
      "expected module 'Module 3 Isaac' not in top 2 (got: Module 1 Ros2, Module 2 Simulation); " +
        'expected sources not in top 2: /docs/a, /docs/b (0/2 found)',
    );
    const probe = judge(makeQuery({ expect_match: false, expected_module: null }), [hit('1', 0.3, GAZEBO)]).result;
    expect(probe.criteria_evaluations).toEqual({ probe: true });
    const filtered = judge(makeQuery(), null, { unknownFilters: ["module 'x' is not in the index"] }).result;
    expect(filtered.criteria_evaluations).toEqual({ filters: false });
    // Not searched: no ranking to score.
    expect(filtered.metrics).toBeNull();
  });

  it('passes on a chapter met without any chunk judged relevant, and says no chunk was', () => {
    const query = makeQuery({
      min_similarity: 0.5,
      expected_module: null,
      expected_chapter: 'ch1-ros2-basics',
      expected_sources: ['/docs/elsewhere'],
    });
    const { result } = judge(query, [hit('1', 0.9, ROS_BASICS)]);
    expect(result.pass_reason).toBe(
      "Best similarity 0.90 >= 0.50; expected chapter 'ch1-ros2-basics' in top 1; no chunk judged relevant; 0/1 expected sources found",
    );
  });

  it('scores the suite’s benchmark metrics over the whole deeper search, at each cut-off, and none when not searched', () => {
    // Prepare: the relevant page is at rank 3, past top_k 2 but within the search of 3.
    const query = makeQuery({
      top_k: 2,
      min_similarity: 0.5,
      expected_module: null,
      expected_sources: ['/docs/module-1-ros2/ch1-ros2-basics'],
      benchmark_metrics: ['recall@3', 'mrr', 'hit_rate@2'],
      search_limit: 3,
    });
    const hits = [hit('1', 0.9, GAZEBO), hit('2', 0.8, GAZEBO), hit('3', 0.7, ROS_BASICS)];

    // Act
    const { result } = judge(query, hits);
    const notSearched = judge(query, null, { unknownFilters: ["module 'x' is not in the index"] }).result;

    // Assess: mrr without a cut-off is taken at the search's depth (3), so it sees rank 3.
    expect(result.benchmark_metrics).toEqual({ 'recall@3': 1, mrr: 0.3333, 'hit_rate@2': 0 });
    expect(result.top_results).toHaveLength(2);
    expect(notSearched.benchmark_metrics).toBeNull();
  });
});
