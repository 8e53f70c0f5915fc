import { describe, expect, it } from 'vitest';
import {
  answerQuestion,
  NO_RELEVANT_DOCUMENTS_ANSWER,
  scoreConfidence,
} from '../../../functions/core/grounding/agent.ts';
import { createRetrievalTool } from '../../../functions/core/grounding/retrieval-tool.ts';
import type { ChatReply, SearchHit } from '../../../functions/core/ports.ts';
import { ChatError, EmbeddingError } from '../../../functions/core/shared/errors.ts';
import {
  createFakeChat,
  createFakeClock,
  createFakeEmbedder,
  createFakeIndex,
  createIdSequence,
  hit,
} from '../../agent/fakes.ts';

const HITS = [
  hit('c1', 0.9, 'Topics carry messages between nodes.'),
  hit('c2', 0.8, 'A publisher sends on a topic.'),
  hit('c3', 0.4, 'Launch files start many nodes.'),
];
const ANSWER_TEXT = 'Topics carry messages between nodes. A publisher sends on a topic.';
const REPLY: ChatReply = {
  text: ANSWER_TEXT,
  citations: [
    { start: 0, end: 36, text: 'Topics carry messages between nodes.', documentIds: ['c1'] },
    { start: 37, end: 66, text: 'A publisher sends on a topic.', documentIds: ['c2'] },
  ],
  billedUnits: { inputTokens: 120, outputTokens: 14 },
};

function setUp(options: { hits?: SearchHit[]; reply?: ChatReply | Error } = {}) {
  const index = createFakeIndex(options.hits ?? HITS);
  const chat = createFakeChat(options.reply ?? REPLY);
  const clock = createFakeClock();
  const tool = createRetrievalTool({ embedder: createFakeEmbedder(), index, clock });
  return { index, chat, tool, clock, newId: createIdSequence() };
}

const QUESTION = { id: 'topics', query_text: 'How do topics work?', expect_answer: true };

describe('answerQuestion', () => {
  it('gives the chat model only the chunks at or above min relevance, as documents with their ids', async () => {
    // Prepare
    const deps = setUp();

    // Act
    await answerQuestion({ ...deps, query: QUESTION, topK: 5, minRelevance: 0.5 });

    // Assess
    expect(deps.chat.requests).toEqual([
      {
        question: 'How do topics work?',
        documents: [
          { id: 'c1', text: 'Topics carry messages between nodes.' },
          { id: 'c2', text: 'A publisher sends on a topic.' },
        ],
      },
    ]);
  });

  it('returns the seed’s Agent Response for a grounded answer, with its verdict, cited chunks and billed tokens', async () => {
    // Prepare
    const deps = setUp();

    // Act
    const response = await answerQuestion({ ...deps, query: QUESTION, topK: 5, minRelevance: 0.5 });

    // Assess
    expect(response).toMatchObject({
      response_text: ANSWER_TEXT,
      response_id: 'r1',
      query_id: 'topics',
      query_text: 'How do topics work?',
      source_chunks: ['c1', 'c2'],
      status: 'ANSWERED',
      error: null,
      citations: [
        { start: 0, end: 36, text: 'Topics carry messages between nodes.', document_ids: ['c1'] },
        { start: 37, end: 66, text: 'A publisher sends on a topic.', document_ids: ['c2'] },
      ],
      retrieved: {
        chunk_ids: ['c1', 'c2', 'c3'],
        relevance_scores: [0.9, 0.8, 0.4],
        min_relevance: 0.5,
        relevant_chunk_ids: ['c1', 'c2'],
      },
      token_usage: { input_tokens: 120, output_tokens: 14 },
      grounding_validation: { passed: true, error_type: null, citation_coverage: 1 },
    });
    expect(response.confidence_score).toBeCloseTo(0.85);
  });

  it('passes the top_k and the query’s filters to the retrieval tool', async () => {
    // Prepare
    const deps = setUp();

    // Act
    await answerQuestion({
      ...deps,
      query: { ...QUESTION, filters: { chapter: 'topics' } },
      topK: 7,
      minRelevance: 0.5,
    });

    // Assess
    expect(deps.index.requests[0]).toMatchObject({
      limit: 7,
      filter: { must: [{ key: 'chapter_id', match: { value: 'topics' } }] },
    });
  });

  it('judges a citation of a retrieved chunk that was under min relevance as not grounded', async () => {
    // Prepare
    const reply: ChatReply = {
      ...REPLY,
      citations: [{ start: 0, end: 36, text: 'Topics carry messages between nodes.', documentIds: ['c3'] }],
    };
    const deps = setUp({ reply });

    // Act
    const response = await answerQuestion({ ...deps, query: QUESTION, topK: 5, minRelevance: 0.5 });

    // Assess
    expect(response.grounding_validation).toMatchObject({ passed: false, unknown_chunk_ids: ['c3'] });
    expect(response.confidence_score).toBe(0);
  });

  it('abstains with NO_RELEVANT_DOCUMENTS and never calls chat when nothing reaches min relevance', async () => {
    // Prepare
    const deps = setUp();

    // Act
    const response = await answerQuestion({
      ...deps,
      query: { ...QUESTION, expect_answer: false },
      topK: 5,
      minRelevance: 0.95,
    });

    // Assess
    expect(deps.chat.requests).toEqual([]);
    expect(response).toMatchObject({
      status: 'NO_RELEVANT_DOCUMENTS',
      response_text: NO_RELEVANT_DOCUMENTS_ANSWER,
      source_chunks: [],
      confidence_score: 0,
      token_usage: { input_tokens: 0, output_tokens: 0 },
      // The gate abstained, not the model: reported as gated, its abstention not graded (NOT_APPLICABLE).
      grounding_validation: {
        passed: true,
        abstained: true,
        gated: true,
        abstention_correct: false,
        error_type: null,
        checks: { abstention: 'NOT_APPLICABLE' },
      },
    });
  });

  it('marks its own abstention on an answerable question NO_RELEVANT_DOCUMENTS in the verdict too', async () => {
    // Prepare
    const deps = setUp({ hits: [] });

    // Act
    const response = await answerQuestion({ ...deps, query: QUESTION, topK: 5, minRelevance: 0.5 });

    // Assess
    expect(response.grounding_validation).toMatchObject({ passed: false, error_type: 'NO_RELEVANT_DOCUMENTS' });
  });

  it('treats a relevant-scoring chunk with empty text as no evidence', async () => {
    // Prepare
    const deps = setUp({ hits: [hit('c1', 0.9, '   ')] });

    // Act
    const response = await answerQuestion({ ...deps, query: QUESTION, topK: 5, minRelevance: 0.5 });

    // Assess
    expect(response.status).toBe('NO_RELEVANT_DOCUMENTS');
    expect(deps.chat.requests).toEqual([]);
  });

  it('reports a retrieval failure as RETRIEVAL_FAILED with the failure kind and no verdict', async () => {
    // Prepare
    const deps = setUp();
    const tool = {
      ...deps.tool,
      retrieve: () => Promise.reject(new EmbeddingError('Cohere embed was rate limited (429)', 'rate_limited')),
    };

    // Act
    const response = await answerQuestion({ ...deps, tool, query: QUESTION, topK: 5, minRelevance: 0.5 });

    // Assess
    expect(response).toMatchObject({
      status: 'RETRIEVAL_FAILED',
      error: { stage: 'retrieval', kind: 'rate_limited', message: 'Cohere embed was rate limited (429)' },
      grounding_validation: null,
      response_text: '',
    });
    expect(deps.chat.requests).toEqual([]);
  });

  it('reports a chat failure as CHAT_FAILED with the ChatError kind, keeping what was retrieved', async () => {
    // Prepare
    const deps = setUp({ reply: new ChatError('Cohere chat timed out', 'timeout') });

    // Act
    const response = await answerQuestion({ ...deps, query: QUESTION, topK: 5, minRelevance: 0.5 });

    // Assess
    expect(response).toMatchObject({
      status: 'CHAT_FAILED',
      error: { stage: 'chat', kind: 'timeout', message: 'Cohere chat timed out' },
      grounding_validation: null,
      retrieved: { relevant_chunk_ids: ['c1', 'c2'] },
    });
  });

  it('records a failure that is not a service error with a null kind', async () => {
    // Prepare
    const deps = setUp({ reply: new TypeError('boom') });

    // Act
    const response = await answerQuestion({ ...deps, query: QUESTION, topK: 5, minRelevance: 0.5 });

    // Assess
    expect(response.error).toEqual({ stage: 'chat', kind: null, message: 'boom' });
  });

  it('measures retrieval and chat time on the monotonic clock', async () => {
    // Prepare
    const deps = setUp();
    const search = deps.index.searchBatch;
    deps.index.searchBatch = (requests) => {
      deps.clock.advance(25);
      return search(requests);
    };
    const chat = deps.chat.chat;
    deps.chat.chat = (request) => {
      deps.clock.advance(400);
      return chat(request);
    };

    // Act
    const response = await answerQuestion({ ...deps, query: QUESTION, topK: 5, minRelevance: 0.5 });

    // Assess
    expect(response.latency).toEqual({ retrieval_ms: 25, chat_ms: 400, total_ms: 425 });
    expect(response.timestamp).toBe('2026-03-14T02:00:00.425Z');
  });
});

describe('answerQuestion: thresholds and timings', () => {
  /** Deps whose search takes 25 ms and whose chat takes 400 ms on the fake clock. */
  function timed(options: { hits?: SearchHit[]; reply?: ChatReply | Error } = {}) {
    const deps = setUp(options);
    const search = deps.index.searchBatch;
    deps.index.searchBatch = (requests) => {
      deps.clock.advance(25);
      return search(requests);
    };
    const chat = deps.chat.chat;
    deps.chat.chat = (request) => {
      deps.clock.advance(400);
      return chat(request);
    };
    return deps;
  }

  it('gives the chat model a chunk scoring exactly min relevance', async () => {
    // Prepare
    const deps = setUp();

    // Act
    const response = await answerQuestion({ ...deps, query: QUESTION, topK: 5, minRelevance: 0.8 });

    // Assess
    expect(response.retrieved.relevant_chunk_ids).toEqual(['c1', 'c2']);
  });

  it('judges the answer against the minimum coverage it is given', async () => {
    // Prepare: the reply cites only its first sentence of two (coverage 0.5).
    const reply: ChatReply = { ...REPLY, citations: REPLY.citations.slice(0, 1) };

    // Act
    const strict = await answerQuestion({
      ...setUp({ reply }),
      query: QUESTION,
      topK: 5,
      minRelevance: 0.5,
      minCoverage: 0.6,
    });
    const lenient = await answerQuestion({ ...setUp({ reply }), query: QUESTION, topK: 5, minRelevance: 0.5 });

    // Assess
    expect(strict.grounding_validation).toMatchObject({
      min_citation_coverage: 0.6,
      checks: { sentence_coverage: 'FAIL' },
    });
    expect(lenient.grounding_validation).toMatchObject({
      min_citation_coverage: 0.5,
      checks: { sentence_coverage: 'PASS' },
    });
  });

  it('times an abstention for want of relevant chunks as retrieval only', async () => {
    // Act
    const response = await answerQuestion({ ...timed(), query: QUESTION, topK: 5, minRelevance: 0.95 });

    // Assess
    expect(response).toMatchObject({
      status: 'NO_RELEVANT_DOCUMENTS',
      latency: { retrieval_ms: 25, chat_ms: 0, total_ms: 25 },
      retrieved: { chunk_ids: ['c1', 'c2', 'c3'], relevant_chunk_ids: [], min_relevance: 0.95 },
    });
  });

  it('times a failed chat call as retrieval plus chat', async () => {
    // Act
    const response = await answerQuestion({
      ...timed({ reply: new ChatError('Cohere chat timed out', 'timeout') }),
      query: QUESTION,
      topK: 5,
      minRelevance: 0.5,
    });

    // Assess
    expect(response.latency).toEqual({ retrieval_ms: 25, chat_ms: 400, total_ms: 425 });
  });

  it('times a failed retrieval up to its failure, with nothing retrieved', async () => {
    // Prepare
    const deps = setUp();
    const tool = {
      ...deps.tool,
      retrieve: () => {
        deps.clock.advance(30);
        return Promise.reject(new EmbeddingError('Cohere embed failed', 'unavailable'));
      },
    };

    // Act
    const response = await answerQuestion({ ...deps, tool, query: QUESTION, topK: 5, minRelevance: 0.5 });

    // Assess
    expect(response).toMatchObject({
      latency: { retrieval_ms: 0, chat_ms: 0, total_ms: 30 },
      retrieved: { chunk_ids: [], relevance_scores: [], min_relevance: 0.5, relevant_chunk_ids: [] },
    });
  });
});

describe('scoreConfidence', () => {
  it('is the mean score of the cited chunks, clamped to 0..1, and 0 when none of them was given', () => {
    // Prepare
    const given = [
      { id: 'a', score: 0.6 },
      { id: 'b', score: 0.8 },
      { id: 'c', score: 1.2 },
    ];

    // Act
    const scores = [scoreConfidence(['a', 'b'], given), scoreConfidence(['c'], given), scoreConfidence(['x'], given)];

    // Assess
    expect(scores[0]).toBeCloseTo(0.7);
    expect(scores.slice(1)).toEqual([1, 0]);
  });
});
