/**
 * Reading points by id, deleting points and setting payload: what a re-indexer needs to replace a page's points
 * and what the index-health checks need to re-read stored vectors. Shapes from Qdrant's OpenAPI document
 * (PointRequest, PointsSelector = PointIdsList | FilterSelector, SetPayload); as in Qdrant, unknown ids are ignored.
 */
import type { Collection } from './collection.ts';
import { findCollection, type HandlerInput } from './collection-routes.ts';
import { parseFilter } from './filter.ts';
import { isPlainObject, parsePayloadSelector, selectPayload } from './payload-path.ts';
import { type PointId, parsePointId } from './point-id.ts';
import { readBody, readWaitParameter, readWithVector, requireField } from './request-fields.ts';
import { formatError, invalidType, unsupported } from './wire-error.ts';

/** POST /collections/{name}/points: the points with these ids, in the order asked, skipping unknown ones. */
export function getPoints(input: HandlerInput): unknown {
  const body = readBody(input.body, 'PointRequest');
  const ids = readIds(requireField(body, 'ids'));
  const withPayload = parsePayloadSelector(body.with_payload, { kind: 'all' });
  const withVector = readWithVector(body.with_vector, false);
  const collection = findCollection(input);
  return ids.flatMap((id) => {
    const slot = collection.slotOf(id);
    if (slot === undefined) return [];
    const payload = selectPayload(collection.payloadAt(slot), withPayload);
    return [
      {
        id,
        ...(payload === undefined ? {} : { payload }),
        ...(withVector ? { vector: collection.vectorAt(slot) } : {}),
      },
    ];
  });
}

/** POST /collections/{name}/points/delete: `{ points: [ids] }` or `{ filter }`. */
export function deletePoints(input: HandlerInput): unknown {
  const wait = readWaitParameter(input.query);
  const body = readBody(input.body, 'PointsSelector');
  const collection = findCollection(input);
  const ids = selectedIds(collection, body);
  const operationId = collection.takeOperationId();
  collection.delete(ids);
  return { operation_id: operationId, status: wait ? 'completed' : 'acknowledged' };
}

/** POST /collections/{name}/points/payload: merges `payload` into the selected points' payloads. */
export function setPayload(input: HandlerInput): unknown {
  const wait = readWaitParameter(input.query);
  const body = readBody(input.body, 'SetPayload');
  const payload = requireField(body, 'payload');
  if (!isPlainObject(payload)) throw invalidType(payload, 'a map');
  if (body.key != null) throw unsupported('`key` in set_payload');
  const collection = findCollection(input);
  const ids = selectedIds(collection, body);
  const operationId = collection.takeOperationId();
  collection.setPayload(ids, payload, operationId);
  return { operation_id: operationId, status: wait ? 'completed' : 'acknowledged' };
}

function selectedIds(collection: Collection, body: Record<string, unknown>): PointId[] {
  if (body.points != null) return readIds(body.points);
  const filter = parseFilter(body.filter);
  if (filter === undefined) throw formatError('data did not match any variant of untagged enum PointsSelector');
  const ids: PointId[] = [];
  for (let slot = 0; slot < collection.pointsCount; slot++) {
    if (filter(collection.payloadAt(slot), collection.idAt(slot))) ids.push(collection.idAt(slot));
  }
  return ids;
}

function readIds(value: unknown): PointId[] {
  if (!Array.isArray(value)) throw invalidType(value, 'a sequence');
  return value.map(parsePointId);
}
