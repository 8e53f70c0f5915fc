import { describe, expect, it } from 'vitest';
import { answerAgentQuestions } from '../../functions/core/grounding/answer-agent-questions.ts';
import { createRetrievalTool } from '../../functions/core/grounding/retrieval-tool.ts';
import type { ChatModel, ChatReply } from '../../functions/core/ports.ts';
import { GroundingReport } from '../../functions/core/report/grounding-report.ts';
import { ChatError, DeadlineError, EmbeddingError } from '../../functions/core/shared/errors.ts';
import { createFakeClock, createFakeEmbedder, createFakeIndex, createIdSequence, hit } from './fakes.ts';

const TEXT = 'Topics carry messages between nodes.';
const GROUNDED: ChatReply = {
  text: TEXT,
  citations: [{ start: 0, end: TEXT.length, text: TEXT, documentIds: ['c1'] }],
  billedUnits: { inputTokens: 100, outputTokens: 10 },
};
const UNCITED: ChatReply = { ...GROUNDED, citations: [] };
const ABSTAINED: ChatReply = {
  text: 'I could not find information about that in the provided documents.',
  citations: [],
  billedUnits: { inputTokens: 90, outputTokens: 12 },
};

/** A chat model that answers each question as scripted. */
function scriptedChat(script: Record<string, ChatReply | Error>): ChatModel & { asked: string[] } {
  const asked: string[] = [];
  return {
    model: 'scripted',
    asked,
    async chat({ question }) {
      asked.push(question);
      const reply = script[question];
      if (reply === undefined) throw new Error(`no script for "${question}"`);
      if (reply instanceof Error) throw reply;
      return reply;
    },
  };
}

function query(id: string, overrides: { agent?: boolean; expect_answer?: boolean } = {}) {
  return {
    id,
    query_text: `question ${id}`,
    agent: overrides.agent ?? true,
    expect_answer: overrides.expect_answer ?? true,
    top_k: 5,
    min_similarity: 0.5,
    filters: {},
  };
}

function deps(chat: ChatModel) {
  const clock = createFakeClock();
  const tool = createRetrievalTool({
    embedder: createFakeEmbedder(),
    index: createFakeIndex([hit('c1', 0.9, TEXT)]),
    clock,
  });
  return { tool, chat, clock, newId: createIdSequence('id') };
}

describe('answerAgentQuestions', () => {
  it('runs only queries marked agent, the first maxAgentQueries of them in suite order, and counts the rest as capped', async () => {
    // Prepare
    const chat = scriptedChat({ 'question a': GROUNDED, 'question c': GROUNDED });
    const queries = [query('a'), query('b', { agent: false }), query('c'), query('d'), query('e')];

    // Act
    const { report } = await answerAgentQuestions({ ...deps(chat), queries, maxAgentQueries: 2 });

    // Assess
    expect(chat.asked).toEqual(['question a', 'question c']);
    expect(report).toMatchObject({ agent_queries: 4, evaluated: 2, capped: 2, max_agent_queries: 2 });
  });

  it('sorts every outcome into exactly one count and computes both rates over their own questions', async () => {
    // Prepare
    const chat = scriptedChat({
      'question grounded': GROUNDED,
      'question uncited': UNCITED,
      'question gave-up': ABSTAINED,
      'question refused': ABSTAINED,
      'question invented': GROUNDED,
      'question down': new ChatError('Cohere chat (scripted) failed with HTTP 500: boom', 'unavailable'),
    });
    const queries = [
      query('grounded'),
      query('uncited'),
      query('gave-up'),
      query('refused', { expect_answer: false }),
      query('invented', { expect_answer: false }),
      query('down'),
    ];

    // Act
    const { report } = await answerAgentQuestions({ ...deps(chat), queries, maxAgentQueries: 10 });

    // Assess
    expect(report).toMatchObject({
      grounded: 1,
      ungrounded: 1,
      unnecessary_abstentions: 1,
      abstentions_correct: 1,
      abstentions_incorrect: 1,
      errors: 1,
      abstention_correct_rate: 50,
    });
    expect(report.grounded_rate).toBeCloseTo(100 / 3);
  });

  it('turns each failing outcome into a ValidationError with its type and severity, and passing ones into none', async () => {
    // Prepare
    const chat = scriptedChat({
      'question grounded': GROUNDED,
      'question uncited': UNCITED,
      'question gave-up': ABSTAINED,
      'question refused': ABSTAINED,
      'question invented': GROUNDED,
      'question slow': new ChatError('Cohere chat (scripted) timed out', 'timeout'),
      'question limited': new ChatError('Cohere chat (scripted) failed with HTTP 429: slow down', 'rate_limited'),
    });
    const queries = ['grounded', 'uncited', 'gave-up', 'slow', 'limited'].map((id) => query(id));
    queries.push(query('refused', { expect_answer: false }), query('invented', { expect_answer: false }));

    // Act
    const { errors } = await answerAgentQuestions({ ...deps(chat), queries, maxAgentQueries: 10 });

    // Assess
    expect(errors.map((e) => [e.validation_id, e.error_type, e.severity])).toEqual([
      ['uncited', 'GROUNDING_FAILED', 'HIGH'],
      ['gave-up', 'NO_RELEVANT_DOCUMENTS', 'MEDIUM'],
      ['slow', 'TIMEOUT', 'HIGH'],
      ['limited', 'RETRIEVAL_FAILED', 'HIGH'],
      ['invented', 'GROUNDING_FAILED', 'HIGH'],
    ]);
  });

  it('says in the message what broke, for which query, and why', async () => {
    // Prepare
    const chat = scriptedChat({ 'question uncited': UNCITED, 'question invented': GROUNDED });
    const queries = [query('uncited'), query('invented', { expect_answer: false })];

    // Act
    const { errors } = await answerAgentQuestions({ ...deps(chat), queries, maxAgentQueries: 10 });

    // Assess
    expect(errors.map((e) => e.message)).toEqual([
      'The answer to agent query "uncited" is not grounded: the answer cites no retrieved chunk; 0 of 1 sentences carry a valid citation (coverage under 0.5)',
      'The agent did not abstain on agent query "invented", which the book cannot answer: the agent answered a question the book cannot answer',
    ]);
  });

  it('records a chat failure’s stage and kind in the error details', async () => {
    // Prepare
    const chat = scriptedChat({ 'question a': new ChatError('Cohere chat failed with HTTP 429', 'rate_limited') });

    // Act
    const { errors } = await answerAgentQuestions({ ...deps(chat), queries: [query('a')], maxAgentQueries: 10 });

    // Assess
    expect(errors[0]).toMatchObject({
      id: 'id2',
      validation_id: 'a',
      message: 'Chat failed (rate_limited) for agent query "a": Cohere chat failed with HTTP 429',
      details: { query_id: 'a', response_id: 'id1', status: 'CHAT_FAILED', stage: 'chat', kind: 'rate_limited' },
    });
  });

  it('abstains without chat when retrieval finds nothing relevant, and says so in the error for an answerable question', async () => {
    // Prepare
    const chat = scriptedChat({});

    // Act
    const { report, errors } = await answerAgentQuestions({
      ...deps(chat),
      queries: [query('a')],
      maxAgentQueries: 10,
      minRelevance: 0.95,
    });

    // Assess
    expect(chat.asked).toEqual([]);
    expect(report.unnecessary_abstentions).toBe(1);
    expect(errors[0]?.message).toBe(
      'No retrieved chunk reached relevance 0.95 for agent query "a", which the book can answer',
    );
  });

  it('sums billed tokens over every chat call', async () => {
    // Prepare
    const chat = scriptedChat({ 'question a': GROUNDED, 'question b': ABSTAINED });

    // Act
    const { report } = await answerAgentQuestions({
      ...deps(chat),
      queries: [query('a'), query('b')],
      maxAgentQueries: 10,
    });

    // Assess
    expect(report.token_usage).toEqual({ input_tokens: 190, output_tokens: 22 });
  });

  it('leaves both rates null when no agent query produced a verdict of their kind', async () => {
    // Prepare
    const chat = scriptedChat({});

    // Act
    const { report } = await answerAgentQuestions({ ...deps(chat), queries: [query('a')], maxAgentQueries: 0 });

    // Assess
    expect(report).toMatchObject({ evaluated: 0, capped: 1, grounded_rate: null, abstention_correct_rate: null });
  });

  it('produces a report that its own schema accepts', async () => {
    // Prepare
    const chat = scriptedChat({ 'question a': GROUNDED, 'question b': new ChatError('down', 'unavailable') });

    // Act
    const { report } = await answerAgentQuestions({
      ...deps(chat),
      queries: [query('a'), query('b')],
      maxAgentQueries: 10,
    });

    // Assess
    expect(GroundingReport.safeParse(report).error).toBeUndefined();
  });

  it('says the agent itself abstained on an answerable question it had chunks for', async () => {
    // Prepare
    const chat = scriptedChat({ 'question gave-up': ABSTAINED });

    // Act
    const { errors } = await answerAgentQuestions({ ...deps(chat), queries: [query('gave-up')], maxAgentQueries: 10 });

    // Assess
    expect(errors.map((e) => e.message)).toEqual([
      'The agent abstained on agent query "gave-up", which the book can answer',
    ]);
  });

  it('reports a failed retrieval as RETRIEVAL_FAILED naming the retrieval stage and its kind', async () => {
    // Prepare
    const base = deps(scriptedChat({}));
    const tool = {
      ...base.tool,
      retrieve: () => Promise.reject(new EmbeddingError('Cohere embed failed', 'unavailable')),
    };

    // Act
    const { errors } = await answerAgentQuestions({ ...base, tool, queries: [query('a')], maxAgentQueries: 10 });

    // Assess
    expect(errors.map((e) => [e.error_type, e.severity, e.message])).toEqual([
      ['RETRIEVAL_FAILED', 'HIGH', 'Retrieval failed (unavailable) for agent query "a": Cohere embed failed'],
    ]);
  });

  it('reports a retrieval that timed out as TIMEOUT, as a chat that timed out is, naming the retrieval stage', async () => {
    // Prepare
    const base = deps(scriptedChat({}));
    const tool = {
      ...base.tool,
      retrieve: () => Promise.reject(new EmbeddingError('Cohere embed timed out after 2 s', 'timeout')),
    };

    // Act
    const { errors } = await answerAgentQuestions({ ...base, tool, queries: [query('a')], maxAgentQueries: 10 });

    // Assess
    expect(errors.map((e) => [e.error_type, e.severity, e.message, e.details])).toEqual([
      [
        'TIMEOUT',
        'HIGH',
        'Retrieval failed (timeout) for agent query "a": Cohere embed timed out after 2 s',
        expect.objectContaining({ status: 'RETRIEVAL_FAILED', stage: 'retrieval', kind: 'timeout' }),
      ],
    ]);
  });

  it('names the kind of a failure that is not a service error "unexpected"', async () => {
    // Prepare
    const chat = scriptedChat({ 'question a': new TypeError('boom') });

    // Act
    const { errors } = await answerAgentQuestions({ ...deps(chat), queries: [query('a')], maxAgentQueries: 10 });

    // Assess
    expect(errors.map((e) => [e.error_type, e.message])).toEqual([
      ['RETRIEVAL_FAILED', 'Chat failed (unexpected) for agent query "a": boom'],
    ]);
  });

  it('judges every answer against the minimum coverage it is given', async () => {
    // Prepare: two sentences, one cited: coverage 0.5.
    const text = 'Topics carry messages between nodes. They are named.';
    const half: ChatReply = {
      text,
      citations: [{ start: 0, end: TEXT.length, text: TEXT, documentIds: ['c1'] }],
      billedUnits: { inputTokens: 1, outputTokens: 1 },
    };

    // Act
    const strict = await answerAgentQuestions({
      ...deps(scriptedChat({ 'question a': half })),
      queries: [query('a')],
      maxAgentQueries: 10,
      minCoverage: 0.6,
    });
    const lenient = await answerAgentQuestions({
      ...deps(scriptedChat({ 'question a': half })),
      queries: [query('a')],
      maxAgentQueries: 10,
    });

    // Assess
    expect([strict.report.grounded, lenient.report.grounded]).toEqual([0, 1]);
  });
});

describe('answerAgentQuestions: support of claims', () => {
  // 'robots' and 'quickly' are not in the cited chunk: 3 of the span's 5 content words are (0.6).
  const PARTLY = 'Topics carry messages between robots quickly.';
  const partly: ChatReply = {
    text: PARTLY,
    citations: [{ start: 0, end: PARTLY.length, text: PARTLY, documentIds: ['c1'] }],
    billedUnits: { inputTokens: 1, outputTokens: 1 },
  };
  const judge = (minWordSupport: number) =>
    answerAgentQuestions({
      ...deps(scriptedChat({ 'question a': partly })),
      queries: [query('a')],
      maxAgentQueries: 10,
      minWordSupport,
    });

  it('holds a claim supported when its share of found words reaches the minimum it is given', async () => {
    // Act
    const { report, errors } = await judge(0.6);

    // Assess
    expect(report).toMatchObject({ min_word_support: 0.6, claims: 1, supported_claims: 1, support_rate: 100 });
    expect(errors).toEqual([]);
  });

  it('reports a claim under that minimum as one HIGH UNSUPPORTED_CLAIM naming the missing words', async () => {
    // Act
    const { report, errors } = await judge(0.61);

    // Assess
    expect(report).toMatchObject({ min_word_support: 0.61, claims: 1, supported_claims: 0, support_rate: 0 });
    expect(errors.map((e) => [e.error_type, e.severity, e.details?.missing_words])).toEqual([
      ['UNSUPPORTED_CLAIM', 'HIGH', ['robots', 'quickly']],
    ]);
    expect(errors[0]?.message).toMatch(/^The answer to agent query "a" makes an unsupported claim: .*robots.*quickly/);
  });
});

describe('answerAgentQuestions: a finding’s details', () => {
  it('carries the verdict’s reasons, citation coverage and unknown chunk ids of an ungrounded answer', async () => {
    // Prepare: the answer cites a chunk that was never retrieved.
    const stray: ChatReply = {
      text: TEXT,
      citations: [{ start: 0, end: TEXT.length, text: TEXT, documentIds: ['c9'] }],
      billedUnits: { inputTokens: 1, outputTokens: 1 },
    };

    // Act
    const { errors } = await answerAgentQuestions({
      ...deps(scriptedChat({ 'question a': stray })),
      queries: [query('a')],
      maxAgentQueries: 10,
    });

    // Assess
    expect(errors).toHaveLength(1);
    expect(errors[0]?.error_type).toBe('GROUNDING_FAILED');
    expect(errors[0]?.details).toEqual({
      query_id: 'a',
      response_id: 'id1',
      status: 'ANSWERED',
      reasons: [
        'citation 1 (0..36) cites c9, not retrieved for this query',
        '0 of 1 sentences carry a valid citation (coverage under 0.5)',
      ],
      citation_coverage: 0,
      unknown_chunk_ids: ['c9'],
    });
  });

  it('after the agent’s time is up, still grades what needs no chat, and a search it refused is RETRIEVAL_FAILED (deadline)', async () => {
    // Prepare: the index has nothing relevant for "gated"; "searched" would need a search of its own.
    const stop = new AbortController();
    stop.abort(new DeadlineError("the agent's time ran out, 0.5 s before the run's deadline"));
    const clock = createFakeClock();
    const chat = scriptedChat({});
    const tool = createRetrievalTool({
      embedder: createFakeEmbedder(),
      index: createFakeIndex([hit('c1', 0.9, TEXT)]),
      clock,
      prefetched: (args) => (args.query === 'question gated' ? [hit('c2', 0.1, 'Unrelated.')] : undefined),
      stop: stop.signal,
    });

    // Act
    const { report, errors } = await answerAgentQuestions({
      tool,
      chat,
      clock,
      newId: createIdSequence('id'),
      queries: [query('gated', { expect_answer: false }), query('searched')],
      maxAgentQueries: 10,
      stop: stop.signal,
    });

    // Assess
    expect(chat.asked).toEqual([]);
    expect(report.responses.map((r) => [r.status, r.error?.stage ?? null, r.error?.kind ?? null])).toEqual([
      ['NO_RELEVANT_DOCUMENTS', null, null],
      ['RETRIEVAL_FAILED', 'retrieval', 'deadline'],
    ]);
    expect(report.abstentions_gated).toBe(1);
    expect(report.deadline_cut?.questions_not_answered).toEqual(['searched']);
    expect(errors).toEqual([]);
  });

  it('reports a failure before the agent’s time is up as the service’s, with its own finding', async () => {
    const stop = new AbortController();
    const chat = scriptedChat({ 'question a': new ChatError('Cohere chat (scripted) timed out', 'timeout') });
    const { report, errors } = await answerAgentQuestions({
      ...deps(chat),
      queries: [query('a')],
      maxAgentQueries: 10,
      stop: stop.signal,
    });
    expect(report.responses[0]?.error?.kind).toBe('timeout');
    expect(report.deadline_cut).toBeUndefined();
    expect(errors.map((e) => e.error_type)).toEqual(['TIMEOUT']);
  });

  it('gives a failed turn’s finding its stage and kind, with no reasons, coverage or unknown chunks', async () => {
    const chat = scriptedChat({
      'question down': new ChatError('Cohere chat (scripted) failed with HTTP 500', 'unavailable'),
    });
    const { errors } = await answerAgentQuestions({ ...deps(chat), queries: [query('down')], maxAgentQueries: 1 });
    expect(errors.map((e) => [e.error_type, e.message])).toEqual([
      [
        'RETRIEVAL_FAILED',
        'Chat failed (unavailable) for agent query "down": Cohere chat (scripted) failed with HTTP 500',
      ],
    ]);
    expect(errors[0]?.details).toEqual({
      query_id: 'down',
      response_id: 'id1',
      status: 'CHAT_FAILED',
      reasons: [],
      citation_coverage: null,
      unknown_chunk_ids: [],
      stage: 'chat',
      kind: 'unavailable',
    });
  });

  it('reports only the claims not supported, and holds answers to the coverage and word support it is given', async () => {
    // Prepare: the second sentence cites c1 but says something c1 does not.
    const two = `${TEXT} Services answer requests synchronously.`;
    const reply: ChatReply = {
      text: two,
      citations: [
        { start: 0, end: TEXT.length, text: TEXT, documentIds: ['c1'] },
        { start: TEXT.length + 1, end: two.length, text: two.slice(TEXT.length + 1), documentIds: ['c1'] },
      ],
      billedUnits: { inputTokens: 1, outputTokens: 1 },
    };
    const oneCited: ChatReply = { ...reply, citations: reply.citations.slice(0, 1) };

    // Act
    const mixed = await answerAgentQuestions({
      ...deps(scriptedChat({ 'question a': reply })),
      queries: [query('a')],
      maxAgentQueries: 1,
    });
    const strict = await answerAgentQuestions({
      ...deps(scriptedChat({ 'question a': oneCited })),
      queries: [query('a')],
      maxAgentQueries: 1,
      minCoverage: 1,
      minWordSupport: 0,
    });

    // Assess
    expect(mixed.errors.map((e) => [e.error_type, e.details.claim])).toEqual([
      ['UNSUPPORTED_CLAIM', 'Services answer requests synchronously.'],
    ]);
    expect(strict.report.responses[0]?.grounding_validation).toMatchObject({
      min_citation_coverage: 1,
      min_word_support: 0,
      checks: { sentence_coverage: 'FAIL' },
    });
  });
});
