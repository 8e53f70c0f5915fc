/** Small fakes of the ports the agent needs, for the pure tests (the end-to-end tests use the stand-ins). */
import type {
  ChatModel,
  ChatReply,
  Clock,
  Embedder,
  Payload,
  SearchHit,
  SearchRequest,
  VectorIndex,
} from '../../functions/core/ports.ts';

/** A clock standing still at a fixed instant until a test advances it. */
export function createFakeClock(): Clock & { advance(ms: number): void } {
  let ms = 0;
  return {
    now: () => new Date(Date.UTC(2026, 2, 14, 2, 0, 0) + ms),
    monotonicMs: () => ms,
    advance: (by) => {
      ms += by;
    },
  };
}

/** Ids r1, r2, … in order. */
export function createIdSequence(prefix = 'r'): () => string {
  let n = 0;
  return () => `${prefix}${++n}`;
}

/** An embedder that records what it was asked and returns one fixed vector per text. */
export function createFakeEmbedder(): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    model: 'fake-embed',
    maxBatchSize: 96,
    calls,
    async embedQueries(texts) {
      calls.push(texts);
      return { vectors: texts.map(() => [1, 0, 0]) };
    },
    embedDocuments: () => Promise.reject(new Error('not used by the agent')),
  };
}

/** A vector index that records search requests and answers every search with the same hits. */
export function createFakeIndex(hits: SearchHit[]): VectorIndex & { requests: SearchRequest[] } {
  const requests: SearchRequest[] = [];
  const refuse = () => Promise.reject(new Error('not used by the agent'));
  return {
    requests,
    async searchBatch(batch) {
      requests.push(...batch);
      return batch.map((r) => hits.slice(0, r.limit));
    },
    describe: refuse,
    count: refuse,
    facet: refuse,
    firstPoints: refuse,
    scroll: () => ({
      [Symbol.asyncIterator]: () => ({ next: refuse }),
    }),
  };
}

/** A chat model that records its requests and answers with a given reply (or throws a given error). */
export function createFakeChat(
  answer: ChatReply | Error,
): ChatModel & { requests: Parameters<ChatModel['chat']>[0][] } {
  const requests: Parameters<ChatModel['chat']>[0][] = [];
  return {
    model: 'fake-chat',
    requests,
    async chat(request) {
      requests.push(request);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}

/** A search hit with the seed's payload. */
export function hit(id: string, score: number, text: string, extra: Payload = {}): SearchHit {
  return {
    id,
    score,
    payload: {
      chunk_text: text,
      source_url: `https://book.example/docs/${id}`,
      chapter_id: 'topics',
      module_name: 'module1-ros2',
      heading_hierarchy: ['Topics', 'Publishing'],
      ...extra,
    },
  };
}
