/**
 * The errors the stand-in answers with, worded as Qdrant 1.19 words them (from its sources: StorageError's display,
 * actix-web-validator's handler, OperationError's messages). A handler throws one; the server turns it into
 * `{ status: { error }, time }` with the status code.
 *
 * Qdrant's split, followed here: a body that is not JSON or does not deserialize (wrong type, missing field, unknown
 * variant) is 400 "Format error in JSON body: …"; a body that deserializes but breaks a `validate` rule (limit: 0)
 * is 422 "Validation error in JSON body: [field: …]".
 */

/** A request the stand-in refuses, with the HTTP status and Qdrant's message. */
export class QdrantWireError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'QdrantWireError';
    this.status = status;
  }
}

/** 400: the body is not JSON, or is JSON of the wrong shape (serde's deserialization error). */
export function formatError(detail: string): QdrantWireError {
  return new QdrantWireError(400, `Format error in JSON body: ${detail}`);
}

/** 400: a query parameter does not deserialize (`wait=maybe`). */
export function queryParameterError(detail: string): QdrantWireError {
  return new QdrantWireError(400, `Deserialize error in query parameters: ${detail}`);
}

/** 422: the body deserialized but a field breaks a validation rule; `field` is the path Qdrant prints. */
function validationError(field: string, detail: string): QdrantWireError {
  return new QdrantWireError(422, `Validation error in JSON body: [${field}: ${detail}]`);
}

/** 422 for a `range(min = 1)` rule, in validator's wording. */
export function belowMinimumError(field: string, value: number, minimum: number): QdrantWireError {
  return validationError(field, `value ${value} invalid, must be ${minimum} or larger`);
}

/** 404: Qdrant's StorageError::NotFound for a collection. */
export function collectionNotFound(name: string): QdrantWireError {
  return new QdrantWireError(404, `Not found: Collection \`${name}\` doesn't exist!`);
}

/** 409: Qdrant's StorageError::AlreadyExists, displayed as "Wrong input". */
export function collectionAlreadyExists(name: string): QdrantWireError {
  return new QdrantWireError(409, `Wrong input: Collection \`${name}\` already exists!`);
}

/** 400: Qdrant's OperationError::WrongVectorDimension, as a BadInput. */
export function vectorDimensionError(expected: number, got: number): QdrantWireError {
  return new QdrantWireError(400, `Wrong input: Vector dimension error: expected dim: ${expected}, got ${got}`);
}

/** 400: Qdrant's OperationError::MissingMapIndexForFacet, as a BadInput. */
export function facetIndexMissing(key: string): QdrantWireError {
  return new QdrantWireError(
    400,
    `Wrong input: No appropriate index for faceting: \`${key}\`. Please create one to facet on this field. ` +
      'Check https://qdrant.tech/documentation/concepts/indexing/#payload-index to see which payload schemas support Match conditions',
  );
}

/** 400: a vector name the collection does not have (the stand-in only has the unnamed vector ""). */
export function vectorNameError(name: string): QdrantWireError {
  return new QdrantWireError(400, `Wrong input: Not existing vector name error: ${name}`);
}

/** 400 for a request Qdrant would accept but the stand-in does not implement; the message says so plainly. */
export function unsupported(what: string): QdrantWireError {
  return new QdrantWireError(400, `Wrong input: the Qdrant stand-in does not support ${what}`);
}

/** serde's description of an unexpected JSON value, for "invalid type: …, expected …" messages. */
function describeJsonValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a sequence';
  switch (typeof value) {
    case 'string':
      return `string ${JSON.stringify(value)}`;
    case 'boolean':
      return `boolean \`${value}\``;
    case 'number':
      return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
    default:
      return 'a map';
  }
}

/** 400: serde's "invalid type" error. */
export function invalidType(value: unknown, expected: string): QdrantWireError {
  return formatError(`invalid type: ${describeJsonValue(value)}, expected ${expected}`);
}
