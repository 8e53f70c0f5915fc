/**
 * The indexer's PointSink on Qdrant, through the official REST client: creates (or recreates) the collection with
 * cosine distance and the embeddings' vector size, creates the payload indexes the validation reads with facets and
 * filters, and upserts points in batches of 256, waiting for each to be applied. Failures become IndexError through
 * the same translation as the validation's Qdrant adapter, so messages name the operation and never the API key.
 */
import type { QdrantClient } from '@qdrant/js-client-rest';
import { callQdrant, createQdrantClient } from '../adapters/qdrant/vector-index.ts';
import { type ChunkPayload, PAYLOAD_INDEXES, REINDEX_FIELDS } from '../core/book/payload.ts';
import { IndexError } from '../core/shared/errors.ts';
import { type IndexPoint, type PointSink, UPSERT_BATCH_SIZE } from './index-book.ts';
import type { StoredPoint } from './reindex-plan.ts';

const SCROLL_PAGE = 1000;

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** How to reach the collection and how to set it up. */
export interface QdrantWriterOptions {
  url: string;
  apiKey?: string;
  collection: string;
  timeoutMs: number;
  /** Create the keyword and integer payload indexes (off only to demonstrate the scroll fallback of coverage). */
  payloadIndexes: boolean;
  /** Delete the collection first, so nothing from an earlier run (stale chunks, other vector sizes) is left. */
  recreate: boolean;
  /** Retries of transient failures (429, 5xx, connection reset); upserts are idempotent, ids being deterministic. */
  retries?: number;
}

type CollectionInfo = Awaited<ReturnType<QdrantClient['getCollection']>>;
type PointStruct = Parameters<QdrantClient['upsert']>[1] extends infer R
  ? R extends { points: (infer P)[] }
    ? P
    : never
  : never;

/** Writes index points into one Qdrant collection. */
export class QdrantWriter implements PointSink {
  readonly #client: QdrantClient;
  readonly #options: QdrantWriterOptions;

  constructor(options: QdrantWriterOptions) {
    this.#options = options;
    this.#client = createQdrantClient(options);
  }

  /** Makes sure the collection exists with vectors of `vectorSize` and cosine distance, and has its payload indexes. */
  async prepare({ vectorSize }: { vectorSize: number }): Promise<void> {
    const name = this.#options.collection;
    let info = await this.#describe();
    if (info !== undefined && this.#options.recreate) {
      await this.#call('delete collection', () => this.#client.deleteCollection(name));
      info = undefined;
    }
    if (info === undefined) {
      await this.#call('create collection', () =>
        this.#client.createCollection(name, { vectors: { size: vectorSize, distance: 'Cosine' } }),
      );
    } else {
      this.#checkVectors(info, vectorSize);
    }
    await this.#createMissingIndexes(info);
  }

  /** The payload indexes an existing collection lacks, created; nothing for a missing or doomed collection. */
  async prepareIndexes(): Promise<void> {
    if (this.#options.recreate) return;
    const info = await this.#describe();
    if (info !== undefined) await this.#createMissingIndexes(info);
  }

  async #createMissingIndexes(info: CollectionInfo | undefined): Promise<void> {
    if (!this.#options.payloadIndexes) return;
    const existing = info?.payload_schema ?? {};
    for (const [field, type] of Object.entries(PAYLOAD_INDEXES)) {
      if (existing[field]?.data_type === type) continue;
      await this.#call(`create ${type} payload index on "${field}"`, () =>
        this.#client.createPayloadIndex(this.#options.collection, {
          field_name: field,
          field_schema: type,
          wait: true,
        }),
      );
    }
  }

  /** Every stored point's id and change markers, one scroll page of 1000 at a time; empty for a missing or doomed collection. */
  async stored(): Promise<Map<string, StoredPoint>> {
    const found = new Map<string, StoredPoint>();
    if (this.#options.recreate || (await this.#describe()) === undefined) return found;
    let offset: string | number | undefined;
    do {
      const from = offset;
      const page = await this.#call('scroll of stored points', () =>
        this.#client.scroll(this.#options.collection, {
          limit: SCROLL_PAGE,
          with_payload: REINDEX_FIELDS,
          with_vector: false,
          ...(from === undefined ? {} : { offset: from }),
        }),
      );
      for (const point of page.points) {
        const p = point.payload ?? {};
        found.set(String(point.id), {
          sourceUrl: text(p.source_url),
          contentHash: text(p.content_hash),
          pageHash: text(p.page_hash),
          pageVersion: text(p.page_version),
          model: text(p.model_version),
        });
      }
      const next = page.next_page_offset;
      offset = typeof next === 'string' || typeof next === 'number' ? next : undefined;
    } while (offset !== undefined);
    return found;
  }

  /** The stored vectors of these points (one retrieve per 1000 ids); a point that is gone is left out. */
  async vectors(ids: string[]): Promise<Map<string, number[]>> {
    const found = new Map<string, number[]>();
    for (let start = 0; start < ids.length; start += SCROLL_PAGE) {
      const batch = ids.slice(start, start + SCROLL_PAGE);
      const points = await this.#call(`retrieve of ${batch.length} stored vectors`, () =>
        this.#client.retrieve(this.#options.collection, { ids: batch, with_payload: false, with_vector: true }),
      );
      for (const point of points)
        if (Array.isArray(point.vector)) found.set(String(point.id), point.vector as number[]);
    }
    return found;
  }

  async setPayload(ids: string[], payload: Partial<ChunkPayload>): Promise<void> {
    await this.#call(`set payload on ${ids.length} points`, () =>
      this.#client.setPayload(this.#options.collection, { wait: true, points: ids, payload: { ...payload } }),
    );
  }

  async delete(ids: string[]): Promise<void> {
    await this.#call(`delete of ${ids.length} points`, () =>
      this.#client.delete(this.#options.collection, { wait: true, points: ids }),
    );
  }

  /** Upserts points in batches of 256, each applied before the next is sent. */
  async upsert(points: IndexPoint[]): Promise<void> {
    for (let start = 0; start < points.length; start += UPSERT_BATCH_SIZE) {
      const batch: PointStruct[] = points
        .slice(start, start + UPSERT_BATCH_SIZE)
        .map((p) => ({ id: p.id, vector: p.vector, payload: { ...p.payload } }));
      await this.#call(`upsert of ${batch.length} points`, () =>
        this.#client.upsert(this.#options.collection, { wait: true, points: batch }),
      );
    }
  }

  /** The collection's description, or undefined when it does not exist. */
  async #describe(): Promise<CollectionInfo | undefined> {
    try {
      return await this.#call('get collection', () => this.#client.getCollection(this.#options.collection));
    } catch (error) {
      if (error instanceof IndexError && error.kind === 'not_found') return undefined;
      throw error;
    }
  }

  // An existing collection with another vector size would refuse every upsert; another distance would change every
  // score the validation reads. Both need a deliberate recreate, not a silent one.
  #checkVectors(info: CollectionInfo, vectorSize: number): void {
    const vectors = info.config.params.vectors;
    const size = vectors && 'size' in vectors && typeof vectors.size === 'number' ? vectors.size : undefined;
    const distance = vectors && 'distance' in vectors ? String(vectors.distance) : undefined;
    if (size === vectorSize && distance === 'Cosine') return;
    const found = size === undefined ? 'named vectors' : `vectors of size ${size} with ${distance} distance`;
    throw new IndexError(
      `Qdrant collection "${this.#options.collection}" holds ${found}; the embeddings need size ${vectorSize} with ` +
        'Cosine distance: recreate it (--recreate) or index into another collection',
      'bad_request',
    );
  }

  #call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return callQdrant(operation, this.#options, fn);
  }
}
