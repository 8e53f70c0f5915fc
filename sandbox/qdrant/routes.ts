/**
 * The route table: each endpoint the stand-in serves, keyed by the operationId of Qdrant's OpenAPI document. As in
 * Qdrant (actix routes with method guards), a known path with another method is a 404, not a 405.
 */
import {
  checkCollectionExists,
  createCollection,
  createFieldIndex,
  deleteCollection,
  describeCollection,
  describeService,
  type Handler,
  listCollections,
} from './collection-routes.ts';
import { countPoints, facetPoints, queryBatchPoints, queryPoints, scrollPoints, upsertPoints } from './point-routes.ts';
import { deletePoints, getPoints, setPayload } from './point-update-routes.ts';

/** The operationIds (from Qdrant's OpenAPI document) of the endpoints the stand-in serves. */
export type OperationId =
  | 'root'
  | 'get_collections'
  | 'get_collection'
  | 'collection_exists'
  | 'create_collection'
  | 'delete_collection'
  | 'create_field_index'
  | 'upsert_points'
  | 'query_points'
  | 'query_batch_points'
  | 'scroll_points'
  | 'count_points'
  | 'facet'
  | 'get_points'
  | 'delete_points'
  | 'set_payload';

/** One endpoint: how to recognise it and what answers it. */
export interface Route {
  operationId: OperationId;
  method: string;
  pattern: RegExp;
  handler: Handler;
  /** The request must carry a JSON body (Qdrant's `Json<…>` extractor). */
  needsBody: boolean;
  /** The answer is the bare result, not the `{ result, status, time }` envelope (GET / only). */
  bare?: boolean;
}

const NAME = '([^/]+)';

/** Every route, in matching order. */
const ROUTES: readonly Route[] = [
  { operationId: 'root', method: 'GET', pattern: /^\/$/, handler: describeService, needsBody: false, bare: true },
  {
    operationId: 'get_collections',
    method: 'GET',
    pattern: /^\/collections$/,
    handler: listCollections,
    needsBody: false,
  },
  route('get_collection', 'GET', '', describeCollection, false),
  route('create_collection', 'PUT', '', createCollection, true),
  route('delete_collection', 'DELETE', '', deleteCollection, false),
  route('collection_exists', 'GET', '/exists', checkCollectionExists, false),
  route('create_field_index', 'PUT', '/index', createFieldIndex, true),
  route('upsert_points', 'PUT', '/points', upsertPoints, true),
  route('query_points', 'POST', '/points/query', queryPoints, true),
  route('query_batch_points', 'POST', '/points/query/batch', queryBatchPoints, true),
  route('scroll_points', 'POST', '/points/scroll', scrollPoints, true),
  route('count_points', 'POST', '/points/count', countPoints, true),
  route('facet', 'POST', '/facet', facetPoints, true),
  route('get_points', 'POST', '/points', getPoints, true),
  route('delete_points', 'POST', '/points/delete', deletePoints, true),
  route('set_payload', 'POST', '/points/payload', setPayload, true),
];

function route(operationId: OperationId, method: string, suffix: string, handler: Handler, needsBody: boolean): Route {
  return { operationId, method, pattern: new RegExp(`^/collections/${NAME}${suffix}$`), handler, needsBody };
}

/** The route for a request and the collection name in its path, if any; undefined for Qdrant's 404. */
export function matchRoute(method: string, path: string): { route: Route; name: string } | undefined {
  for (const candidate of ROUTES) {
    if (candidate.method !== method) continue;
    const match = candidate.pattern.exec(path);
    if (match === null) continue;
    try {
      return { route: candidate, name: decodeURIComponent(match[1] ?? '') };
    } catch {
      return undefined;
    }
  }
  return undefined;
}
