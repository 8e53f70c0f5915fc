/**
 * What the stand-in's routes return, and Cohere's error envelope: a JSON body `{ "message": "..." }` whatever the
 * status, which the SDK puts in its error's `body`.
 */

/** A route's answer before it is written to the socket. */
export interface RouteResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** An error in Cohere's shape. */
export function replyError(status: number, message: string, headers?: Record<string, string>): RouteResult {
  return headers === undefined ? { status, body: { message } } : { status, body: { message }, headers };
}

/** Cohere's wording for a model it does not serve (a 404, not a 400). */
export function replyUnknownModel(model: string): RouteResult {
  return replyError(
    404,
    `model '${model}' not found, make sure the correct model ID was used and that you have access to the model.`,
  );
}

/** True for a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
