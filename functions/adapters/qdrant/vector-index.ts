/**
 * The VectorIndex port on Qdrant, through the official REST client. Every failure is translated here, once,
 * into an IndexError that names the operation and the collection, never the API key.
 */
import { QdrantClient } from '@qdrant/js-client-rest';
import type {
  CollectionInfo,
  FacetHit,
  Payload,
  PayloadFilter,
  ScrollOptions,
  SearchHit,
  SearchRequest,
  StoredPoint,
  VectorIndex,
} from '../../core/ports.ts';
import { IndexError } from '../../core/shared/errors.ts';
import { DependencyGate, type RunSignal, requestSignal, retryTimeoutOnce, retryTransient } from '../transport.ts';
import { describeShape, malformedAnswer, translateQdrantError } from './errors.ts';
import { beforeEnd, type IdRange, type PointId, splitRemaining } from './id-ranges.ts';
import { createRetryAfterTap } from './retry-after-tap.ts';

export interface QdrantIndexOptions {
  url: string;
  collection: string;
  apiKey?: string;
  timeoutMs: number;
  /** Retries of transient failures (429, 5xx, connection reset), with backoff honouring Retry-After. */
  retries?: number;
  /** The run's deadline: every request listens to it, and no retry starts after it. */
  run?: RunSignal;
  /** Shared by every call of this run: once Qdrant failed hard, later calls are not tried. */
  gate?: DependencyGate;
}

type Schemas = Parameters<QdrantClient['queryBatch']>[1]['searches'][number];

/**
 * Calls in a row that must fail hard before Qdrant is not tried again in the run (transport.ts's DependencyGate):
 * one timed-out query batch or facet is a blip that costs its own step only; two in a row is Qdrant gone.
 */
export const QDRANT_GATE_STRIKES = 2;

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
  readonly #api: ReturnType<QdrantClient['api']>;
  readonly #options: QdrantIndexOptions;
  readonly #tap = createRetryAfterTap();
  readonly #gate: DependencyGate;

  constructor(options: QdrantIndexOptions) {
    this.#options = options;
    this.#gate = options.gate ?? new DependencyGate('Qdrant', { strikes: QDRANT_GATE_STRIKES });
    // No client-side timeout: its middleware would replace the per-call signal, which carries both the request's
    // timeout and the run's deadline (see #call).
    this.#api = createQdrantClient({ ...options, timeoutMs: Number.POSITIVE_INFINITY }).api();
  }

  async describe(): Promise<CollectionInfo> {
    const info = await this.#call('get collection', (init) =>
      this.#api.getCollection({ collection_name: this.#options.collection }, init),
    ).catch(async (error: unknown) => {
      throw error instanceof IndexError && error.kind === 'not_found' ? await this.#withExistingNames(error) : error;
    });
    const vectors = (info as { config?: { params?: { vectors?: unknown } } }).config?.params?.vectors as
      | { size?: unknown; distance?: unknown }
      | undefined;
    if (!vectors || typeof vectors !== 'object')
      throw this.#malformed('get collection', 'config.params.vectors is missing');
    if (!('size' in vectors)) {
      throw new IndexError(
        `Qdrant collection "${this.#options.collection}" uses named vectors; ragwatch validates collections with one unnamed vector`,
        'bad_request',
      );
    }
    if (typeof vectors.size !== 'number' || !Number.isInteger(vectors.size) || vectors.size <= 0)
      throw this.#malformed(
        'get collection',
        `config.params.vectors.size is ${JSON.stringify(vectors.size)}, not a positive whole number`,
      );
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
    const responses = await this.#call('query batch', (init) =>
      this.#api.queryBatchPoints({ collection_name: this.#options.collection, searches }, init),
    );
    if (!Array.isArray(responses) || responses.length !== requests.length)
      throw this.#malformed('query batch', `expected ${requests.length} result lists, got ${describeShape(responses)}`);
    return responses.map((response, i) => {
      const points: unknown = response?.points;
      if (!Array.isArray(points))
        throw this.#malformed('query batch', `result[${i}].points is ${describeShape(points)}`);
      return points.map((p, j) => {
        if (typeof p?.score !== 'number' || (typeof p.id !== 'string' && typeof p.id !== 'number'))
          throw this.#malformed('query batch', `result[${i}].points[${j}] has no numeric score or no id`);
        return { id: String(p.id), score: p.score, payload: (p.payload ?? {}) as Payload };
      });
    });
  }

  async count(filter?: PayloadFilter): Promise<number> {
    const result = await this.#call('count', (init) =>
      this.#api.countPoints(
        {
          collection_name: this.#options.collection,
          exact: true,
          ...(filter ? { filter: filter as Schemas['filter'] } : {}),
        },
        init,
      ),
    );
    if (typeof result?.count !== 'number') throw this.#malformed('count', `count is ${describeShape(result?.count)}`);
    return result.count;
  }

  async facet(key: string, limit: number, filter?: PayloadFilter): Promise<FacetHit[]> {
    const result = await this.#call(`facet on "${key}"`, (init) =>
      this.#api.facet(
        {
          collection_name: this.#options.collection,
          key,
          limit,
          exact: true,
          ...(filter ? { filter: filter as Schemas['filter'] } : {}),
        },
        init,
      ),
    );
    if (!Array.isArray(result?.hits))
      throw this.#malformed(`facet on "${key}"`, `hits is ${describeShape(result?.hits)}`);
    return result.hits.map((h) => ({ value: h.value, count: h.count }));
  }

  async firstPoints(limit: number, payloadFields: string[]): Promise<StoredPoint[]> {
    const operation = `scroll of the first ${limit} points`;
    const page = await this.#call(operation, (init) =>
      this.#api.scrollPoints(
        { collection_name: this.#options.collection, limit, with_payload: payloadFields, with_vector: true },
        init,
      ),
    );
    if (!Array.isArray(page?.points)) throw this.#malformed(operation, `points is ${describeShape(page?.points)}`);
    return page.points.map((p) => ({
      id: String(p.id),
      vector: Array.isArray(p.vector) && p.vector.every((x) => typeof x === 'number') ? p.vector : [],
      payload: (p.payload ?? {}) as Payload,
    }));
  }

  async *scroll(options: ScrollOptions): AsyncIterable<{ id: string; payload: Payload }[]> {
    const first = await this.#scrollPage(options, undefined);
    yield first.points.map(toStored);
    if (first.next === undefined) return;
    const remaining = (options.parallel?.expectedPoints ?? 0) - first.points.length;
    // No range smaller than a page: more ranges than pages left would add requests and save no round trip.
    const ranges = splitRemaining({
      pageIds: first.points.map((p) => p.id),
      next: first.next,
      remaining,
      count: Math.min(options.parallel?.partitions ?? 1, Math.ceil(remaining / options.pageSize)),
    });
    yield* interleave(ranges.map((range) => this.#scrollRange(options, range)));
  }

  /** One id range, page after page: each page's next_page_offset is the next request's offset. */
  async *#scrollRange(options: ScrollOptions, range: IdRange): AsyncGenerator<{ id: string; payload: Payload }[]> {
    let offset: PointId | undefined = range.start;
    while (offset !== undefined) {
      const page = await this.#scrollPage(options, offset);
      // Ids come in order: the points before the range's end are a prefix of the page.
      const kept = page.points.filter((p) => beforeEnd(p.id, range.end));
      if (kept.length > 0) yield kept.map(toStored);
      offset =
        kept.length === page.points.length && page.next !== undefined && beforeEnd(page.next, range.end)
          ? page.next
          : undefined;
    }
  }

  async #scrollPage(
    options: ScrollOptions,
    offset: PointId | undefined,
  ): Promise<{ points: { id: PointId; payload: Payload }[]; next: PointId | undefined }> {
    const page = await this.#call('scroll', (init) =>
      this.#api.scrollPoints(
        {
          collection_name: this.#options.collection,
          limit: options.pageSize,
          with_payload: options.payloadFields,
          with_vector: false,
          ...(offset === undefined ? {} : { offset }),
        },
        init,
      ),
    );
    if (!Array.isArray(page?.points)) throw this.#malformed('scroll', `points is ${describeShape(page?.points)}`);
    const points = page.points.map((p, i) => {
      if (typeof p?.id !== 'string' && typeof p?.id !== 'number')
        throw this.#malformed('scroll', `points[${i}].id is ${describeShape(p?.id)}`);
      return { id: p.id, payload: (p.payload ?? {}) as Payload };
    });
    const next = page.next_page_offset;
    return { points, next: typeof next === 'string' || typeof next === 'number' ? next : undefined };
  }

  /**
   * One request: its own signal (the request timeout and the run's deadline), a tap that reads Retry-After off
   * the wire, the answer's `result` checked for presence; failures translated and transient ones retried.
   */
  #call<T>(operation: string, fn: (init: RequestInit) => Promise<{ data: { result?: T } }>): Promise<T> {
    const { timeoutMs, run } = this.#options;
    // Every call here is an idempotent read: one that timed out is asked once more (retryTimeoutOnce) before the
    // gate closes Qdrant for the rest of the run.
    return this.#gate.run(
      () =>
        retryTimeoutOnce(
          () =>
            callQdrant(operation, this.#options, async () => {
              const tapped = this.#tap.forCall();
              const init = { signal: requestSignal(timeoutMs, run), dispatcher: tapped.dispatcher } as RequestInit;
              let response: { data: { result?: T } };
              try {
                response = await fn(init);
              } catch (error) {
                throw translateQdrantError(error, operation, this.#options, {
                  retryAfter: tapped.retryAfter(),
                  timeoutMs,
                });
              }
              const result = (response?.data as { result?: T } | undefined)?.result;
              if (result === undefined || result === null)
                throw this.#malformed(operation, `no "result" in the answer (got ${describeShape(response?.data)})`);
              return result;
            }),
          { timeoutMs, ...(run ? { run } : {}) },
        ),
      // A call cut by this index's own deadline is no strike against Qdrant (the agent's comes before the run's).
      run?.signal,
    );
  }

  /**
   * A collection that does not exist, said with the names of those that do (a typo, or the wrong QDRANT_URL, is
   * then plain). One more request; if it fails too, the first error is said as it was.
   */
  async #withExistingNames(notFound: IndexError): Promise<IndexError> {
    const names = await this.#call('list collections', (init) => this.#api.getCollections({}, init))
      .then((r) => (r.collections ?? []).map((c) => c.name).sort())
      .catch(() => null);
    if (names === null) return notFound;
    const there =
      names.length === 0
        ? 'there is no collection at this QDRANT_URL'
        : `the collections there: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ` and ${names.length - 20} more` : ''}`;
    return new IndexError(`${notFound.message}; ${there} (QDRANT_COLLECTION names the one to validate)`, 'not_found', {
      ...(notFound.status === undefined ? {} : { status: notFound.status }),
      cause: notFound,
    });
  }

  #malformed(operation: string, what: string): IndexError {
    return malformedAnswer(operation, this.#options, what);
  }
}

/** One Qdrant call: its failure translated once into an IndexError, transient ones retried with backoff. */
export function callQdrant<T>(
  operation: string,
  options: { url: string; collection: string; apiKey?: string; retries?: number; run?: RunSignal },
  fn: () => Promise<T>,
): Promise<T> {
  return retryTransient(
    async () => {
      try {
        return await fn();
      } catch (error) {
        throw error instanceof IndexError ? error : translateQdrantError(error, operation, options);
      }
    },
    { retries: options.retries ?? 2, ...(options.run ? { run: options.run } : {}) },
  );
}

const toStored = (p: { id: PointId; payload: Payload }) => ({ id: String(p.id), payload: p.payload });

/**
 * Each source's items as they come, with one request in flight per source: a source's next page is asked for
 * before its current one is handed on. On a failure the others are told to stop (their requests in flight end on
 * their own signal) and the first failure is thrown.
 */
async function* interleave<T>(sources: AsyncGenerator<T>[]): AsyncGenerator<T> {
  const pending = new Map<number, Promise<{ i: number; result: IteratorResult<T> }>>();
  const pull = (i: number, source: AsyncGenerator<T>) => {
    pending.delete(i);
    pending.set(
      i,
      source.next().then((result) => ({ i, result })),
    );
  };
  sources.forEach((source, i) => {
    pull(i, source);
  });
  try {
    while (pending.size > 0) {
      const { i, result } = await Promise.race(pending.values());
      if (result.done) pending.delete(i);
      else {
        pull(i, sources[i] as AsyncGenerator<T>);
        yield result.value;
      }
    }
  } finally {
    for (const [i, waiting] of pending) {
      waiting.catch(() => undefined);
      sources[i]?.return(undefined).catch(() => undefined);
    }
  }
}
