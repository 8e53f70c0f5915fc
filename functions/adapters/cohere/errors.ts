/**
 * The one place a Cohere failure is translated, for embed and chat alike (as qdrant-js does at its transport):
 * whatever cohere-ai or the socket under it threw, and any answer that is not what the API documents, becomes an
 * EmbeddingError or a ChatError naming the endpoint (or the model) and the status, with a kind ops can act on. The
 * API key never rides along: texts are redacted of it (and of any credentials in the base URL) and cut to one line.
 *
 * The two calls classify a few statuses differently (chat: 422 bad_request, 504 timeout and other 4xx unexpected;
 * embed: 504 unavailable, other 4xx bad_request), as they did before they shared this file.
 */
import { CohereError, CohereTimeoutError } from 'cohere-ai';
import { ChatError, EmbeddingError, type FailureKind, truncate } from '../../core/shared/errors.ts';
import { deadlineCut, parseRetryAfter, type RunSignal, redact } from '../transport.ts';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/** An embed answer that is not what the API documents. */
export function malformedEmbedAnswer(endpoint: string, what: string): EmbeddingError {
  return new EmbeddingError(`Cohere embed (${endpoint}) answered a malformed response: ${what}`, 'unexpected');
}

/** A chat answer that is not what the API documents: broken, never an empty answer (that would read as abstaining). */
export function malformedChatAnswer(where: string, what: string): ChatError {
  return new ChatError(`${where} answered a malformed response: ${what}`, 'unexpected');
}

/** Maps whatever cohere-ai threw on an embed call into an EmbeddingError. */
export function translateEmbedError(
  error: unknown,
  context: { what: string; secrets: string[]; timeoutMs: number; run: RunSignal | undefined },
): EmbeddingError {
  const { what } = context;
  const clean = (text: string) => truncate(redact(text, context.secrets), 300);
  const cut = deadlineCut(context.run);
  if (cut) return new EmbeddingError(clean(`${what} was ${cut}`), 'timeout');
  // cohere-ai 8.1 aborts a slow request with the reason "timeout"; fetch rejects with that string instead of an
  // AbortError, so the SDK reports a status-less CohereError caused by "timeout" rather than a CohereTimeoutError.
  if (error instanceof CohereTimeoutError || (error instanceof CohereError && error.cause === 'timeout')) {
    return new EmbeddingError(clean(`${what} timed out after ${context.timeoutMs} ms`), 'timeout');
  }
  if (error instanceof CohereError && error.statusCode !== undefined) {
    const status = error.statusCode;
    const kind = kindForStatus(status);
    const retryAfterSeconds =
      status === 429 ? parseRetryAfter(error.rawResponse?.headers.get('retry-after'), Date.now()) : undefined;
    const wait = retryAfterSeconds === undefined ? '' : ` (retry after ${retryAfterSeconds} s)`;
    // No cause: the SDK error holds the raw body, which may echo the key.
    return new EmbeddingError(clean(`${what} answered ${status}${wait}: ${bodyMessage(error.body)}`), kind, {
      status,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
  }
  const code = networkCode(error);
  if (code !== undefined && NETWORK_CODES.has(code)) {
    return new EmbeddingError(clean(`${what} is unreachable (${code})`), 'unavailable');
  }
  const message = error instanceof Error ? error.message : String(error);
  return new EmbeddingError(clean(`${what} failed: ${message}`), 'unexpected');
}

function kindForStatus(status: number): FailureKind {
  if (status === 401 || status === 403 || status === 498) return 'unauthorized';
  if (status === 429) return 'rate_limited';
  if (status === 404) return 'not_found';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'unavailable';
  if (status >= 400) return 'bad_request';
  return 'unexpected';
}

/** Cohere's error body is `{ message }`; anything else is shown as JSON. */
function bodyMessage(body: unknown): string {
  if (typeof body === 'string') return body;
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string')
    return body.message;
  return body === undefined ? 'no body' : JSON.stringify(body);
}

/** The errno code of a failed fetch (undici puts it on the error's cause, the SDK wraps that once more). */
function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    if ('code' in current && typeof current.code === 'string') return current.code;
    current = 'cause' in current ? current.cause : undefined;
  }
  return undefined;
}

/** The user and password of a base URL, raw and decoded: secrets to redact like the key. */
export function urlCredentials(url: string): string[] {
  try {
    const { username, password } = new URL(url);
    return [username, password, decodeURIComponent(username), decodeURIComponent(password)].filter((s) => s !== '');
  } catch {
    return [];
  }
}

/** The base URL without its user:password part, for a message. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/+$/, '');
  } catch {
    return url;
  }
}

const KIND_BY_STATUS: Record<number, FailureKind> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'unauthorized',
  404: 'not_found',
  408: 'timeout',
  422: 'bad_request',
  429: 'rate_limited',
  498: 'unauthorized',
  504: 'timeout',
};

/** Maps whatever cohere-ai threw into a ChatError with a kind ops can act on; the token is redacted from the text. */
export function translateCohereChatError(error: unknown, where: string, token: string, run?: RunSignal): ChatError {
  const clean = (text: string) => truncate(redact(text, [token]));
  const cut = deadlineCut(run);
  if (cut) return new ChatError(`${where} was ${cut}`, 'timeout', { cause: error });
  if (error instanceof CohereTimeoutError) return new ChatError(`${where} timed out`, 'timeout', { cause: error });
  if (error instanceof CohereError && error.statusCode !== undefined) {
    const status = error.statusCode;
    const kind = KIND_BY_STATUS[status] ?? (status >= 500 ? 'unavailable' : 'unexpected');
    const body = error.body as { message?: unknown } | undefined;
    const said = typeof body?.message === 'string' ? body.message : JSON.stringify(error.body ?? '');
    const retryAfter = parseRetryAfter(error.rawResponse?.headers.get('retry-after'), Date.now());
    const wait = retryAfter === undefined ? '' : ` (Retry-After ${retryAfter} s)`;
    return new ChatError(`${where} failed with HTTP ${status}: ${clean(said)}${wait}`, kind, {
      status,
      cause: error,
      ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
    });
  }
  if (error instanceof CohereError && error.cause === 'timeout') {
    // cohere-ai aborts with the reason "timeout"; Node's fetch rejects with that string rather than an AbortError,
    // so the SDK reports a status-less CohereError instead of its CohereTimeoutError.
    return new ChatError(`${where} timed out`, 'timeout', { cause: error });
  }
  if (error instanceof CohereError) {
    // No status: the request never got an answer (connection refused, reset, DNS).
    return new ChatError(`${where} is unreachable: ${clean(error.message)}`, 'unavailable', { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ChatError(`${where} failed unexpectedly: ${clean(message)}`, 'unexpected', { cause: error });
}

/** The URL's origin alone: enough to say where, nothing that could be secret. */
export function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an invalid URL';
  }
}
