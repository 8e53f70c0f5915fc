import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../functions/core/ports.ts';
import { EmbeddingError, IndexError } from '../../functions/core/shared/errors.ts';
import { type IndexBookOptions, indexBook } from '../../functions/indexer/index.ts';
import { type CohereStandIn, startCohereStandIn } from '../../sandbox/cohere/index.ts';
import { type QdrantStandIn, startQdrantStandIn } from '../../sandbox/qdrant/index.ts';
import { nonEmpty } from '../helpers/non-empty.ts';

const BOOK = join(import.meta.dirname, '../../sandbox/book');
const BASE_URL = 'https://book.example.com';
const MODEL = 'embed-english-v3.0';
const PAYLOAD_FIELDS = [
  'chunk_text',
  'source_url',
  'chapter_id',
  'module_name',
  'heading_hierarchy',
  'token_count',
  'chunk_index',
  'indexed_at',
  'content_hash',
  'page_hash',
  'page_version',
  'model_version',
  'embed_header',
];

let qdrant: QdrantStandIn;
let cohere: CohereStandIn;
let client: QdrantClient;
let collection: string;
let counter = 0;

beforeAll(async () => {
  [qdrant, cohere] = await Promise.all([startQdrantStandIn(), startCohereStandIn()]);
  client = new QdrantClient({ url: qdrant.url, checkCompatibility: false, timeout: 5000 });
});

afterAll(async () => {
  await Promise.all([qdrant.stop(), cohere.stop()]);
});

beforeEach(() => {
  counter += 1;
  collection = `book-${counter}`;
  cohere.resetCounts();
  cohere.clearFaults();
});

function clockAt(iso: string): Clock {
  return { now: () => new Date(iso), monotonicMs: () => 0 };
}

function options(overrides: Partial<IndexBookOptions> = {}): IndexBookOptions {
  return {
    docsDir: join(BOOK, 'docs'),
    baseUrl: BASE_URL,
    qdrant: { url: qdrant.url, collection, timeoutMs: 5000 },
    cohere: { apiKey: 'sandbox-key', baseUrl: cohere.url, model: MODEL, timeoutMs: 5000, maxRetries: 0 },
    payloadIndexes: true,
    recreate: false,
    clock: clockAt('2025-12-23T18:30:00.000Z'),
    ...overrides,
  };
}

async function allPoints(name: string): Promise<{ id: string; payload: Record<string, unknown> }[]> {
  const { points } = await client.scroll(name, { limit: 10_000, with_payload: true, with_vector: false });
  return points.map((p) => ({ id: String(p.id), payload: (p.payload ?? {}) as Record<string, unknown> }));
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('indexBook on the sample book, through the real clients and the stand-ins', () => {
  it('indexes every page into a 1024-dimension cosine collection with its payload indexes', async () => {
    // Act
    const summary = await indexBook(options());

    // Assess
    const info = await client.getCollection(collection);
    const schema = Object.fromEntries(Object.entries(info.payload_schema ?? {}).map(([k, v]) => [k, v?.data_type]));
    expect({
      summary,
      points: info.points_count,
      vectors: info.config.params.vectors,
      schema,
    }).toEqual({
      summary: {
        collection,
        documents: 13,
        chunks: summary.chunks,
        pointsUpserted: summary.chunks,
        written: summary.chunks,
        unchanged: 0,
        deleted: 0,
        keptGonePages: [],
        reused: 0,
        vectorSize: 1024,
        model: MODEL,
        billedInputTokens: expect.any(Number),
        indexedAt: '2025-12-23T18:30:00.000Z',
        durationMs: 0,
        modules:
          'modules from the folders under the docs folder: Module 1 Ros2 (3), Module 2 Digital Twin (3), Module 3 Nvidia Isaac (3), Module 4 Vla (3); 1 page(s) in no module',
        routes:
          "Docs served at https://book.example.com/docs/ (routeBasePath 'docs'; no docusaurus.config.* beside --docs; --route-base-path overrides)",
        docsPathPrefix: '/docs/',
      },
      points: summary.chunks,
      vectors: expect.objectContaining({ size: 1024, distance: 'Cosine' }),
      schema: {
        source_url: 'keyword',
        module_name: 'keyword',
        chapter_id: 'keyword',
        token_count: 'integer',
        model_version: 'keyword',
        page_version: 'keyword',
        indexed_at: 'keyword',
      },
    });
    expect(summary.chunks).toBeGreaterThan(13 * 3);
  });

  it('embeds the chunks as documents in calls of at most 96', async () => {
    // Act
    const { chunks } = await indexBook(options());

    // Assess
    expect(cohere.requestCounts().embed).toBe(Math.ceil(chunks / 96));
  });

  it('sets every payload field on every point, with the types the validation reads', async () => {
    // Prepare
    await indexBook(options());

    // Act
    const points = await allPoints(collection);

    // Assess
    const problems = nonEmpty(points, 'indexed points').flatMap(({ id, payload }) => {
      const p = payload;
      const ok =
        Object.keys(p).sort().join() === [...PAYLOAD_FIELDS].sort().join() &&
        typeof p.chunk_text === 'string' &&
        p.chunk_text !== '' &&
        typeof p.source_url === 'string' &&
        p.source_url.startsWith(`${BASE_URL}/docs/`) &&
        typeof p.chapter_id === 'string' &&
        // The introduction sits outside every module: '' (issue 23), not a module of its own.
        /^Module \d \w+|^$/.test(String(p.module_name)) &&
        Array.isArray(p.heading_hierarchy) &&
        p.heading_hierarchy.length >= 1 &&
        Number.isInteger(p.token_count) &&
        (p.token_count as number) > 0 &&
        (p.token_count as number) <= 512 &&
        Number.isInteger(p.chunk_index) &&
        p.indexed_at === '2025-12-23T18:30:00.000Z' &&
        /^[0-9a-f]{64}$/.test(String(p.content_hash)) &&
        /^[0-9a-f]{64}$/.test(String(p.page_hash)) &&
        p.model_version === MODEL &&
        // The header embedded above the text: the page title first, then the chunk's headings (then, for merged
        // sections, their names).
        String(p.embed_header).startsWith((p.heading_hierarchy as string[]).join(' › '));
      return ok ? [] : [id];
    });
    expect(problems).toEqual([]);
  });

  it('indexes exactly the docs URLs of the sitemap but the one page published after the last re-index', async () => {
    // Prepare
    const sitemap = await readFile(join(BOOK, 'sitemap.xml'), 'utf8');
    const docsUrls = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)]
      .map((m) => m[1])
      .filter((u) => u?.includes('/docs/'));

    // Act
    await indexBook(options());

    // Assess
    const indexed = new Set((await allPoints(collection)).map((p) => p.payload.source_url));
    expect([...indexed].sort()).toEqual(docsUrls.filter((u) => !u?.endsWith('/ch4-safety-and-ethics')).sort());
  });

  it('leaves the same points when run again, only refreshing indexed_at', async () => {
    // Prepare
    await indexBook(options());
    const before = await allPoints(collection);

    // Act
    await indexBook(options({ clock: clockAt('2025-12-24T02:00:00.000Z') }));

    // Assess
    const after = await allPoints(collection);
    const strip = (points: typeof before) =>
      points
        .map(({ id, payload }) => ({ id, payload: { ...payload, indexed_at: undefined } }))
        .sort((a, b) => a.id.localeCompare(b.id));
    expect(strip(after)).toEqual(strip(before));
    expect(new Set(after.map((p) => p.payload.indexed_at))).toEqual(new Set(['2025-12-24T02:00:00.000Z']));
  });

  it('creates no payload index when payloadIndexes is false', async () => {
    // Act
    const { chunks } = await indexBook(options({ payloadIndexes: false }));

    // Assess
    const info = await client.getCollection(collection);
    expect([info.points_count, info.payload_schema ?? {}]).toEqual([chunks, {}]);
  });

  it('writes nothing when the first embedding call fails', async () => {
    // Prepare
    cohere.inject({ status: 429, retryAfterSeconds: 30 });

    // Act
    const error = await caught(indexBook(options()));

    // Assess
    expect([
      error instanceof EmbeddingError && error.kind,
      error instanceof EmbeddingError && error.retryAfterSeconds,
    ]).toEqual(['rate_limited', 30]);
    expect((await client.collectionExists(collection)).exists).toBe(false);
  });

  it('reports an unreachable Qdrant as an unavailable IndexError', async () => {
    // Prepare
    const gone = await startQdrantStandIn();
    await gone.stop();

    // Act
    const error = await caught(
      indexBook(options({ qdrant: { url: gone.url, collection, timeoutMs: 2000, retries: 0 } })),
    );

    // Assess
    expect([error instanceof IndexError, error instanceof IndexError && error.kind]).toEqual([true, 'unavailable']);
  });
});
