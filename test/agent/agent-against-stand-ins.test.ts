/**
 * answerAgentQuestions end to end through the real wire: CohereEmbedder and the real chat adapter on the Cohere stand-in,
 * QdrantIndex on the Qdrant stand-in, and a suite parsed like any other. Each stand-in misbehaviour flips the verdict
 * it should, and nothing else.
 */
import { randomUUID } from 'node:crypto';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCohereChat } from '../../functions/adapters/cohere/chat.ts';
import { CohereEmbedder } from '../../functions/adapters/cohere/embedder.ts';
import { QdrantIndex } from '../../functions/adapters/qdrant/vector-index.ts';
import { answerAgentQuestions } from '../../functions/core/grounding/answer-agent-questions.ts';
import { createRetrievalTool } from '../../functions/core/grounding/retrieval-tool.ts';
import { DEFAULT_MIN_WORD_SUPPORT } from '../../functions/core/grounding/support.ts';
import { resolveQueries, Suite } from '../../functions/core/suite/suite.ts';
import { type CohereStandIn, startCohereStandIn } from '../../sandbox/cohere/index.ts';
import { type QdrantStandIn, startQdrantStandIn } from '../../sandbox/qdrant/index.ts';
import { nonEmpty } from '../helpers/non-empty.ts';
import { createFakeClock, createIdSequence } from './fakes.ts';

const COLLECTION = 'book';
const API_KEY = 'co-agent-test-1b7e4d9a';
const CHUNKS = [
  {
    chapter: 'ch1-ros2-basics',
    text:
      'Nodes exchange data by publishing messages on topics. Every subscriber to a topic receives a copy of each ' +
      'message. Topics are anonymous, which keeps nodes loosely coupled.',
  },
  {
    chapter: 'ch1-ros2-basics',
    text:
      'To install ROS 2 Humble on Ubuntu 22.04, first add the ROS 2 apt repository. Then install the ' +
      'ros-humble-desktop package. Finally, source the setup script in every new terminal.',
  },
  {
    chapter: 'ch2-rclpy-and-launch-files',
    text:
      'A launch file starts several nodes at once and sets their parameters. Launch files are written in Python ' +
      'and run with the ros2 launch command.',
  },
].map((c) => ({ ...c, id: randomUUID() }));

// min_similarity 0 on the no-answer questions lets every chunk through the relevance gate, so the chat model itself
// must abstain; the cake question keeps the gate and is answered by the agent without chat.
const SUITE = Suite.parse({
  name: 'agent',
  defaults: { top_k: 3, min_similarity: 0.3 },
  queries: [
    { id: 'topics', query_text: 'How do nodes publish messages on topics?', agent: true },
    { id: 'launch', query_text: 'How does a launch file start nodes?', agent: true },
    {
      id: 'dds',
      query_text: 'Which DDS vendor do ROS 2 topics use?',
      agent: true,
      expect_answer: false,
      min_similarity: 0,
    },
    { id: 'cake', query_text: 'What is the best recipe for chocolate cake?', agent: true, expect_answer: false },
    { id: 'retrieval-only', query_text: 'How do I install ROS 2 Humble?' },
  ],
});
const QUERIES = resolveQueries(SUITE);

let cohere: CohereStandIn;
let qdrant: QdrantStandIn;
let embedder: CohereEmbedder;
let index: QdrantIndex;

beforeAll(async () => {
  [cohere, qdrant] = await Promise.all([startCohereStandIn({ apiKey: API_KEY }), startQdrantStandIn()]);
  embedder = new CohereEmbedder({
    apiKey: API_KEY,
    model: 'embed-english-v3.0',
    timeoutMs: 5000,
    baseUrl: cohere.url,
    maxRetries: 0,
  });
  index = new QdrantIndex({ url: qdrant.url, collection: COLLECTION, timeoutMs: 5000, retries: 0 });
  const client = new QdrantClient({ url: qdrant.url, checkCompatibility: false });
  await client.createCollection(COLLECTION, { vectors: { size: 1024, distance: 'Cosine' } });
  const { vectors } = await embedder.embedDocuments(CHUNKS.map((c) => c.text));
  await client.upsert(COLLECTION, {
    wait: true,
    points: CHUNKS.map((c, i) => ({
      id: c.id,
      vector: vectors[i] ?? [],
      payload: {
        chunk_text: c.text,
        chapter_id: c.chapter,
        module_name: 'module-1-ros2',
        source_url: `https://book.example/docs/module-1-ros2/${c.chapter}`,
        heading_hierarchy: ['ROS 2'],
      },
    })),
  });
});

afterAll(async () => {
  await Promise.all([cohere.stop(), qdrant.stop()]);
});

beforeEach(() => {
  cohere.setChatBehaviour('normal');
  cohere.clearFaults();
  cohere.resetCounts();
});

function run(options: { maxAgentQueries?: number; timeoutInSeconds?: number; minRelevance?: number } = {}) {
  const clock = createFakeClock();
  return answerAgentQuestions({
    queries: QUERIES,
    tool: createRetrievalTool({ embedder, index, clock }),
    chat: createCohereChat({
      token: API_KEY,
      baseUrl: cohere.url,
      timeoutInSeconds: options.timeoutInSeconds ?? 5,
      maxRetries: 0,
    }),
    clock,
    newId: createIdSequence(),
    maxAgentQueries: options.maxAgentQueries ?? 10,
    ...(options.minRelevance === undefined ? {} : { minRelevance: options.minRelevance }),
  });
}

const verdictOf = (report: Awaited<ReturnType<typeof run>>['report'], id: string) =>
  report.responses.find((r) => r.query_id === id)?.grounding_validation;

describe('answerAgentQuestions against the Cohere and Qdrant stand-ins', () => {
  it('grounds both answerable questions, abstains correctly on the one the book cannot answer that reaches chat, and reports the gated one apart', async () => {
    // Act
    const { report, errors } = await run();

    // Assess
    expect(report).toMatchObject({
      chat_model: 'command-a-03-2025',
      agent_queries: 4,
      evaluated: 4,
      capped: 0,
      grounded: 2,
      ungrounded: 0,
      unnecessary_abstentions: 0,
      abstentions_correct: 1,
      abstentions_gated: 1,
      abstentions_incorrect: 0,
      errors: 0,
      grounded_rate: 100,
      abstention_correct_rate: 100,
    });
    expect(errors).toEqual([]);
  });

  it('cites the chunk that answers, by its point id, with full sentence coverage', async () => {
    // Act
    const { report } = await run();

    // Assess
    const topics = report.responses.find((r) => r.query_id === 'topics');
    expect(topics?.source_chunks).toEqual([CHUNKS[0]?.id]);
    expect(topics?.grounding_validation).toMatchObject({ passed: true, citation_coverage: 1 });
    expect(topics?.confidence_score).toBeGreaterThan(0.3);
  });

  it('leaves the cake question to the relevance gate, and the DDS question to the model’s own abstention', async () => {
    // Act
    const { report } = await run();

    // Assess
    const statuses = Object.fromEntries(report.responses.map((r) => [r.query_id, r.status]));
    expect(statuses).toEqual({
      topics: 'ANSWERED',
      launch: 'ANSWERED',
      dds: 'ANSWERED',
      cake: 'NO_RELEVANT_DOCUMENTS',
    });
    expect(cohere.requestCounts().chat).toBe(3);
    expect(verdictOf(report, 'dds')).toMatchObject({
      abstained: true,
      gated: false,
      abstention_correct: true,
      passed: true,
    });
    // The gate abstained, not the model: not graded as a correct abstention.
    expect(verdictOf(report, 'cake')).toMatchObject({
      abstained: true,
      gated: true,
      abstention_correct: false,
      passed: true,
      checks: { abstention: 'NOT_APPLICABLE' },
    });
  });

  it('sums the billed tokens the stand-in reports', async () => {
    // Act
    const { report } = await run();

    // Assess
    const perResponse = report.responses.reduce((sum, r) => sum + r.token_usage.input_tokens, 0);
    expect(report.token_usage.input_tokens).toBe(perResponse);
    expect(report.token_usage.input_tokens).toBeGreaterThan(0);
    expect(report.token_usage.output_tokens).toBeGreaterThan(0);
  });

  it('fails the answers that cite a document it was never given', async () => {
    // Prepare
    cohere.setChatBehaviour('cite_unknown_document');

    // Act
    const { report, errors } = await run();

    // Assess
    expect(report).toMatchObject({ grounded: 0, ungrounded: 2, abstentions_correct: 1, abstentions_gated: 1 });
    expect(verdictOf(report, 'topics')).toMatchObject({
      unknown_chunk_ids: ['unknown-document'],
      checks: { citations_retrieved: 'FAIL' },
    });
    expect(errors.map((e) => [e.validation_id, e.error_type])).toEqual([
      ['topics', 'GROUNDING_FAILED'],
      ['launch', 'GROUNDING_FAILED'],
    ]);
  });

  it('fails the answers that come without citations', async () => {
    // Prepare
    cohere.setChatBehaviour('no_citations');

    // Act
    const { report } = await run();

    // Assess
    expect(report).toMatchObject({ grounded: 0, ungrounded: 2, grounded_rate: 0 });
    expect(verdictOf(report, 'launch')).toMatchObject({ checks: { citations_present: 'FAIL' } });
  });

  it('fails the answers whose citation offsets do not hold the cited text', async () => {
    // Prepare
    cohere.setChatBehaviour('misplaced_span');

    // Act
    const { report } = await run();

    // Assess
    expect(report).toMatchObject({ grounded: 0, ungrounded: 2 });
    expect(verdictOf(report, 'topics')).toMatchObject({ checks: { spans_match: 'FAIL', citations_retrieved: 'PASS' } });
  });

  it('fails the question the book cannot answer when the model answers it anyway', async () => {
    // Prepare
    cohere.setChatBehaviour('answer_unanswerable');

    // Act
    const { report, errors } = await run();

    // Assess
    expect(report).toMatchObject({
      grounded: 2,
      abstentions_correct: 0,
      abstentions_gated: 1,
      abstentions_incorrect: 1,
      abstention_correct_rate: 0,
    });
    expect(verdictOf(report, 'dds')).toMatchObject({ abstained: false, abstention_correct: false });
    expect(errors.map((e) => [e.validation_id, e.error_type])).toEqual([['dds', 'GROUNDING_FAILED']]);
  });

  it('records a rate-limited chat call as an error with its kind, and judges the other answers', async () => {
    // Prepare
    cohere.inject({ endpoint: 'chat', status: 429, retryAfterSeconds: 30 });

    // Act
    const { report, errors } = await run();

    // Assess
    expect(report).toMatchObject({ errors: 1, grounded: 1, grounded_rate: 100 });
    expect(report.responses[0]).toMatchObject({
      status: 'CHAT_FAILED',
      error: { stage: 'chat', kind: 'rate_limited' },
    });
    expect(errors[0]).toMatchObject({ validation_id: 'topics', error_type: 'RETRIEVAL_FAILED', severity: 'HIGH' });
    expect(errors[0]?.message).not.toContain(API_KEY);
  });

  it('records a chat call that hangs past its timeout as TIMEOUT', async () => {
    // Prepare
    cohere.inject({ endpoint: 'chat', hang: true });

    // Act
    const { errors } = await run({ timeoutInSeconds: 0.2 });

    // Assess
    expect(errors[0]).toMatchObject({ validation_id: 'topics', error_type: 'TIMEOUT', details: { kind: 'timeout' } });
  });

  it('records a failing embedding as RETRIEVAL_FAILED without calling chat for that question', async () => {
    // Prepare
    cohere.inject({ endpoint: 'embed', status: 500 });

    // Act
    const { report, errors } = await run();

    // Assess
    expect(report.responses[0]).toMatchObject({
      status: 'RETRIEVAL_FAILED',
      error: { stage: 'retrieval', kind: 'unavailable' },
    });
    expect(errors[0]).toMatchObject({ validation_id: 'topics', error_type: 'RETRIEVAL_FAILED' });
    expect(cohere.requestCounts().chat).toBe(2);
  });

  it('stops at the per-run cap and calls chat no more than that', async () => {
    // Act
    const { report } = await run({ maxAgentQueries: 1 });

    // Assess
    expect(report).toMatchObject({ evaluated: 1, capped: 3, grounded: 1 });
    expect(cohere.requestCounts().chat).toBe(1);
  });

  it('gives every claim of the honest answers support, overall and per answer', async () => {
    // Act
    const { report } = await run();

    // Assess
    expect(report).toMatchObject({ support_rate: 100, min_word_support: DEFAULT_MIN_WORD_SUPPORT });
    expect(report.claims).toBe(report.supported_claims);
    expect(report.claims).toBeGreaterThan(0);
    expect(report.responses.find((r) => r.query_id === 'topics')?.confidence_components).toMatchObject({
      support_ratio: 1,
    });
  });

  it('catches an invented number under a real citation as UNSUPPORTED_CLAIM, naming the number', async () => {
    // Prepare
    cohere.setChatBehaviour('invent_number');

    // Act
    const { report, errors } = await run();

    // Assess
    expect(report).toMatchObject({ grounded: 0, ungrounded: 2 });
    expect(verdictOf(report, 'topics')).toMatchObject({
      checks: { citations_retrieved: 'PASS', spans_match: 'PASS', claims_supported: 'FAIL' },
      error_type: 'UNSUPPORTED_CLAIM',
    });
    const unsupported = errors.filter((e) => e.error_type === 'UNSUPPORTED_CLAIM');
    expect(unsupported.map((e) => [e.validation_id, e.details.missing_numbers])).toEqual([
      ['topics', ['64']],
      ['launch', ['64']],
    ]);
    expect(errors.filter((e) => e.error_type === 'GROUNDING_FAILED')).toEqual([]);
  });

  it('lowers the answer’s confidence by the share of its claims that are unsupported', async () => {
    // Prepare
    cohere.setChatBehaviour('invent_number');

    // Act
    const { report } = await run();

    // Assess
    const topics = report.responses.find((r) => r.query_id === 'topics');
    const { evidence_relevance, support_ratio } = topics?.confidence_components ?? {};
    expect(support_ratio).toBeCloseTo(2 / 3, 10);
    expect(topics?.confidence_score).toBeCloseTo((evidence_relevance ?? 0) * (2 / 3), 10);
  });

  it('catches a claim cited to another retrieved chunk that does not say it', async () => {
    // Prepare
    cohere.setChatBehaviour('cite_other_document');

    // Act: every retrieved chunk passes the gate, so the model is given (and can miscite) more than one
    const { report, errors } = await run({ minRelevance: 0 });

    // Assess
    const topics = verdictOf(report, 'topics');
    expect(topics).toMatchObject({ checks: { citations_retrieved: 'PASS' }, error_type: 'UNSUPPORTED_CLAIM' });
    expect(nonEmpty(topics?.claims ?? [], 'claims of topics').every((c) => !c.supported)).toBe(true);
    expect(errors.some((e) => e.error_type === 'UNSUPPORTED_CLAIM' && e.validation_id === 'topics')).toBe(true);
  });

  it('passes a faithful paraphrase of the cited chunks', async () => {
    // Prepare
    cohere.setChatBehaviour('paraphrase');

    // Act
    const { report, errors } = await run();

    // Assess
    expect(report).toMatchObject({ grounded: 2, ungrounded: 0, support_rate: 100 });
    expect(errors).toEqual([]);
  });
});
