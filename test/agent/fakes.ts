/**
 * Small fakes of the ports the agent needs, for the pure tests, and an in-memory index of a few book chunks for the
 * end-to-end tests of the agent against the Cohere stand-in.
 */
import type {
  ChatModel,
  ChatReply,
  Clock,
  Embedder,
  FilterCondition,
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

export interface BookChunk {
  id: string;
  text: string;
  payload: Payload;
}

/**
 * An in-memory VectorIndex over chunks embedded with a given function: cosine ranking, Qdrant-style `must`
 * match filters (an array field matches when any element equals the value).
 */
export function createMemoryIndex(chunks: BookChunk[], embed: (text: string) => number[]): VectorIndex {
  const points = chunks.map((c) => ({ ...c, vector: embed(c.text) }));
  const matches = (payload: Payload, condition: FilterCondition) => {
    if (!('key' in condition) || !('value' in condition.match)) return true;
    const field = payload[condition.key];
    const value = condition.match.value;
    return Array.isArray(field) ? field.includes(value) : field === value;
  };
  const refuse = () => Promise.reject(new Error('not used by the agent'));
  return {
    async searchBatch(requests) {
      return requests.map((r) =>
        points
          .filter((p) => (r.filter?.must ?? []).every((c) => matches(p.payload, c)))
          .map((p) => ({ id: p.id, score: cosine(r.vector, p.vector), payload: pick(p, r.payloadFields) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, r.limit),
      );
    },
    describe: refuse,
    count: refuse,
    facet: refuse,
    scroll: () => ({
      [Symbol.asyncIterator]: () => ({ next: refuse }),
    }),
  };
}

function pick(point: BookChunk, fields: string[]): Payload {
  const all: Payload = { chunk_text: point.text, ...point.payload };
  return Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]]));
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] ?? 0) * (b[i] ?? 0);
    na += (a[i] ?? 0) ** 2;
    nb += (b[i] ?? 0) ** 2;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
