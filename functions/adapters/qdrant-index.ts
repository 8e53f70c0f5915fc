/**
 * The VectorIndex port on Qdrant, through the official REST client. Every failure is translated here, once,
 * into an IndexError that names the operation and the collection, never the API key.
 */
import { QdrantClient } from '@qdrant/js-client-rest';
import { IndexError, truncate } from '../core/errors.ts';
import type {
  CollectionInfo,
  FacetHit,
  Payload,
  PayloadFilter,
  SearchHit,
  SearchRequest,
  StoredPoint,
  VectorIndex,
} from '../core/ports.ts';
import { redact, retryTransient } from './transport.ts';

export interface QdrantIndexOptions {
  url: string;
  collection: string;
  apiKey?: string;
  timeoutMs: number;
  /** Retries of transient failures (429, 5xx, connection reset), with backoff honouring Retry-After. */
  retries?: number;
}

type Schemas = Parameters<QdrantClient['queryBatch']>[1]['searches'][number];

/** The official client as ragwatch uses it: an explicit timeout, and no version check. */
export function createQdrantClient(options: { url: string; apiKey?: string; timeoutMs: number }): QdrantClient {
  // checkCompatibility: false avoids an extra version round trip at start-up (and a warning against stand-ins).
  return new QdrantClient({
    url: options.url,
    timeout: options.timeoutMs,
    checkCompatibility: false,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
  });
}

export class QdrantIndex implements VectorIndex {
  readonly #client: QdrantClient;
  readonly #options: QdrantIndexOptions;

  constructor(options: QdrantIndexOptions) {
    this.#options = options;
    this.#client = createQdrantClient(options);
  }

  async describe(): Promise<CollectionInfo> {
    const info = await this.#call('get collection', () => this.#client.getCollection(this.#options.collection));
    const vectors = info.config.params.vectors;
    if (!vectors || !('size' in vectors) || typeof vectors.size !== 'number') {
      throw new IndexError(
        `Qdrant collection "${this.#options.collection}" uses named vectors; ragwatch validates collections with one unnamed vector`,
        'bad_request',
      );
    }
    const payloadIndexes: Record<string, string> = {};
    for (const [field, schema] of Object.entries(info.payload_schema ?? {})) {
      if (schema?.data_type) payloadIndexes[field] = schema.data_type;
    }
    return {
      name: this.#options.collection,
      vectorSize: vectors.size,
      distance: String(vectors.distance),
      pointsCount: info.points_count ?? 0,
      payloadIndexes,
    };
  }

  async searchBatch(requests: SearchRequest[]): Promise<SearchHit[][]> {
    // No score_threshold: a low score must reach the report to be seen.
    const searches: Schemas[] = requests.map((r) => ({
      query: r.vector,
      limit: r.limit,
      ...(r.filter ? { filter: r.filter as Schemas['filter'] } : {}),
      with_payload: r.payloadFields,
      with_vector: false,
      ...(r.exact ? { params: { exact: true } } : {}),
    }));
    const responses = await this.#call('query batch', () =>
      this.#client.queryBatch(this.#options.collection, { searches }),
    );
    return responses.map((response) =>
      response.points.map((p) => ({ id: String(p.id), score: p.score, payload: (p.payload ?? {}) as Payload })),
    );
  }

  async count(filter?: PayloadFilter): Promise<number> {
    const result = await this.#call('count', () =>
      this.#client.count(this.#options.collection, {
        exact: true,
        ...(filter ? { filter: filter as Schemas['filter'] } : {}),
      }),
    );
    return result.count;
  }

  async facet(key: string, limit: number): Promise<FacetHit[]> {
    const result = await this.#call(`facet on "${key}"`, () =>
      this.#client.facet(this.#options.collection, { key, limit, exact: true }),
    );
    return result.hits.map((h) => ({ value: h.value, count: h.count }));
  }

  async retrieve(ids: string[], payloadFields: string[]): Promise<StoredPoint[]> {
    const points = await this.#call(`retrieve of ${ids.length} points`, () =>
      this.#client.retrieve(this.#options.collection, {
        // Ids travel as strings in the core; Qdrant reads a string id as a UUID, so integer ids go back as numbers.
        ids: ids.map((id) => (/^\d+$/.test(id) ? Number(id) : id)),
        with_payload: payloadFields,
        with_vector: true,
      }),
    );
    return points.map((p) => ({
      id: String(p.id),
      vector: Array.isArray(p.vector) && p.vector.every((x) => typeof x === 'number') ? p.vector : [],
      payload: (p.payload ?? {}) as Payload,
    }));
  }

  async *scroll(options: {
    payloadFields: string[];
    pageSize: number;
  }): AsyncIterable<{ id: string; payload: Payload }[]> {
    let offset: string | number | undefined;
    do {
      const page = await this.#call('scroll', () =>
        this.#client.scroll(this.#options.collection, {
          limit: options.pageSize,
          with_payload: options.payloadFields,
          with_vector: false,
          ...(offset === undefined ? {} : { offset }),
        }),
      );
      yield page.points.map((p) => ({ id: String(p.id), payload: (p.payload ?? {}) as Payload }));
      const next = page.next_page_offset;
      offset = typeof next === 'string' || typeof next === 'number' ? next : undefined;
    } while (offset !== undefined);
  }

  #call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return callQdrant(operation, this.#options, fn);
  }
}

/** One Qdrant call: its failure translated once into an IndexError, transient ones retried with backoff. */
export function callQdrant<T>(
  operation: string,
  options: { url: string; collection: string; apiKey?: string; retries?: number },
  fn: () => Promise<T>,
): Promise<T> {
  return retryTransient(
    async () => {
      try {
        return await fn();
      } catch (error) {
        throw translateQdrantError(error, operation, options);
      }
    },
    { retries: options.retries ?? 2 },
  );
}

/** Maps whatever the Qdrant client threw into an IndexError with a kind ops can act on. */
export function translateQdrantError(
  error: unknown,
  operation: string,
  options: { url: string; collection: string; apiKey?: string },
): IndexError {
  const where = `Qdrant ${operation} on collection "${options.collection}" at ${safeOrigin(options.url)}`;
  const secrets = [options.apiKey];
  const e = error as {
    name?: string;
    status?: number;
    data?: unknown;
    retry_after?: number;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  if (e?.name === 'QdrantClientTimeoutError') return new IndexError(`${where} timed out`, 'timeout', { cause: error });
  if (e?.name === 'QdrantClientResourceExhaustedError') {
    return new IndexError(`${where} was rate limited (429)`, 'rate_limited', {
      status: 429,
      retryAfterSeconds: e.retry_after,
      cause: error,
    });
  }
  if (typeof e?.status === 'number') {
    const detail = redact(truncate(extractQdrantMessage(e.data) ?? e.message ?? ''), secrets);
    const status = e.status;
    const kind =
      status === 401 || status === 403
        ? 'unauthorized'
        : status === 404
          ? 'not_found'
          : status === 429
            ? 'rate_limited'
            : status >= 500
              ? 'unavailable'
              : 'bad_request';
    return new IndexError(`${where} failed with ${status}: ${detail}`, kind, { status, cause: error });
  }
  // fetch reports a network failure as TypeError('fetch failed') with the reason (ECONNREFUSED, bad port...) in cause.
  const reason =
    e?.cause?.code ??
    (e?.message === 'fetch failed' ? (e.cause as { message?: string } | undefined)?.message : undefined);
  if (reason) return new IndexError(`${where} is unreachable (${reason})`, 'unavailable', { cause: error });
  return new IndexError(`${where} failed: ${redact(truncate(String(e?.message ?? error)), secrets)}`, 'unexpected', {
    cause: error,
  });
}

function extractQdrantMessage(data: unknown): string | undefined {
  const status = (data as { status?: { error?: unknown } } | undefined)?.status;
  return typeof status?.error === 'string' ? status.error : data === undefined ? undefined : JSON.stringify(data);
}

/** The URL without credentials, path or query: enough to say where, nothing that could be secret. */
export function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
}
