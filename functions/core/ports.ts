/**
 * The ports: every interface the core needs from the outside world. Adapters in functions/adapters implement them;
 * the core never imports an adapter, an SDK, fetch or process.env.
 */
import type { RunDigest } from './history/run-digest.ts';
import type { IncidentState } from './report/incident-state.ts';

/** A payload filter in Qdrant's shape (must / should / must_not), which the vector-index adapter passes through. */
export type FilterCondition =
  | { key: string; match: { value: string | number | boolean } }
  | { key: string; match: { any: (string | number)[] } }
  | { is_empty: { key: string } }
  | { is_null: { key: string } };

export interface PayloadFilter {
  must?: FilterCondition[];
  should?: FilterCondition[];
  must_not?: FilterCondition[];
}

export type Payload = Record<string, unknown>;

export interface CollectionInfo {
  name: string;
  vectorSize: number;
  distance: string;
  pointsCount: number;
  /** Payload field -> index type as the index reports it ('keyword', 'integer', ...). */
  payloadIndexes: Record<string, string>;
}

export interface SearchRequest {
  vector: number[];
  limit: number;
  filter?: PayloadFilter;
  /** Payload fields to return; never the vectors. */
  payloadFields: string[];
  /** Exact (brute-force) search instead of the approximate index: the reference the ANN-health check compares with. */
  exact?: boolean;
}

/** A stored point read back with its vector. */
export interface StoredPoint {
  id: string;
  vector: number[];
  payload: Payload;
}

export interface SearchHit {
  id: string;
  score: number;
  payload: Payload;
}

export interface FacetHit {
  value: string | number | boolean;
  count: number;
}

export interface ScrollOptions {
  payloadFields: string[];
  pageSize: number;
  parallel?: { partitions: number; expectedPoints: number };
}

/** The vector database (Qdrant). Implementations translate transport failures into IndexError. */
export interface VectorIndex {
  describe(): Promise<CollectionInfo>;
  /** One round trip for many searches; results in request order. */
  searchBatch(requests: SearchRequest[]): Promise<SearchHit[][]>;
  count(filter?: PayloadFilter): Promise<number>;
  /** Exact facet counts for a payload field that has an index, over the points that match `filter` (all without). */
  facet(key: string, limit: number, filter?: PayloadFilter): Promise<FacetHit[]>;
  /**
   * The first `limit` points in the collection's own order (Qdrant: by id), with their vectors and the selected
   * payload fields, in one round trip: a fixed sample that costs one request whatever the collection's size.
   */
  firstPoints(limit: number, payloadFields: string[]): Promise<StoredPoint[]>;
  /**
   * Streams every point's selected payload, one page at a time, without vectors, each point once. With `parallel`,
   * the collection is read in up to `partitions` parts at once (Qdrant: id ranges cut from the first page and
   * `expectedPoints`), so pages arrive in no particular order and at most `partitions` are in flight.
   */
  scroll(options: ScrollOptions): AsyncIterable<{ id: string; payload: Payload }[]>;
}

export interface EmbeddingResult {
  vectors: number[][];
  /** Billed input tokens when the service reports them. */
  billedInputTokens?: number;
}

/** The embedding model (Cohere). Implementations translate failures into EmbeddingError. */
export interface Embedder {
  readonly model: string;
  /** Embeds at most `maxBatchSize` texts as search queries, in order. */
  embedQueries(texts: string[]): Promise<EmbeddingResult>;
  /** Embeds at most `maxBatchSize` texts as search documents (as the indexer did), in order. */
  embedDocuments(texts: string[]): Promise<EmbeddingResult>;
  readonly maxBatchSize: number;
}

/** One page a sitemap lists: its <loc>, and its <lastmod> (as written, W3C datetime) when the sitemap gives one. */
export interface SitemapEntry {
  url: string;
  lastmod?: string;
}

/**
 * Something the sitemap source refused or cut short while the listing went on: a URL it would not fetch or keep
 * (`refused`: another origin, another scheme, credentials, not a URL) or a cap it reached (`over_cap`: the listing
 * is partial). `url` names the URL at fault, without credentials.
 */
export interface SitemapIssue {
  kind: 'refused' | 'over_cap';
  url: string;
  message: string;
}

/** What a sitemap source read: the pages, and what it refused or cut on the way. */
export interface SitemapListing {
  entries: SitemapEntry[];
  issues: SitemapIssue[];
}

/** The book's sitemap. Implementations follow sitemap indexes and translate failures into SitemapError. */
export interface SitemapSource {
  readonly location: string;
  /** `signal` ends every request when the run's deadline strikes. */
  list(options?: { signal?: AbortSignal }): Promise<SitemapListing>;
}

/** Time, so the core can be tested with a fake clock. */
export interface Clock {
  now(): Date;
  /** Monotonic milliseconds, for durations. */
  monotonicMs(): number;
}

/** Past runs of a collection and environment, read from where the reports are stored, for baselines. */
export interface RunHistory {
  /**
   * Digests of at most `limit` stored runs of this collection and environment that started before `before`,
   * newest first. Implementations bound the requests and bytes they spend and skip what they cannot read.
   */
  recentRuns(query: { collection: string; environment: string; limit: number; before: string }): Promise<RunDigest[]>;
}

/** A stored incident state and the version tag a conditional write must name (null: nothing stored yet). */
export interface VersionedIncidentState {
  /** The stored JSON, parsed but not yet validated (core validates it). */
  state: unknown;
  version: string | null;
}

/** Where the incident state of a collection and environment lives; writes are conditional so two runs cannot both win. */
export interface IncidentStore {
  read(key: { collection: string; environment: string }): Promise<VersionedIncidentState>;
  /**
   * Writes the state only if the stored version is still `version` (null: only if none is stored yet).
   * Returns the new version, or null when another run wrote first; throws for any other failure.
   */
  write(
    key: { collection: string; environment: string },
    state: IncidentState,
    version: string | null,
  ): Promise<string | null>;
}

/** Progress events for a terminal progress bar or a log line. */
export type ProgressEvent =
  | { kind: 'stage'; stage: string; status: 'started' | 'finished' | 'failed' }
  | { kind: 'queries'; done: number; total: number };

export type ProgressListener = (event: ProgressEvent) => void;

/** A chunk handed to the chat model as a document it may cite, by id. */
export interface ChatDocument {
  id: string;
  text: string;
}

/** A span of the answer (UTF-16 offsets into `text`) and the documents the model says support it. */
export interface ChatCitation {
  start: number;
  end: number;
  text: string;
  documentIds: string[];
}

export interface ChatReply {
  text: string;
  citations: ChatCitation[];
  /** Billed tokens as the service reports them (0 when it does not). */
  billedUnits: { inputTokens: number; outputTokens: number };
}

/** The chat model (Cohere Chat v2) answering from given documents only. Implementations translate failures into ChatError. */
export interface ChatModel {
  readonly model: string;
  chat(request: { question: string; documents: ChatDocument[] }): Promise<ChatReply>;
}

/** One claim put to the judge, with the chunks it is checked against. */
export interface JudgeRequest {
  claim: string;
  chunks: ChatDocument[];
}

/** The judge's raw reply (core/grounding/judge.ts reads and checks it) and what it cost. */
interface JudgeReply {
  text: string;
  billedUnits: { inputTokens: number; outputTokens: number };
}

/**
 * The claim judge (Cohere Chat v2 with a JSON response format): says whether chunks support, contradict or do not
 * mention a claim. Implementations translate transport failures into ChatError; the reply's content is checked by
 * the core, never trusted.
 */
export interface ClaimJudge {
  readonly model: string;
  judge(request: JudgeRequest): Promise<JudgeReply>;
}
