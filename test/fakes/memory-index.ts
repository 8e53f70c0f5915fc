/**
 * An in-memory VectorIndex for core unit tests: the filter subset the core sends (match, is_empty, is_null
 * under must / should / must_not), cosine search, facets and paged scroll, and a log of every call.
 * End-to-end tests use the real client against the Qdrant stand-in instead.
 */
import type {
  CollectionInfo,
  FacetHit,
  FilterCondition,
  Payload,
  PayloadFilter,
  ScrollOptions,
  SearchHit,
  SearchRequest,
  StoredPoint,
  VectorIndex,
} from '../../functions/core/ports.ts';

export interface MemoryPoint {
  id: string;
  vector?: number[];
  payload: Payload;
}

export class MemoryIndex implements VectorIndex {
  readonly calls: string[] = [];
  readonly points: MemoryPoint[];
  readonly info: CollectionInfo;
  failWith: Partial<Record<'describe' | 'searchBatch' | 'count' | 'facet' | 'scroll' | 'firstPoints', Error>> = {};
  /** Points approximate searches never reach (a degraded HNSW graph); exact searches (`exact: true`) find them. */
  unreachable = new Set<string>();
  /** The arguments of every facet call, in order. */
  readonly facets: { key: string; limit: number; filter?: PayloadFilter }[] = [];
  /** The requests of every searchBatch call, in order. */
  readonly searches: SearchRequest[][] = [];

  constructor(points: MemoryPoint[], info: Partial<CollectionInfo> = {}) {
    this.points = points;
    this.info = {
      name: 'book',
      vectorSize: 3,
      distance: 'Cosine',
      pointsCount: points.length,
      payloadIndexes: {},
      ...info,
    };
  }

  async describe(): Promise<CollectionInfo> {
    this.#enter('describe');
    return this.info;
  }

  async searchBatch(requests: SearchRequest[]): Promise<SearchHit[][]> {
    this.#enter('searchBatch');
    this.searches.push(requests);
    return requests.map((r) =>
      this.points
        .filter((p) => matches(p.payload, r.filter) && (r.exact === true || !this.unreachable.has(p.id)))
        .map((p) => ({ id: p.id, score: cosine(r.vector, p.vector ?? []), payload: pick(p.payload, r.payloadFields) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, r.limit),
    );
  }

  async count(filter?: PayloadFilter): Promise<number> {
    this.#enter('count');
    return this.points.filter((p) => matches(p.payload, filter)).length;
  }

  async facet(key: string, limit: number, filter?: PayloadFilter): Promise<FacetHit[]> {
    this.#enter('facet');
    this.facets.push({ key, limit, ...(filter ? { filter } : {}) });
    const counts = new Map<string | number, number>();
    for (const p of this.points.filter((point) => matches(point.payload, filter))) {
      const v = p.payload[key];
      if (typeof v === 'string' || typeof v === 'number') counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    return [...counts]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count)
      .slice(0, limit);
  }

  /** The first points in insertion order, which stands for the collection's own (id) order. */
  async firstPoints(limit: number, payloadFields: string[]): Promise<StoredPoint[]> {
    this.#enter('firstPoints');
    return this.points
      .slice(0, limit)
      .map((p) => ({ id: p.id, vector: p.vector ?? [], payload: pick(p.payload, payloadFields) }));
  }

  /**
   * Pages in order, or with `parallel` as the Qdrant adapter delivers them: the first page, then the rest in up to
   * `partitions` contiguous parts whose pages arrive interleaved, last part first, so a consumer that depended on
   * the collection's order would be caught.
   */
  async *scroll(options: ScrollOptions): AsyncIterable<{ id: string; payload: Payload }[]> {
    const size = options.pageSize;
    const page = (from: number, to: number) => {
      this.#enter('scroll');
      return this.points.slice(from, to).map((p) => ({ id: p.id, payload: pick(p.payload, options.payloadFields) }));
    };
    if (this.points.length === 0) this.#enter('scroll');
    if (this.points.length > 0) yield page(0, size);
    const rest = this.points.length - size;
    const parts = Math.max(1, Math.min(options.parallel?.partitions ?? 1, Math.ceil(rest / size)));
    const share = Math.ceil(rest / parts);
    const cursors = Array.from({ length: parts }, (_, k) => ({
      at: size + k * share,
      end: Math.min(this.points.length, size + (k + 1) * share),
    })).reverse();
    while (cursors.some((c) => c.at < c.end)) {
      for (const cursor of cursors) {
        if (cursor.at >= cursor.end) continue;
        const to = Math.min(cursor.end, cursor.at + size);
        yield page(cursor.at, to);
        cursor.at = to;
      }
    }
  }

  #enter(operation: keyof MemoryIndex['failWith']): void {
    this.calls.push(operation);
    const failure = this.failWith[operation];
    if (failure) throw failure;
  }
}

function pick(payload: Payload, fields: string[]): Payload {
  return Object.fromEntries(fields.filter((f) => f in payload).map((f) => [f, payload[f]]));
}

function matches(payload: Payload, filter?: PayloadFilter): boolean {
  if (!filter) return true;
  const test = (c: FilterCondition) => holds(payload, c);
  return (
    (filter.must ?? []).every(test) &&
    (filter.should === undefined || filter.should.length === 0 || filter.should.some(test)) &&
    !(filter.must_not ?? []).some(test)
  );
}

function holds(payload: Payload, c: FilterCondition): boolean {
  if ('is_empty' in c) {
    const v = payload[c.is_empty.key];
    return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
  }
  if ('is_null' in c) return payload[c.is_null.key] === null;
  const v = payload[c.key];
  const values = Array.isArray(v) ? v : [v];
  return 'value' in c.match
    ? values.includes(c.match.value)
    : values.some((x) => (c.match as { any: unknown[] }).any.includes(x));
}

function cosine(a: number[], b: number[]): number {
  const dot = a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
  const norm = Math.hypot(...a) * Math.hypot(...b);
  return norm === 0 ? 0 : dot / norm;
}
