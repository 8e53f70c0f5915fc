import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCohereChat, DEFAULT_CHAT_MODEL, readCohereReply } from '../../../functions/adapters/cohere/chat.ts';
import type { ChatDocument } from '../../../functions/core/ports.ts';
import { ChatError } from '../../../functions/core/shared/errors.ts';
import { type CohereStandIn, startCohereStandIn } from '../../../sandbox/cohere/index.ts';

const API_KEY = 'co-test-5f2a9c1e7b3d4a6f';
const DOCUMENTS: ChatDocument[] = [
  {
    id: 'chunk-install',
    text: 'To install ROS 2 Humble on Ubuntu 22.04, first add the ROS 2 apt repository. Then install the ros-humble-desktop package.',
  },
  {
    id: 'chunk-topics',
    text: 'Nodes exchange data by publishing messages on topics. Every subscriber to a topic receives a copy of each message.',
  },
];
const QUESTION = { question: 'How do nodes publish messages on topics?', documents: DOCUMENTS };

let standIn: CohereStandIn;

beforeAll(async () => {
  standIn = await startCohereStandIn({ apiKey: API_KEY });
});

afterAll(async () => {
  await standIn.stop();
});

beforeEach(() => {
  standIn.clearFaults();
  standIn.resetCounts();
  standIn.setChatBehaviour('normal');
});

function chatModel(overrides: { token?: string; model?: string; maxRetries?: number; timeoutInSeconds?: number } = {}) {
  return createCohereChat({
    token: API_KEY,
    baseUrl: standIn.url,
    timeoutInSeconds: 5,
    maxRetries: 0,
    ...overrides,
  });
}

async function failureOf(promise: Promise<unknown>): Promise<ChatError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ChatError) return error;
    throw error;
  }
  throw new Error('expected a ChatError, the call succeeded');
}

describe('createCohereChat against the Cohere stand-in', () => {
  it('answers from the given documents with citations that name them by id and hold the answer’s text', async () => {
    // Act
    const reply = await chatModel().chat(QUESTION);

    // Assess
    expect(reply.text).toBe(
      'Nodes exchange data by publishing messages on topics. Every subscriber to a topic receives a copy of each message.',
    );
    expect(reply.citations).toEqual([
      {
        start: 0,
        end: 53,
        text: 'Nodes exchange data by publishing messages on topics.',
        documentIds: ['chunk-topics'],
      },
      {
        start: 54,
        end: 114,
        text: 'Every subscriber to a topic receives a copy of each message.',
        documentIds: ['chunk-topics'],
      },
    ]);
  });

  it('reports the billed input and output tokens', async () => {
    // Act
    const reply = await chatModel().chat(QUESTION);

    // Assess
    expect(reply.billedUnits.inputTokens).toBeGreaterThan(0);
    expect(reply.billedUnits.outputTokens).toBeGreaterThan(0);
  });

  it('uses command-a-03-2025 unless told otherwise', () => {
    // Act
    const model = chatModel().model;

    // Assess
    expect(model).toBe(DEFAULT_CHAT_MODEL);
    expect(model).toBe('command-a-03-2025');
  });

  it('translates a 429 into rate_limited with the Retry-After seconds', async () => {
    // Prepare
    standIn.inject({ endpoint: 'chat', status: 429, retryAfterSeconds: 7 });

    // Act
    const error = await failureOf(chatModel().chat(QUESTION));

    // Assess
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterSeconds: 7 });
    expect(error.message).toMatch(
      /^Cohere chat \(command-a-03-2025\) at http:\/\/127\.0\.0\.1:\d+ failed with HTTP 429: /,
    );
  });

  it('translates a 500 and a 503 into unavailable', async () => {
    // Prepare
    standIn.inject({ endpoint: 'chat', status: 500 });
    standIn.inject({ endpoint: 'chat', status: 503 });

    // Act
    const errors = [await failureOf(chatModel().chat(QUESTION)), await failureOf(chatModel().chat(QUESTION))];

    // Assess
    expect(errors.map((e) => [e.kind, e.status])).toEqual([
      ['unavailable', 500],
      ['unavailable', 503],
    ]);
  });

  it('translates a request that outlives its timeout into timeout', async () => {
    // Prepare
    standIn.inject({ endpoint: 'chat', hang: true });

    // Act
    const error = await failureOf(chatModel({ timeoutInSeconds: 0.2 }).chat(QUESTION));

    // Assess
    expect(error).toMatchObject({ kind: 'timeout' });
    expect(error.message).toMatch(/timed out$/);
  });

  it('translates a 401 into unauthorized without the token in the message', async () => {
    // Prepare
    const wrongKey = 'co-wrong-8d1e6b2f0a9c3e7d';

    // Act
    const error = await failureOf(chatModel({ token: wrongKey }).chat(QUESTION));

    // Assess
    expect(error).toMatchObject({ kind: 'unauthorized', status: 401 });
    expect(error.message).not.toContain(wrongKey);
  });

  it('redacts the API key when the service echoes it in an error body', async () => {
    // Prepare
    standIn.inject({ endpoint: 'chat', status: 400, message: `invalid request: key ${API_KEY} is not allowed here` });

    // Act
    const error = await failureOf(chatModel().chat(QUESTION));

    // Assess
    expect(error.kind).toBe('bad_request');
    expect(error.message).not.toContain(API_KEY);
    expect(error.message).toContain('[REDACTED]');
  });

  it('translates an unknown model into not_found', async () => {
    // Act
    const error = await failureOf(chatModel({ model: 'command-z' }).chat(QUESTION));

    // Assess
    expect(error).toMatchObject({ kind: 'not_found', status: 404 });
    expect(error.message).toContain("model 'command-z' not found");
  });

  it('retries a transient failure when retries are allowed, and then answers', async () => {
    // Prepare
    standIn.inject({ endpoint: 'chat', status: 503 });

    // Act
    const reply = await chatModel({ maxRetries: 1 }).chat(QUESTION);

    // Assess
    expect(reply.citations.length).toBeGreaterThan(0);
    expect(standIn.requestCounts().chat).toBe(2);
  });

  it('does not retry a timeout', async () => {
    // Prepare
    standIn.inject({ endpoint: 'chat', hang: true });

    // Act
    await failureOf(chatModel({ maxRetries: 2, timeoutInSeconds: 0.2 }).chat(QUESTION));

    // Assess
    expect(standIn.requestCounts().chat).toBe(1);
  });

  it('translates a refused connection into unavailable', async () => {
    // Prepare
    const gone = await startCohereStandIn();
    const url = gone.url;
    await gone.stop();
    const chat = createCohereChat({ token: API_KEY, baseUrl: url, timeoutInSeconds: 5, maxRetries: 0 });

    // Act
    const error = await failureOf(chat.chat(QUESTION));

    // Assess
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/is unreachable/);
    expect(error.message).not.toContain(API_KEY);
  });
});

describe('readCohereReply', () => {
  it('skips thinking blocks and shifts each citation by the length of the text blocks before its own', () => {
    // Prepare
    const response = {
      finishReason: 'COMPLETE',
      message: {
        content: [
          { type: 'thinking', thinking: 'The user asks about topics.' },
          { type: 'text', text: 'Topics carry messages. ' },
          { type: 'text', text: 'Subscribers get copies.' },
        ],
        citations: [
          {
            start: 0,
            end: 22,
            text: 'Topics carry messages.',
            contentIndex: 1,
            sources: [{ type: 'document', id: 'c1' }],
          },
          {
            start: 0,
            end: 23,
            text: 'Subscribers get copies.',
            contentIndex: 2,
            sources: [{ type: 'tool', id: 't1' }],
          },
        ],
      },
    };

    // Act
    const reply = readCohereReply(response, 'Cohere chat');

    // Assess
    expect(reply).toEqual({
      text: 'Topics carry messages. Subscribers get copies.',
      citations: [
        { start: 0, end: 22, text: 'Topics carry messages.', documentIds: ['c1'] },
        { start: 23, end: 46, text: 'Subscribers get copies.', documentIds: [] },
      ],
      billedUnits: { inputTokens: 0, outputTokens: 0 },
    });
  });

  it('turns a generation that stopped with finish_reason ERROR into an unavailable ChatError', () => {
    // Act
    const act = () => readCohereReply({ finishReason: 'ERROR', message: { content: [] } }, 'Cohere chat');

    // Assess
    expect(act).toThrow(expect.objectContaining({ name: 'ChatError', kind: 'unavailable' }));
  });
});
