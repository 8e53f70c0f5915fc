/**
 * The service and collection endpoints: version info, list, info, exists, create, delete, and payload index creation.
 * Each handler takes the parsed request and returns the `result` the server wraps in Qdrant's envelope.
 */
import { Collection, type Distance } from './collection.ts';
import { parseFieldSchema } from './payload-index.ts';
import { isPlainObject } from './payload-path.ts';
import { readBody, readWaitParameter, requireField } from './request-fields.ts';
import type { AnnSettings } from './search.ts';
import { collectionAlreadyExists, collectionNotFound, formatError, invalidType, unsupported } from './wire-error.ts';

/** The Qdrant release whose API the stand-in speaks. */
const QDRANT_VERSION = '1.19.0';

/** What a handler receives: the store, the collection named in the path (if any), the query string and the body. */
export interface HandlerInput {
  collections: Map<string, Collection>;
  /** How approximate searches behave (the stand-in's ANN knob). */
  ann: AnnSettings;
  name: string;
  query: URLSearchParams;
  body: unknown;
}

/** A handler returns the envelope's `result`. */
export type Handler = (input: HandlerInput) => unknown;

const DISTANCES: readonly Distance[] = ['Cosine', 'Euclid', 'Dot', 'Manhattan'];

/** The collection named in the path, or Qdrant's 404. */
export function findCollection(input: HandlerInput): Collection {
  const collection = input.collections.get(input.name);
  if (collection === undefined) throw collectionNotFound(input.name);
  return collection;
}

/** GET /: Qdrant's VersionInfo (the only answer without the envelope). */
export function describeService(): unknown {
  return { title: 'qdrant - vector search engine', version: QDRANT_VERSION };
}

/** GET /collections */
export function listCollections(input: HandlerInput): unknown {
  return { collections: [...input.collections.keys()].map((name) => ({ name })) };
}

/** GET /collections/{name}/exists */
export function checkCollectionExists(input: HandlerInput): unknown {
  return { exists: input.collections.has(input.name) };
}

/** PUT /collections/{name}: one unnamed dense vector of `size` with a `distance`. */
export function createCollection(input: HandlerInput): unknown {
  const body = readBody(input.body, 'CreateCollection');
  const vectors = body.vectors;
  if (vectors === undefined || vectors === null) throw unsupported('collections without a dense vector');
  if (!isPlainObject(vectors) || !('size' in vectors)) throw unsupported('named vectors');
  const size = vectors.size;
  if (typeof size !== 'number' || !Number.isInteger(size)) throw invalidType(size, 'u64');
  if (size < 1) throw formatError(`invalid value: integer \`${size}\`, expected a nonzero u64`);
  const distance = DISTANCES.find((d) => d === vectors.distance);
  if (distance === undefined) {
    if (vectors.distance === undefined) throw formatError('missing field `distance`');
    throw formatError(
      `unknown variant \`${String(vectors.distance)}\`, expected one of \`Cosine\`, \`Euclid\`, \`Dot\`, \`Manhattan\``,
    );
  }
  if (input.collections.has(input.name)) throw collectionAlreadyExists(input.name);
  input.collections.set(input.name, new Collection({ name: input.name, size, distance }));
  return true;
}

/** DELETE /collections/{name}: true when it existed, false otherwise (not an error in Qdrant). */
export function deleteCollection(input: HandlerInput): unknown {
  return input.collections.delete(input.name);
}

/** PUT /collections/{name}/index: creates (or replaces) a payload index on `field_name`. */
export function createFieldIndex(input: HandlerInput): unknown {
  const wait = readWaitParameter(input.query);
  const body = readBody(input.body, 'CreateFieldIndex');
  const field = requireField(body, 'field_name');
  if (typeof field !== 'string') throw invalidType(field, 'a string');
  if (body.field_schema === undefined || body.field_schema === null) {
    throw unsupported('index creation without `field_schema` (type inference)');
  }
  const index = parseFieldSchema(body.field_schema);
  const collection = findCollection(input);
  collection.createIndex(field, index);
  return { operation_id: collection.takeOperationId(), status: wait ? 'completed' : 'acknowledged' };
}

/** GET /collections/{name}: CollectionInfo with the fields Qdrant 1.19 reports. */
export function describeCollection(input: HandlerInput): unknown {
  const collection = findCollection(input);
  const payloadSchema: Record<string, unknown> = {};
  for (const [key, index] of collection.indexes) {
    payloadSchema[key] = {
      data_type: index.dataType,
      ...(index.params ? { params: index.params } : {}),
      points: collection.fieldIndex(key)?.points ?? 0,
    };
  }
  return {
    status: 'green',
    optimizer_status: 'ok',
    // Brute force, no HNSW graph: like a Qdrant collection below its indexing threshold, nothing is "indexed".
    indexed_vectors_count: 0,
    points_count: collection.pointsCount,
    segments_count: 1,
    config: {
      params: {
        vectors: { size: collection.size, distance: collection.distance },
        shard_number: 1,
        replication_factor: 1,
        write_consistency_factor: 1,
        on_disk_payload: true,
      },
      hnsw_config: { m: 16, ef_construct: 100, full_scan_threshold: 10000, max_indexing_threads: 0, on_disk: false },
      optimizer_config: {
        deleted_threshold: 0.2,
        vacuum_min_vector_number: 1000,
        default_segment_number: 0,
        max_segment_size: null,
        memmap_threshold: null,
        indexing_threshold: 10000,
        flush_interval_sec: 5,
        max_optimization_threads: null,
      },
      wal_config: { wal_capacity_mb: 32, wal_segments_ahead: 0, wal_retain_closed: 1 },
      quantization_config: null,
      strict_mode_config: { enabled: false },
    },
    payload_schema: payloadSchema,
    update_queue: { length: 0 },
  };
}
