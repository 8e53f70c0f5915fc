/**
 * Readers for the request fields the stand-in understands, each failing the way Qdrant fails: serde's 400 for a value
 * of the wrong type, validator's 422 for a value of the right type outside its range.
 */
import { isPlainObject } from './payload-path.ts';
import { belowMinimumError, formatError, invalidType, queryParameterError, vectorNameError } from './wire-error.ts';

/** The request body as an object, or serde's error for anything else (`what` names the Rust struct). */
export function readBody(body: unknown, what: string): Record<string, unknown> {
  if (!isPlainObject(body)) throw invalidType(body, `struct ${what}`);
  return body;
}

/** A required field, or serde's "missing field". */
export function requireField(body: Record<string, unknown>, name: string): unknown {
  const value = body[name];
  if (value === undefined) throw formatError(`missing field \`${name}\``);
  return value;
}

/** An optional `usize` with `range(min = 1)`, e.g. `limit`; `field` is the path Qdrant's 422 names. */
export function readLimit(value: unknown, field: string, fallback: number): number {
  const limit = readUsize(value);
  if (limit === undefined) return fallback;
  if (limit < 1) throw belowMinimumError(field, limit, 1);
  return limit;
}

/** An optional `usize` (no lower bound beyond 0), e.g. `offset`. */
export function readUsize(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalidType(value, 'usize');
  if (value < 0) throw formatError(`invalid value: integer \`${value}\`, expected usize`);
  return value;
}

/** An optional boolean. */
export function readBoolean(value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw invalidType(value, 'a boolean');
  return value;
}

/** An optional f32 (e.g. `score_threshold`). */
export function readFloat(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number') throw invalidType(value, 'f32');
  return value;
}

/** `with_vector`: a boolean, or the names of vectors to return ("" is the unnamed vector the stand-in stores). */
export function readWithVector(value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  if (Array.isArray(value) && value.every((name) => typeof name === 'string')) return value.includes('');
  throw formatError('data did not match any variant of untagged enum WithVector');
}

/** A dense vector: a non-empty list of numbers. */
export function readDenseVector(value: unknown, what: string): number[] {
  if (!Array.isArray(value) || !value.every((x) => typeof x === 'number')) {
    throw formatError(`data did not match any variant of untagged enum ${what}`);
  }
  return value as number[];
}

/** Reads a point's `vector`: a dense list, or named vectors of which only "" (the unnamed one) exists here. */
export function readPointVector(value: unknown): number[] {
  if (isPlainObject(value)) {
    const names = Object.keys(value);
    const unknown = names.find((name) => name !== '');
    if (unknown !== undefined) throw vectorNameError(unknown);
    return readDenseVector(value[''], 'VectorStruct');
  }
  return readDenseVector(value, 'VectorStruct');
}

/** The `wait` query parameter of updates (Qdrant's default: false). */
export function readWaitParameter(query: URLSearchParams): boolean {
  const raw = query.get('wait');
  if (raw === null) return false;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw queryParameterError(`Query deserialize error: provided string was not \`true\` or \`false\``);
}
