/**
 * The point endpoints: upsert, query (universal query API, dense nearest only), query batch, scroll, count, facet.
 * As in Qdrant, a body is read and validated before the collection is looked up (so a bad body is a 400/422 even
 * for a missing collection), and vector dimensions are checked against the collection after.
 */
import type { Collection, PointInput } from './collection.ts';
import { findCollection, type HandlerInput } from './collection-routes.ts';
import { type PointPredicate, parseFilter } from './filter.ts';
import { matchingSlots } from './filter-slots.ts';
import { countFacet } from './payload-index.ts';
import { isPlainObject, type PayloadSelector, parsePayloadSelector, selectPayload } from './payload-path.ts';
import { parsePointId } from './point-id.ts';
import {
  readBody,
  readBoolean,
  readDenseVector,
  readFloat,
  readLimit,
  readPointVector,
  readUsize,
  readWaitParameter,
  readWithVector,
  requireField,
} from './request-fields.ts';
import { type AnnSettings, type ScoredSlot, searchNearest, searchNearestBatch } from './search.ts';
import { formatError, invalidType, unsupported, vectorDimensionError, vectorNameError } from './wire-error.ts';

const DEFAULT_LIMIT = 10;

/** PUT /collections/{name}/points: a list of points, or a column batch; upsert replaces vector and payload. */
export function upsertPoints(input: HandlerInput): unknown {
  const wait = readWaitParameter(input.query);
  const points = readPoints(readBody(input.body, 'PointInsertOperations'));
  const collection = findCollection(input);
  const operationId = collection.takeOperationId();
  collection.upsert(points, operationId);
  // The stand-in applies every write before answering; `wait` only changes what it reports, as in Qdrant.
  return { operation_id: operationId, status: wait ? 'completed' : 'acknowledged' };
}

function readPoints(body: Record<string, unknown>): PointInput[] {
  if (body.update_filter != null || (body.update_mode != null && body.update_mode !== 'upsert')) {
    throw unsupported('conditional upserts (`update_filter`, `update_mode`)');
  }
  if (Array.isArray(body.points)) {
    return body.points.map((point) => {
      if (!isPlainObject(point)) throw invalidType(point, 'struct PointStruct');
      return {
        id: parsePointId(requireField(point, 'id')),
        vector: readPointVector(requireField(point, 'vector')),
        payload: readPayload(point.payload),
      };
    });
  }
  if (isPlainObject(body.batch)) {
    const { ids, vectors, payloads } = body.batch;
    if (!Array.isArray(ids) || !Array.isArray(vectors)) throw formatError('missing field `ids`');
    if (vectors.length !== ids.length || (Array.isArray(payloads) && payloads.length !== ids.length)) {
      throw formatError('The number of ids, vectors and payloads must match');
    }
    return ids.map((id, i) => ({
      id: parsePointId(id),
      vector: readDenseVector(vectors[i], 'BatchVectorStruct'),
      payload: readPayload(Array.isArray(payloads) ? payloads[i] : undefined),
    }));
  }
  throw formatError('data did not match any variant of untagged enum PointInsertOperations');
}

function readPayload(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) throw invalidType(value, 'a map');
  return value;
}

interface NearestRequest {
  vector: number[];
  filter: PointPredicate | undefined;
  filterJson: unknown;
  limit: number;
  offset: number;
  scoreThreshold: number | undefined;
  withPayload: PayloadSelector;
  withVector: boolean;
  exact: boolean;
  hnswEf: number | undefined;
}

function readQueryRequest(value: unknown, field: string): NearestRequest {
  const body = readBody(value, 'QueryRequest');
  if (body.prefetch != null) throw unsupported('`prefetch`');
  if (body.lookup_from != null) throw unsupported('`lookup_from`');
  if (body.using != null && body.using !== '') {
    throw vectorNameError(String(body.using));
  }
  return {
    vector: readNearest(body.query),
    filter: parseFilter(body.filter),
    filterJson: body.filter,
    limit: readLimit(body.limit, `${field}.limit`, DEFAULT_LIMIT),
    offset: readUsize(body.offset) ?? 0,
    scoreThreshold: readFloat(body.score_threshold),
    withPayload: parsePayloadSelector(body.with_payload, { kind: 'none' }),
    withVector: readWithVector(body.with_vector, false),
    ...readSearchParams(body.params),
  };
}

/** `params` (SearchParams): `exact` and `hnsw_ef` steer the approximate search; quantization and the rest are ignored. */
function readSearchParams(value: unknown): { exact: boolean; hnswEf: number | undefined } {
  if (value === undefined || value === null) return { exact: false, hnswEf: undefined };
  if (!isPlainObject(value)) throw invalidType(value, 'struct SearchParams');
  return { exact: readBoolean(value.exact, false), hnswEf: readUsize(value.hnsw_ef) };
}

function readNearest(query: unknown): number[] {
  if (query === undefined || query === null) throw unsupported('queries without `query` (use scroll to list points)');
  if (isPlainObject(query)) {
    if ('nearest' in query && Object.keys(query).length === 1) return readNearest(query.nearest);
    throw unsupported(`this query kind (${Object.keys(query).join(', ')}); only a dense vector or { nearest }`);
  }
  if (Array.isArray(query)) return readDenseVector(query, 'VectorInput');
  throw unsupported('queries by point id, document or image; only a dense vector');
}

function runNearest(collection: Collection, request: NearestRequest, ann: AnnSettings): unknown {
  if (request.vector.length !== collection.size) throw vectorDimensionError(collection.size, request.vector.length);
  return answerOf(collection, request, searchNearest(collection, request, ann));
}

function answerOf(collection: Collection, request: NearestRequest, hits: ScoredSlot[]): unknown {
  return {
    points: hits.map(({ slot, score }) => ({
      id: collection.idAt(slot),
      version: collection.versionAt(slot),
      score,
      ...pointExtras(collection, slot, request.withPayload, request.withVector),
    })),
  };
}

function pointExtras(collection: Collection, slot: number, withPayload: PayloadSelector, withVector: boolean): object {
  const payload = selectPayload(collection.payloadAt(slot), withPayload);
  return {
    ...(payload === undefined ? {} : { payload }),
    ...(withVector ? { vector: collection.vectorAt(slot) } : {}),
  };
}

/** POST /collections/{name}/points/query */
export function queryPoints(input: HandlerInput): unknown {
  // Qdrant's QueryRequest flattens QueryRequestInternal, so validation errors are labelled `internal.limit`.
  const request = readQueryRequest(input.body, 'internal');
  return runNearest(findCollection(input), request, input.ann);
}

/** POST /collections/{name}/points/query/batch: one result per search, in order. */
export function queryBatchPoints(input: HandlerInput): unknown {
  const body = readBody(input.body, 'QueryRequestBatch');
  const searches = requireField(body, 'searches');
  if (!Array.isArray(searches)) throw invalidType(searches, 'a sequence');
  const requests = searches.map((search, i) => readQueryRequest(search, `searches[${i}].internal`));
  const collection = findCollection(input);
  for (const request of requests) {
    if (request.vector.length !== collection.size) throw vectorDimensionError(collection.size, request.vector.length);
  }
  // One pass over the vectors serves several searches (search.ts); each answer is the one it would get alone.
  const hits = searchNearestBatch(collection, requests, input.ann);
  return requests.map((request, i) => answerOf(collection, request, hits[i] as ScoredSlot[]));
}

/** POST /collections/{name}/points/scroll: points in id order from `offset`, with the next page's first id. */
export function scrollPoints(input: HandlerInput): unknown {
  const body = readBody(input.body, 'ScrollRequest');
  if (body.order_by != null) throw unsupported('`order_by` in scroll');
  const limit = readLimit(body.limit, 'scroll_request.limit', DEFAULT_LIMIT);
  const offset = body.offset == null ? undefined : parsePointId(body.offset);
  const filter = parseFilter(body.filter);
  const withPayload = parsePayloadSelector(body.with_payload, { kind: 'all' });
  const withVector = readWithVector(body.with_vector, false);
  const collection = findCollection(input);

  const points: unknown[] = [];
  let nextPageOffset: unknown = null;
  const total = collection.pointsCount;
  for (let rank = offset === undefined ? 0 : collection.rankOfFirstAtOrAfter(offset); rank < total; rank++) {
    const slot = collection.slotAtRank(rank);
    if (filter !== undefined && !filter(collection.payloadAt(slot), collection.idAt(slot))) continue;
    if (points.length === limit) {
      nextPageOffset = collection.idAt(slot);
      break;
    }
    points.push({ id: collection.idAt(slot), ...pointExtras(collection, slot, withPayload, withVector) });
  }
  return { points, next_page_offset: nextPageOffset };
}

/**
 * POST /collections/{name}/points/count: exact whatever `exact` says. The filter is planned as Qdrant plans it:
 * `is_empty` / `is_null` on an indexed key from the index, the rest against the payloads (filter-slots.ts).
 */
export function countPoints(input: HandlerInput): unknown {
  const body = readBody(input.body, 'CountRequest');
  const filter = parseFilter(body.filter);
  readBoolean(body.exact, true);
  const collection = findCollection(input);
  if (filter === undefined) return { count: collection.pointsCount };
  return { count: matchingSlots(collection, body.filter).count() };
}

/** POST /collections/{name}/facet */
export function facetPoints(input: HandlerInput): unknown {
  const body = readBody(input.body, 'FacetRequest');
  const key = requireField(body, 'key');
  if (typeof key !== 'string') throw invalidType(key, 'a string');
  const limit = readLimit(body.limit, 'facet_request.limit', DEFAULT_LIMIT);
  // Checked here (a bad filter is a 400 before the collection is looked up); the facet reads it as valid.
  const filter = parseFilter(body.filter) === undefined ? undefined : body.filter;
  readBoolean(body.exact, false);
  const collection = findCollection(input);
  return { hits: countFacet(collection, { key, limit, filter }) };
}
