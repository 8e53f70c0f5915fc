/**
 * A local stand-in for Qdrant 1.19's REST API, for the demo, the tests and the benchmark: a real HTTP server on
 * 127.0.0.1 that the official @qdrant/js-client-rest talks to unchanged (construct it with
 * `checkCompatibility: false`). It serves the endpoints ragwatch uses, with Qdrant's envelope, error codes and
 * wording, filters, exact brute-force cosine search, scroll, count and facet; it can add latency, inject faults
 * and count requests per OpenAPI operationId. See README.md beside this file for what it does and does not do.
 */
import type { PointInput } from './collection.ts';
import type { FilterLeak } from './filter-leak.ts';
import { parsePointId } from './point-id.ts';
import type { OperationId } from './routes.ts';
import type { ScorePerturbation } from './search.ts';
import { type Fault, type RecordedExchange, StandInServer } from './server.ts';
import { collectionNotFound } from './wire-error.ts';

export type { PointInput } from './collection.ts';

export type { OperationId } from './routes.ts';
export type { RecordedExchange } from './server.ts';

/** Options of startQdrantStandIn. */
export interface QdrantStandInOptions {
  /** Delay added to every answer, in ms (default 0). */
  latencyMs?: number;
  /** When set, every request but GET / needs this key (header `api-key` or `Authorization: Bearer`), else 401. */
  apiKey?: string;
  /** Keep every request and its answer for exchanges() (off by default: it holds every body in memory). */
  recordExchanges?: boolean;
}

/** A running stand-in. */
export interface QdrantStandIn {
  /** Base URL, e.g. http://127.0.0.1:45678 (no trailing slash). */
  readonly url: string;
  /** Closes the server and every connection, hanging requests included. */
  stop(): Promise<void>;
  /**
   * Requests received per OpenAPI operationId (e.g. `query_batch_points`, `facet`), faults and refusals included;
   * operations never called are absent (OPERATION_IDS lists them all).
   */
  requestCounts(): Record<string, number>;
  resetCounts(): void;
  /** Changes the delay added to every answer. */
  setLatency(ms: number): void;
  /** Makes the next `times` (default 1) requests of `operationId` (default: any) fail or hang. */
  inject(fault: Fault): void;
  /** Drops faults not yet consumed. */
  clearFaults(): void;
  /** Requests and answers so far, when started with `recordExchanges`. */
  exchanges(): RecordedExchange[];
  /**
   * Stores points straight into an existing collection, bypassing HTTP and JSON. It exists only for speed, so the
   * benchmark can fill a million points in seconds; behaviour is the same as an upsert (ids checked, vectors
   * checked and normalised, existing ids replaced). Tests of the wire use the client's upsert instead.
   */
  loadPoints(collection: string, points: readonly PointInput[]): void;
  /**
   * Degrades approximate search (a fault for the ANN-health check): non-exact queries then visit only this share
   * of the points (scaled by `hnsw_ef / 100`); `params.exact` still scans all. 1 (the default) is healthy.
   */
  degradeAnn(visitFraction: number): void;
  /**
   * Breaks filtering of approximate searches: each filtered one (`true`), or only those whose filter names
   * `key` = `value`, also returns the best point that fails its filter (see search.ts); `false` mends it.
   */
  leakFilters(scope: FilterLeak): void;
  /**
   * Adds `perturb(pointId, normalisedQuery, score)` to every search score from now on (null: exact scores again), for
   * the replay's per-(chunk, query) noise.
   */
  perturbScores(perturb: ScorePerturbation | null): void;
  /** Points approximate searches never reach from now on (an empty list restores them); exact search finds them. */
  makeUnreachable(ids: readonly (string | number)[]): void;
}

/** Starts a stand-in on 127.0.0.1 on an ephemeral port. */
export async function startQdrantStandIn(options: QdrantStandInOptions = {}): Promise<QdrantStandIn> {
  const server = new StandInServer(options);
  const url = await server.listen();
  return {
    url,
    stop: () => server.stop(),
    requestCounts: () => server.requestCounts(),
    resetCounts: () => server.resetCounts(),
    setLatency: (ms) => server.setLatency(ms),
    inject: (fault) => server.inject(fault),
    clearFaults: () => server.clearFaults(),
    exchanges: () => server.exchanges(),
    degradeAnn: (visitFraction) => {
      server.ann.visitFraction = visitFraction;
    },
    leakFilters: (scope) => {
      server.ann.filterLeak = scope;
    },
    perturbScores: (perturb) => {
      if (perturb === null) delete server.ann.perturb;
      else server.ann.perturb = perturb;
    },
    makeUnreachable: (ids) => {
      server.ann.unreachable = new Set(ids.map((id) => parsePointId(id)));
    },
    loadPoints: (name, points) => {
      const collection = server.collections.get(name);
      if (collection === undefined) throw collectionNotFound(name);
      const checked = points.map((point) => {
        const id = parsePointId(point.id);
        return id === point.id ? point : { ...point, id };
      });
      collection.upsert(checked, collection.takeOperationId());
    },
  };
}

/** Every operationId the stand-in serves, for callers that print or reset per-endpoint figures. */
export const OPERATION_IDS: readonly OperationId[] = [
  'root',
  'get_collections',
  'get_collection',
  'collection_exists',
  'create_collection',
  'delete_collection',
  'create_field_index',
  'upsert_points',
  'query_points',
  'query_batch_points',
  'scroll_points',
  'count_points',
  'facet',
  'get_points',
  'delete_points',
  'set_payload',
];
