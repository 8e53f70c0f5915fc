/**
 * Query validation for the whole suite at the cost of its dependent round trips only: every query is embedded
 * in ceil(N/96) calls and searched in ceil(N/100) query-batch calls, batches running concurrently (bounded).
 * A failed call turns only the queries it carried into ERROR results; the others go on.
 */
import pLimit from 'p-limit';
import { RESULT_FIELDS } from '../book/payload.ts';
import type {
  Clock,
  CollectionInfo,
  Embedder,
  ProgressListener,
  SearchHit,
  SearchRequest,
  VectorIndex,
} from '../ports.ts';
import type { ValidationError } from '../report/findings.ts';
import type { QueryValidationResult } from '../report/query-validation.ts';
import { describeError, isServiceError } from '../shared/errors.ts';
import { roundTo } from '../shared/statistics.ts';
import type { ResolvedQuery } from '../suite/suite.ts';
import type { BookCatalog } from './catalog.ts';
import { buildPayloadFilter } from './filters.ts';
import { anomalousScores, distanceProblem } from './index-trust.ts';
import { judgeQuery } from './judge-query.ts';

/** Qdrant accepts large batches, but 100 searches keep one request's body and answer comfortably small. */
export const SEARCH_BATCH_SIZE = 100;

type Failure = {
  errorType: 'EMBEDDING_FAILED' | 'RETRIEVAL_FAILED' | 'TIMEOUT' | 'RATE_LIMITED' | 'INDEX_ANOMALY';
  message: string;
};

interface QueryState {
  query: ResolvedQuery;
  vector?: number[];
  request?: SearchRequest;
  hits?: SearchHit[];
  failure?: Failure;
  /** Filter values the index does not have (catalog.ts): the query is not searched. */
  unknownFilters?: string[];
  /** The duration of the embed call and of the search call that carried the query: every query in it waited that long. */
  embeddingMs: number;
  searchMs: number;
  /** Those durations divided by the queries each call carried: the query's share of the batched calls. */
  embeddingShareMs: number;
  searchShareMs: number;
}

export interface QueryStageOptions {
  queries: ResolvedQuery[];
  embedder: Embedder;
  index: VectorIndex;
  /** The collection's description, awaited only once embeddings are ready so both round trips overlap. */
  collection: Promise<CollectionInfo>;
  /**
   * The index's modules and chapters, to resolve what the suite names; awaited before searching only when a query
   * filters on a module or chapter, before judging when one expects one. Unreadable: names are used as written.
   */
  catalog?: Promise<BookCatalog>;
  clock: Clock;
  newId: () => string;
  concurrency: number;
  progress?: ProgressListener;
}

export interface QueryStageResult {
  results: QueryValidationResult[];
  errors: ValidationError[];
  embedCalls: number;
  searchCalls: number;
  billedInputTokens: number;
  durationMs: number;
  /** Set when no query could be searched at all (the stage failed as a whole). */
  stageFailure: string | null;
  dimensionMismatch: { embedding: number; collection: number } | null;
  /** The collection's distance when the similarity rules are not defined for it (index-trust.ts): nothing searched. */
  unsupportedDistance: { collection: string; distance: string } | null;
  /** Queries whose hits carried scores no cosine can have (index-trust.ts), with the scores as written. */
  scoreAnomalies: { queryId: string; scores: string[] }[];
  /** Each searched query's request and hits, in suite order. */
  searches: { queryId: string; request: SearchRequest; hits: SearchHit[] }[];
}

/** The stage's shared state: each query's progress, the bound on concurrent calls, the call counts. */
interface Stage {
  options: QueryStageOptions;
  states: QueryState[];
  limit: ReturnType<typeof pLimit>;
  stats: { embedCalls: number; searchCalls: number; billedInputTokens: number };
}

/** Each query's payload filter, and the filter values the index does not have. */
type Filters = Map<QueryState, ReturnType<typeof buildPayloadFilter>>;

/** What checking the embeddings against the collection found; `distance` names the similarity in messages. */
interface CollectionCheck {
  stageFailure: string | null;
  dimensionMismatch: QueryStageResult['dimensionMismatch'];
  unsupportedDistance: QueryStageResult['unsupportedDistance'];
  distance: string;
}

/**
 * Embeds, searches and judges every query of the suite, in its natural steps: embed in batches, check the vectors
 * against the collection, resolve the filters, search in batches, judge each query.
 */
export async function runQueryStage(options: QueryStageOptions): Promise<QueryStageResult> {
  const started = options.clock.monotonicMs();
  const stage: Stage = {
    options,
    states: options.queries.map((query) => ({
      query,
      embeddingMs: 0,
      searchMs: 0,
      embeddingShareMs: 0,
      searchShareMs: 0,
    })),
    limit: pLimit(options.concurrency),
    stats: { embedCalls: 0, searchCalls: 0, billedInputTokens: 0 },
  };
  const { states } = stage;
  const embedBatches = await embedQueries(stage);
  const checked = await checkAgainstCollection(stage, embedBatches);
  const { catalog, filters } = await resolveFilters(stage);
  const scoreAnomalies = await searchQueries(stage, filters, checked.distance);
  const { results, errors } = judgeQueries(stage, catalog ?? (await settled(options.catalog)));

  let stageFailure = checked.stageFailure;
  if (stageFailure === null && scoreAnomalies.length > 0) {
    // One impossible score means the index's ranking cannot be trusted for any query: the run is an ERROR.
    stageFailure = `the index answered impossible scores for ${scoreAnomalies.length} of ${states.length} queries (first: ${scoreAnomalies[0]?.queryId}: ${scoreAnomalies[0]?.scores[0]})`;
  }
  // Nothing was evaluated when every query failed, leaving aside those the suite kept from being searched (a filter
  // the index does not have): an outage is an ERROR run, not a pass rate of 0 % (issue 22 §4).
  const failed = states.filter((s) => s.failure !== undefined);
  if (stageFailure === null && failed.length > 0 && states.every((s) => s.failure || s.unknownFilters)) {
    stageFailure = `no query could be run: ${failed[0]?.failure?.message}`;
  }
  // The searches as sent and answered, for the index-health checks (ANN recall, filter correctness).
  const searches = states.flatMap((s) =>
    s.request && s.hits ? [{ queryId: s.query.id, request: s.request, hits: s.hits }] : [],
  );
  return {
    results,
    errors,
    ...stage.stats,
    durationMs: options.clock.monotonicMs() - started,
    stageFailure,
    dimensionMismatch: checked.dimensionMismatch,
    unsupportedDistance: checked.unsupportedDistance,
    scoreAnomalies,
    searches,
  };
}

/** Step 1: every query embedded, in calls of the embedder's batch size; a failed call fails only its queries. */
async function embedQueries({ options, states, limit, stats }: Stage): Promise<QueryState[][]> {
  const { embedder, clock } = options;
  const embedBatches = chunk(states, embedder.maxBatchSize);
  await Promise.all(
    embedBatches.map((batch, call) =>
      limit(async () => {
        stats.embedCalls += 1;
        const t = clock.monotonicMs();
        try {
          const embedded = await embedder.embedQueries(batch.map((s) => s.query.query_text));
          stats.billedInputTokens += embedded.billedInputTokens ?? 0;
          if (embedded.vectors.length !== batch.length)
            throw new Error(
              `${embedCall(batch, call, embedBatches.length, embedder.model)} returned ${embedded.vectors.length} vectors for ${batch.length} queries`,
            );
          batch.forEach((s, i) => {
            s.vector = embedded.vectors[i];
          });
        } catch (error) {
          fail(batch, 'EMBEDDING_FAILED', error);
        }
        const elapsed = clock.monotonicMs() - t;
        for (const s of batch) {
          s.embeddingMs = elapsed;
          s.embeddingShareMs = elapsed / batch.length;
        }
      }),
    ),
  );
  return embedBatches;
}

/**
 * Step 2: the vectors against the collection, described meanwhile: a distance the similarity rules do not hold for,
 * or every vector of the wrong size, fails the stage; an embed call that answered a wrong size fails its queries.
 */
async function checkAgainstCollection(
  { options, states }: Stage,
  embedBatches: QueryState[][],
): Promise<CollectionCheck> {
  const { embedder } = options;
  const checked: CollectionCheck = {
    stageFailure: null,
    dimensionMismatch: null,
    unsupportedDistance: null,
    distance: '',
  };
  const embedded = states.filter((s) => s.vector !== undefined);
  if (embedded.length === 0) return checked;
  try {
    const info = await options.collection;
    checked.distance = info.distance;
    const problem = distanceProblem(info);
    // Every vector is checked, not the first: one embed call of the wrong size fails its own queries only.
    const wrong = embedded.filter((s) => s.vector?.length !== info.vectorSize);
    if (problem !== null) {
      checked.unsupportedDistance = { collection: info.name, distance: info.distance };
      checked.stageFailure = problem;
      fail(embedded, 'RETRIEVAL_FAILED', new Error(`not searched: ${problem}`));
    } else if (wrong.length === embedded.length) {
      const dimension = embedded[0]?.vector?.length ?? 0;
      checked.dimensionMismatch = { embedding: dimension, collection: info.vectorSize };
      checked.stageFailure = `embedding dimension ${dimension} (${embedder.model}) does not match the collection's vector size ${info.vectorSize}`;
      fail(embedded, 'RETRIEVAL_FAILED', new Error(`not searched: ${checked.stageFailure}`));
    } else {
      for (const [call, batch] of embedBatches.entries()) {
        const bad = batch.filter((s) => wrong.includes(s));
        if (bad.length === 0) continue;
        const sizes = [...new Set(bad.map((s) => s.vector?.length ?? 0))].join(', ');
        // A call that answered one wrong vector is not trusted for the others it carried.
        fail(
          batch.filter((s) => s.vector !== undefined),
          'EMBEDDING_FAILED',
          new Error(
            `${embedCall(batch, call, embedBatches.length, embedder.model)} returned ${bad.length} of ${batch.length} ` +
              `vectors of size ${sizes}; the collection "${info.name}" holds vectors of size ${info.vectorSize}: ` +
              'not searched',
          ),
        );
      }
    }
  } catch (error) {
    fail(embedded, 'RETRIEVAL_FAILED', error);
  }
  return checked;
}

/**
 * Step 3: each query's payload filter, waiting for the catalog only when a query filters on a module or chapter; a
 * filter value the index does not have keeps its query from being searched.
 */
async function resolveFilters({ options, states }: Stage): Promise<{ catalog?: BookCatalog; filters: Filters }> {
  const filtersNameCatalog = options.queries.some(
    (q) => q.filters.module !== undefined || q.filters.chapter !== undefined,
  );
  const catalog = await settled(filtersNameCatalog ? options.catalog : undefined);
  const filters = new Map(states.map((s) => [s, buildPayloadFilter(s.query.filters, catalog)]));
  for (const s of states) {
    const unknown = filters.get(s)?.unknown ?? [];
    if (unknown.length > 0 && s.failure === undefined) s.unknownFilters = unknown;
  }
  return { catalog, filters };
}

/**
 * Step 4: the searchable queries searched in batches of SEARCH_BATCH_SIZE; hits with a score no similarity can have
 * fail their query (index-trust.ts) and are returned as the stage's anomalies.
 */
async function searchQueries(
  { options, states, limit, stats }: Stage,
  filters: Filters,
  distance: string,
): Promise<QueryStageResult['scoreAnomalies']> {
  const { index, clock } = options;
  const scoreAnomalies: QueryStageResult['scoreAnomalies'] = [];
  const searchable = states.filter(
    (s) => s.vector !== undefined && s.failure === undefined && s.unknownFilters === undefined,
  );
  // "done" counts every query whose outcome is settled: one that will not be searched (its embedding failed, its
  // filter names nothing the index has) is done now, so the count reaches the total instead of stalling at 20/21.
  let done = states.length - searchable.length;
  if (states.length > 0) options.progress?.({ kind: 'queries', done, total: states.length });
  await Promise.all(
    chunk(searchable, SEARCH_BATCH_SIZE).map((batch) =>
      limit(async () => {
        stats.searchCalls += 1;
        const t = clock.monotonicMs();
        try {
          const hits = await index.searchBatch(
            batch.map((s) => {
              const filter = filters.get(s)?.filter;
              s.request = {
                vector: s.vector ?? [],
                limit: s.query.search_limit ?? s.query.top_k,
                payloadFields: RESULT_FIELDS,
                ...(filter ? { filter } : {}),
              };
              return s.request;
            }),
          );
          batch.forEach((s, i) => {
            const answered = hits[i] ?? [];
            const anomalies = anomalousScores(answered);
            if (anomalies.length === 0) s.hits = answered;
            else {
              scoreAnomalies.push({ queryId: s.query.id, scores: anomalies });
              s.failure = {
                errorType: 'INDEX_ANOMALY',
                message: `Qdrant answered scores no ${distance} similarity can have (outside -1..1 or not finite): ${anomalies.join(', ')}`,
              };
            }
          });
        } catch (error) {
          fail(batch, 'RETRIEVAL_FAILED', error);
        }
        const elapsed = clock.monotonicMs() - t;
        for (const s of batch) {
          s.searchMs = elapsed;
          s.searchShareMs = elapsed / batch.length;
        }
        done += batch.length;
        options.progress?.({ kind: 'queries', done, total: states.length });
      }),
    ),
  );
  return scoreAnomalies;
}

/**
 * Step 5: each query judged on what came back, its latency the time it waited plus the judging's own. A batched
 * call's duration is every query's wait, so a percentile over those grows with the batch (issue 23 §6): each query
 * also gets its share of the calls that carried it (batch_share_ms), which the run's latency percentiles are over.
 */
function judgeQueries({ options, states }: Stage, catalog: BookCatalog | undefined) {
  const { clock } = options;
  const results: QueryValidationResult[] = [];
  const errors: ValidationError[] = [];
  for (const s of states) {
    const t = clock.monotonicMs();
    const timestamp = clock.now().toISOString();
    // Judged on the time the query waited for the services; the judging itself is added once measured.
    const waited = roundTo(s.embeddingMs + s.searchMs, 1);
    const latency = {
      embedding_ms: roundTo(s.embeddingMs, 1),
      search_ms: roundTo(s.searchMs, 1),
      post_processing_ms: 0,
      total_ms: waited,
    };
    const judged = judgeQuery({
      query: s.query,
      hits: s.hits ?? null,
      ...(s.failure ? { failure: s.failure } : {}),
      ...(s.unknownFilters ? { unknownFilters: s.unknownFilters } : {}),
      ...(catalog ? { catalog } : {}),
      latency,
      timestamp,
      newId: options.newId,
    });
    const post = roundTo(clock.monotonicMs() - t, 1);
    judged.result.latency = {
      ...latency,
      post_processing_ms: post,
      total_ms: roundTo(latency.embedding_ms + latency.search_ms + post, 1),
      batch_share_ms: roundTo(s.embeddingShareMs + s.searchShareMs + post, 1),
    };
    results.push(judged.result);
    errors.push(...judged.errors);
  }
  return { results, errors };
}

/** The catalog when it could be read; undefined otherwise (the profile stage reports an unreadable index). */
async function settled(catalog: Promise<BookCatalog> | undefined): Promise<BookCatalog | undefined> {
  try {
    return await catalog;
  } catch {
    return undefined;
  }
}

function fail(batch: QueryState[], errorType: Failure['errorType'], error: unknown): void {
  // A timeout and a rate limit that could not be waited out say so in their type: ops act on them differently.
  const kind = isServiceError(error) ? error.kind : undefined;
  const type = kind === 'timeout' ? 'TIMEOUT' : kind === 'rate_limited' ? 'RATE_LIMITED' : errorType;
  for (const s of batch) s.failure = { errorType: type, message: describeError(error) };
}

/** "Cohere embed call 2 of 3 (embed-english-v3.0, queries q96..q191)": the call that misbehaved, for its queries. */
function embedCall(batch: QueryState[], call: number, calls: number, model: string): string {
  const first = batch[0]?.query.id;
  const last = batch.at(-1)?.query.id;
  const which = first === last ? `query ${first}` : `queries ${first}..${last}`;
  return `Cohere embed call ${call + 1} of ${calls} (${model}, ${which})`;
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
