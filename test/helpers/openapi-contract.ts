/**
 * Qdrant's own OpenAPI document (reference/qdrant-openapi-1.19.json, Apache-2.0: see reference/NOTICE.md) as a checker: does a request body
 * match an operation's requestBody schema, does a response body match its schema for a status code?
 *
 * The document is OpenAPI 3.0, so it is first turned into plain JSON Schema for ajv: `nullable: true` becomes a
 * `null` type (or, on a schema without a type such as `{ nullable: true }` inside an anyOf, the `null` schema itself),
 * every `#/components/schemas/...` reference is pointed at one registered copy of the components, and Qdrant's
 * number formats (uint, uint64, float, double...) are registered as annotations, since `type` and `minimum` already
 * say what they mean. ajv runs with strict mode off, so OpenAPI-only keywords (example, deprecated) are ignored.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';

const DOCUMENT_URL = new URL('../../reference/qdrant-openapi-1.19.json', import.meta.url);
const COMPONENTS_ID = 'qdrant-openapi-components.json';
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

type Json = Record<string, unknown>;

interface Operation {
  operationId: string;
  requestBody?: { content?: Record<string, { schema?: Json }> };
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
}

/** Checks bodies against Qdrant's OpenAPI document; each check returns the problems found ([] when it conforms). */
export interface QdrantContract {
  /** The operationIds the document defines. */
  readonly operationIds: ReadonlySet<string>;
  /** Problems with a request body for `operationId` (its requestBody schema). */
  checkRequest(operationId: string, body: unknown): string[];
  /** Problems with a JSON response body for `operationId` at `status` (exact code, else 4XX/5XX, else default). */
  checkResponse(operationId: string, status: number, body: unknown): string[];
}

/** Loads the project's copy of the document from reference/ and prepares the checker. */
export function loadQdrantContract(): QdrantContract {
  const document = JSON.parse(readFileSync(DOCUMENT_URL, 'utf8')) as Json;
  const operations = collectOperations(document);
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    formats: {
      uuid: UUID,
      ...Object.fromEntries(
        ['uint', 'uint8', 'uint16', 'uint32', 'uint64', 'int32', 'int64', 'float', 'double'].map((f) => [f, true]),
      ),
      'date-time': { validate: (text: string) => !Number.isNaN(Date.parse(text)) },
    },
  });
  const components = (document.components as Json).schemas as Json;
  ajv.addSchema({ $id: COMPONENTS_ID, components: { schemas: toJsonSchema(components) } });
  const compiled = new Map<string, ValidateFunction>();

  const check = (key: string, schema: Json | undefined, body: unknown): string[] => {
    if (schema === undefined) return [`the document has no JSON schema for ${key}`];
    let validate = compiled.get(key);
    if (validate === undefined) {
      validate = ajv.compile(toJsonSchema(schema) as Json);
      compiled.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${key}${e.instancePath || ''} ${e.message ?? 'is invalid'}`);
  };

  const find = (operationId: string): Operation => {
    const operation = operations.get(operationId);
    if (operation === undefined) throw new Error(`no operation ${operationId} in Qdrant's OpenAPI document`);
    return operation;
  };

  return {
    operationIds: new Set(operations.keys()),
    checkRequest(operationId, body) {
      const schema = find(operationId).requestBody?.content?.['application/json']?.schema;
      return check(`${operationId} request`, schema, body);
    },
    checkResponse(operationId, status, body) {
      const responses = find(operationId).responses;
      const family = `${Math.floor(status / 100)}XX`;
      const response = responses[String(status)] ?? responses[family] ?? responses.default;
      return check(`${operationId} ${status} response`, response?.content?.['application/json']?.schema, body);
    },
  };
}

function collectOperations(document: Json): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const methods of Object.values(document.paths as Record<string, Record<string, Operation>>)) {
    for (const operation of Object.values(methods)) {
      if (typeof operation?.operationId === 'string') operations.set(operation.operationId, operation);
    }
  }
  return operations;
}

/** OpenAPI 3.0 schema -> JSON Schema (draft 7) as described at the top of this file. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/')) {
      out.$ref = `${COMPONENTS_ID}${value}`;
    } else if (key !== 'nullable') {
      out[key] = toJsonSchema(value);
    }
  }
  if ((node as Json).nullable !== true) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    return out;
  }
  // A typeless nullable schema: `{ nullable: true }` alone means null; otherwise "this, or null".
  return Object.keys(out).length === 0 ? { type: 'null' } : { anyOf: [out, { type: 'null' }] };
}
