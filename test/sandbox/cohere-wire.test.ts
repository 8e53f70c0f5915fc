import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CohereStandIn, startCohereStandIn } from '../../sandbox/cohere/index.ts';

// The SDK reads responses with validation skipped, so a wrong field would pass silently through it. Its own
// serializers, run strictly here (unknown keys fail), are the contract the stand-in's bytes must meet. They are not
// in the package's exports map, hence the path.
interface StrictSchema {
  parse(raw: unknown, options: { unrecognizedObjectKeys: 'fail' }): { ok: boolean; errors?: unknown[] };
}
const require = createRequire(import.meta.url);
const serializers = require(join(dirname(require.resolve('cohere-ai')), 'serialization', 'index.js')) as Record<
  string,
  StrictSchema
>;

const TOKEN = 'wire-key';

let standIn: CohereStandIn;

beforeAll(async () => {
  standIn = await startCohereStandIn({ apiKey: TOKEN, dimensions: 4 });
});

afterAll(async () => {
  await standIn.stop();
});

async function post(path: string, body: string, token: string | null = TOKEN) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${standIn.url}${path}`, { method: 'POST', headers, body });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as unknown,
  };
}

function strictly(schema: string, body: unknown) {
  return serializers[schema]?.parse(body, { unrecognizedObjectKeys: 'fail' });
}

const EMBED_BODY = JSON.stringify({
  model: 'embed-english-v3.0',
  texts: ['Nodes publish messages.'],
  input_type: 'search_document',
  embedding_types: ['float'],
});

const CHAT_BODY = JSON.stringify({
  model: 'command-a-03-2025',
  messages: [
    { role: 'system', content: 'Answer from the documents only.' },
    { role: 'user', content: [{ type: 'text', text: 'How do nodes publish messages?' }] },
  ],
  documents: [{ id: 'c1', data: { text: 'Nodes publish messages on topics.', title: 'Topics' } }],
  citation_options: { mode: 'FAST' },
});

describe('the Cohere stand-in on the wire', () => {
  it('answers /v2/embed with the v2 embeddings_by_type body', async () => {
    // Act
    const response = await post('/v2/embed', EMBED_BODY);

    // Assess
    expect(response).toEqual({
      status: 200,
      contentType: 'application/json',
      retryAfter: null,
      body: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        texts: ['Nodes publish messages.'],
        embeddings: { float: [[expect.any(Number), expect.any(Number), expect.any(Number), expect.any(Number)]] },
        meta: { api_version: { version: '2' }, billed_units: { input_tokens: 3 } },
        response_type: 'embeddings_by_type',
      },
    });
  });

  it("meets the SDK's own EmbedByTypeResponse schema, strictly", async () => {
    // Prepare
    const { body } = await post('/v2/embed', EMBED_BODY);

    // Act
    const verdict = strictly('EmbedByTypeResponse', body);

    // Assess
    expect(verdict).toMatchObject({ ok: true });
  });

  it('answers /v2/chat with the v2 chat body, citations included', async () => {
    // Act
    const response = await post('/v2/chat', CHAT_BODY);

    // Assess
    const text = 'Nodes publish messages on topics.';
    expect(response).toEqual({
      status: 200,
      contentType: 'application/json',
      retryAfter: null,
      body: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        message: {
          role: 'assistant',
          content: [{ type: 'text', text }],
          citations: [
            {
              start: 0,
              end: text.length,
              text,
              sources: [{ type: 'document', id: 'c1', document: { id: 'c1', text, title: 'Topics' } }],
              type: 'TEXT_CONTENT',
            },
          ],
        },
        finish_reason: 'COMPLETE',
        usage: {
          billed_units: { input_tokens: 15, output_tokens: 5 },
          tokens: { input_tokens: 15, output_tokens: 5 },
        },
      },
    });
  });

  it("meets the SDK's own V2ChatResponse schema, strictly", async () => {
    // Prepare
    const { body } = await post('/v2/chat', CHAT_BODY);

    // Act
    const verdict = strictly('V2ChatResponse', body);

    // Assess
    expect(verdict).toMatchObject({ ok: true });
  });

  it('refuses an embed request without input_type in Cohere words', async () => {
    // Act
    const response = await post('/v2/embed', JSON.stringify({ model: 'embed-english-v3.0', texts: ['x'] }));

    // Assess
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: { message: 'invalid request: valid input_type must be provided with the provided model' },
    });
  });

  it('refuses an embed request without a model', async () => {
    // Act
    const response = await post('/v2/embed', JSON.stringify({ texts: ['x'], input_type: 'search_query' }));

    // Assess
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: { message: 'invalid request: model must be specified' },
    });
  });

  it('refuses embedding types other than float, which the stand-in does not compute', async () => {
    // Prepare
    const body = JSON.parse(EMBED_BODY) as Record<string, unknown>;

    // Act
    const response = await post('/v2/embed', JSON.stringify({ ...body, embedding_types: ['int8'] }));

    // Assess
    expect(response.status).toBe(400);
  });

  it('refuses malformed JSON with a 400 and a message', async () => {
    // Act
    const response = await post('/v2/embed', '{"model": ');

    // Assess
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: { message: 'invalid request: body is not valid JSON' },
    });
  });

  it('refuses a chat request without messages', async () => {
    // Act
    const response = await post('/v2/chat', JSON.stringify({ model: 'command-a-03-2025' }));

    // Assess
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: { message: 'invalid request: messages must contain at least one message' },
    });
  });

  it('refuses a request without an Authorization header', async () => {
    // Act
    const response = await post('/v2/embed', EMBED_BODY, null);

    // Assess
    expect({ status: response.status, body: response.body }).toEqual({
      status: 401,
      body: { message: 'no api key supplied' },
    });
  });

  it('sends Retry-After with an injected 429', async () => {
    // Prepare
    standIn.inject({ status: 429, retryAfterSeconds: 3, endpoint: 'chat' });

    // Act
    const response = await post('/v2/chat', CHAT_BODY);

    // Assess
    expect(response).toEqual({
      status: 429,
      contentType: 'application/json',
      retryAfter: '3',
      body: { message: expect.any(String) },
    });
  });

  it('answers an unknown path with a 404 in the same envelope', async () => {
    // Act
    const response = await post('/v1/embed', EMBED_BODY);

    // Assess
    expect({ status: response.status, body: response.body }).toEqual({
      status: 404,
      body: { message: 'no route for POST /v1/embed' },
    });
  });
});
