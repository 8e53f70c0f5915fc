/**
 * The local sandbox: the Qdrant and Cohere stand-ins and the book's sitemap server, each a real HTTP server on
 * loopback, plus the sample book indexed into the stand-in through the real clients. Used by `ragwatch demo`,
 * the end-to-end tests and the benchmark.
 */
import path from 'node:path';
import { QdrantClient } from '@qdrant/js-client-rest';
import { indexBook } from '../functions/indexer/index.ts';
import { type BookServer, SAMPLE_BOOK_BASE_URL, SAMPLE_BOOK_DIR, startBookServer } from './book-server.ts';
import { type CohereStandIn, startCohereStandIn } from './cohere/index.ts';
import { type QdrantStandIn, startQdrantStandIn } from './qdrant/index.ts';
import { seedIndexHealthDrift } from './seed-index-health.ts';

export const SANDBOX_COLLECTION = 'book';
export const SAMPLE_SUITE_PATH = path.join(import.meta.dirname, 'suite.json');
/** Not a secret: the stand-in accepts any token; the variable must merely be set, as for the real service. */
export const SANDBOX_COHERE_KEY = 'sandbox-key';

export interface Sandbox {
  qdrant: QdrantStandIn;
  cohere: CohereStandIn;
  book: BookServer;
  /** The environment ragwatch reads (the seeds' variable names), pointing at the stand-ins. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Starts the three servers on ephemeral loopback ports. */
export async function startSandbox(options: { latencyMs?: number } = {}): Promise<Sandbox> {
  const latency = options.latencyMs ?? 0;
  const [qdrant, cohere, book] = await Promise.all([
    startQdrantStandIn({ latencyMs: latency }),
    startCohereStandIn({ latencyMs: latency }),
    startBookServer(),
  ]);
  return {
    qdrant,
    cohere,
    book,
    env: {
      QDRANT_URL: qdrant.url,
      QDRANT_COLLECTION: SANDBOX_COLLECTION,
      COHERE_API_KEY: SANDBOX_COHERE_KEY,
      COHERE_BASE_URL: cohere.url,
      DOCUSAURUS_BASE_URL: SAMPLE_BOOK_BASE_URL,
      SITEMAP_URL: `${book.url}/sitemap-index.xml`,
      ENVIRONMENT: 'sandbox',
    },
    stop: async () => {
      await Promise.all([qdrant.stop(), cohere.stop(), book.stop()]);
    },
  };
}

/** Indexes the sample book into the sandbox's Qdrant through the real Cohere and Qdrant clients. */
export async function indexSampleBook(sandbox: Sandbox, options: { payloadIndexes?: boolean } = {}) {
  return indexBook({
    docsDir: path.join(SAMPLE_BOOK_DIR, 'docs'),
    baseUrl: SAMPLE_BOOK_BASE_URL,
    qdrant: { url: sandbox.qdrant.url, collection: SANDBOX_COLLECTION, timeoutMs: 10_000 },
    cohere: { apiKey: SANDBOX_COHERE_KEY, baseUrl: sandbox.cohere.url, model: 'embed-english-v3.0', timeoutMs: 30_000 },
    payloadIndexes: options.payloadIndexes ?? true,
    recreate: true,
    // The demo world (its suite's deliberate failures, the seeded drift, the replays and fault matrix built on it)
    // was written against one chunk per heading section: it keeps that. A user's book (`index`, `sandbox --docs`)
    // has its small sections merged (issue 23 §5).
    mergeSections: false,
  });
}

/**
 * The index drift the demo shows on purpose: two chunks of a page that was removed from the book (so they are
 * orphans), written by an older ingestion that did not set chapter_id or heading_hierarchy (so metadata is
 * incomplete). Upserted through the real client, as any writer would. Then one case of each index-health fault
 * (seed-index-health.ts).
 */
export async function seedIndexDrift(sandbox: Sandbox): Promise<void> {
  const client = new QdrantClient({ url: sandbox.qdrant.url, checkCompatibility: false });
  const info = await client.getCollection(SANDBOX_COLLECTION);
  const size = (info.config.params.vectors as { size: number }).size;
  const vector = (i: number) => Array.from({ length: size }, (_, d) => (d === i ? 1 : 0));
  const url = `${SAMPLE_BOOK_BASE_URL}/docs/module-1-ros2/ch0-legacy-setup`;
  await client.upsert(SANDBOX_COLLECTION, {
    wait: true,
    points: [0, 1].map((i) => ({
      id: ORPHAN_IDS[i] as string,
      vector: vector(i),
      payload: {
        chunk_text: `Legacy setup notes, part ${i + 1}.`,
        source_url: url,
        module_name: 'Module 1 Ros2',
        token_count: 6,
        chunk_index: i,
      },
    })),
  });
  await seedIndexHealthDrift(sandbox.qdrant, SANDBOX_COLLECTION);
}

/**
 * The orphans' ids. Their vectors are not their text's embedding (an older ingestion), so the drift canary flags
 * whichever it samples; the smallest UUIDs come first in the collection's id order, where the canary samples.
 */
const ORPHAN_IDS = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
