import { Cohere, CohereClientV2 } from 'cohere-ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cosineSimilarity, startCohereStandIn } from '../../sandbox/cohere/index.ts';
import type { CohereStandIn } from '../../sandbox/cohere/server.ts';

const MODEL = 'embed-english-v3.0';
const API_KEY = 'test-key';
const PASSAGE =
  'Nodes exchange data by publishing messages on topics. A publisher sends messages of one type to a named topic, ' +
  'and every subscriber to that topic receives a copy.';

let standIn: CohereStandIn;
let client: CohereClientV2;

beforeAll(async () => {
  standIn = await startCohereStandIn({ apiKey: API_KEY });
  client = new CohereClientV2({ baseUrl: standIn.url, token: API_KEY, maxRetries: 0 });
});

afterAll(async () => {
  await standIn.stop();
});

beforeEach(() => {
  standIn.resetCounts();
});

async function embedQueries(texts: string[], target = client): Promise<number[][]> {
  const response = await target.embed({ model: MODEL, texts, inputType: 'search_query', embeddingTypes: ['float'] });
  return response.embeddings.float ?? [];
}

async function catchError(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('the Cohere stand-in, /v2/embed through CohereClientV2', () => {
  it('returns one 1024-float unit vector per text, with the texts and billed word tokens', async () => {
    // Act
    const response = await client.embed({
      model: MODEL,
      texts: ['How do topics work?', 'Nodes publish messages.'],
      inputType: 'search_query',
      embeddingTypes: ['float'],
    });

    // Assess
    const { id, embeddings, ...rest } = response;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(embeddings.float?.map((v) => ({ length: v.length, norm: Math.hypot(...v) }))).toEqual([
      { length: 1024, norm: expect.closeTo(1, 9) },
      { length: 1024, norm: expect.closeTo(1, 9) },
    ]);
    expect(rest).toEqual({
      texts: ['How do topics work?', 'Nodes publish messages.'],
      meta: { apiVersion: { version: '2' }, billedUnits: { inputTokens: 7 } },
      responseType: 'embeddings_by_type',
    });
  });

  it('gives the same vector for the same text across calls and input types', async () => {
    // Act
    const [asQuery] = await embedQueries([PASSAGE]);
    const [again] = await embedQueries([PASSAGE]);
    const asDocument = await client.embed({ model: MODEL, texts: [PASSAGE], inputType: 'search_document' });

    // Assess
    expect(again).toEqual(asQuery);
    expect(asDocument.embeddings.float?.[0]).toEqual(asQuery);
  });

  it('scores a paraphrasing question higher against the passage than an unrelated one', async () => {
    // Act
    const [passage, paraphrase, unrelated] = await embedQueries([
      PASSAGE,
      'How do publishers and subscribers exchange messages on a topic?',
      'What is the best recipe for chocolate cake?',
    ]);

    // Assess
    expect(cosineSimilarity(paraphrase ?? [], passage ?? [])).toBeGreaterThan(
      cosineSimilarity(unrelated ?? [], passage ?? []) + 0.3,
    );
  });

  it('returns vectors of the configured dimensions', async () => {
    // Prepare
    const small = await startCohereStandIn({ dimensions: 32 });
    const smallClient = new CohereClientV2({ baseUrl: small.url, token: 'any' });

    // Act
    const vectors = await embedQueries(['one text'], smallClient).finally(() => small.stop());

    // Assess
    expect(vectors.map((v) => v.length)).toEqual([32]);
  });

  it('accepts 96 texts in one call', async () => {
    // Act
    const vectors = await embedQueries(Array.from({ length: 96 }, (_, i) => `text number ${i}`));

    // Assess
    expect(vectors).toHaveLength(96);
  });

  it("refuses 97 texts with a BadRequestError carrying Cohere's message", async () => {
    // Act
    const error = await catchError(embedQueries(Array.from({ length: 97 }, (_, i) => `text number ${i}`)));

    // Assess
    expect(error).toBeInstanceOf(Cohere.BadRequestError);
    expect(error).toMatchObject({
      statusCode: 400,
      body: { message: 'invalid request: total number of texts must be at most 96 - received 97' },
    });
  });

  it('refuses a wrong token with an UnauthorizedError', async () => {
    // Prepare
    const intruder = new CohereClientV2({ baseUrl: standIn.url, token: 'wrong-key', maxRetries: 0 });

    // Act
    const error = await catchError(embedQueries(['text'], intruder));

    // Assess
    expect(error).toBeInstanceOf(Cohere.UnauthorizedError);
    expect(error).toMatchObject({ statusCode: 401, body: { message: 'invalid api token' } });
  });

  it('refuses a request without a token (an empty token makes the SDK send none)', async () => {
    // Prepare
    const anonymous = new CohereClientV2({ baseUrl: standIn.url, token: '', maxRetries: 0 });

    // Act
    const error = await catchError(embedQueries(['text'], anonymous));

    // Assess
    expect(error).toMatchObject({ statusCode: 401, body: { message: 'no api key supplied' } });
  });

  it('accepts any non-empty token when no key is configured', async () => {
    // Prepare
    const open = await startCohereStandIn();
    const anyClient = new CohereClientV2({ baseUrl: open.url, token: 'whatever' });

    // Act
    const vectors = await embedQueries(['text'], anyClient).finally(() => open.stop());

    // Assess
    expect(vectors).toHaveLength(1);
  });

  it("answers an unknown model with Cohere's 404 NotFoundError", async () => {
    // Act
    const error = await catchError(
      client.embed({ model: 'embed-english-v9.0', texts: ['x'], inputType: 'search_query' }),
    );

    // Assess
    expect(error).toBeInstanceOf(Cohere.NotFoundError);
    expect(error).toMatchObject({
      statusCode: 404,
      body: {
        message:
          "model 'embed-english-v9.0' not found, make sure the correct model ID was used and that you have access to the model.",
      },
    });
  });

  it('counts embed requests, refused ones included', async () => {
    // Prepare
    await embedQueries(['one']);
    await catchError(embedQueries(Array.from({ length: 97 }, () => 'x')));

    // Act
    const counts = standIn.requestCounts();

    // Assess
    expect(counts).toEqual({ embed: 2, chat: 0 });
  });
});
