/**
 * The one place a Qdrant failure is translated (as qdrant-js does at its transport): whatever the REST client or
 * the socket under it threw, and any answer that is not what the API documents, becomes an IndexError that names
 * the operation, the collection and the server's origin, with a kind ops can act on. Never the API key: a body
 * that echoes it is redacted, and long bodies are cut.
 */
import { IndexError, truncate } from '../../core/shared/errors.ts';
import { deadlineCut, parseRetryAfter, type RunSignal, redact } from '../transport.ts';

/** An answer that is not what the API documents: names the operation, the collection and what was wrong. */
export function malformedAnswer(
  operation: string,
  options: { url: string; collection: string },
  what: string,
): IndexError {
  return new IndexError(
    `Qdrant ${operation} on collection "${options.collection}" at ${safeOrigin(options.url)} answered a malformed response: ${what}`,
    'unexpected',
  );
}

/** A value's shape in a few words, for a malformed-response message (never the value itself: it may be large). */
export function describeShape(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Maps whatever the Qdrant client threw into an IndexError with a kind ops can act on. */
export function translateQdrantError(
  error: unknown,
  operation: string,
  options: { url: string; collection: string; apiKey?: string; run?: RunSignal },
  seen: { retryAfter?: string | undefined; timeoutMs?: number } = {},
): IndexError {
  const where = `Qdrant ${operation} on collection "${options.collection}" at ${safeOrigin(options.url)}`;
  const secrets = [options.apiKey];
  const cut = deadlineCut(options.run);
  if (cut) return new IndexError(`${where} was ${cut}`, 'timeout', { cause: error });
  const e = error as {
    name?: string;
    status?: number;
    data?: unknown;
    retry_after?: number;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  if (e?.name === 'QdrantClientTimeoutError' || e?.name === 'TimeoutError')
    return new IndexError(`${where} timed out${seen.timeoutMs ? ` after ${seen.timeoutMs} ms` : ''}`, 'timeout', {
      cause: error,
    });
  // The client's own retry_after keeps one character of the header (see retry-after-tap.ts); the tap's is whole.
  const rateLimited =
    e?.name === 'QdrantClientResourceExhaustedError' ||
    e?.status === 429 ||
    (seen.retryAfter !== undefined && /Invalid retryAfter value/.test(String(e?.message)));
  if (rateLimited) {
    const retryAfterSeconds = parseRetryAfter(seen.retryAfter, Date.now()) ?? e.retry_after;
    const wait = retryAfterSeconds === undefined ? '' : `, Retry-After ${retryAfterSeconds} s`;
    return new IndexError(`${where} was rate limited (429${wait})`, 'rate_limited', {
      status: 429,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
      cause: error,
    });
  }
  if (error instanceof SyntaxError)
    return new IndexError(
      `${where} answered a malformed response: the body is not JSON (${truncate(error.message, 80)})`,
      'unexpected',
      { cause: error },
    );
  if (typeof e?.status === 'number') {
    const detail = redact(truncate(extractQdrantMessage(e.data) ?? e.message ?? ''), secrets);
    const status = e.status;
    const kind =
      status === 401 || status === 403
        ? 'unauthorized'
        : status === 404
          ? 'not_found'
          : status === 429
            ? 'rate_limited'
            : status >= 500
              ? 'unavailable'
              : 'bad_request';
    return new IndexError(`${where} failed with ${status}: ${detail}`, kind, { status, cause: error });
  }
  // fetch reports a network failure as TypeError('fetch failed') with the reason (ECONNREFUSED, bad port...) in cause.
  const reason =
    e?.cause?.code ??
    (e?.message === 'fetch failed' ? (e.cause as { message?: string } | undefined)?.message : undefined);
  if (reason) return new IndexError(`${where} is unreachable (${reason})`, 'unavailable', { cause: error });
  return new IndexError(`${where} failed: ${redact(truncate(String(e?.message ?? error)), secrets)}`, 'unexpected', {
    cause: error,
  });
}

function extractQdrantMessage(data: unknown): string | undefined {
  const status = (data as { status?: { error?: unknown } } | undefined)?.status;
  return typeof status?.error === 'string' ? status.error : data === undefined ? undefined : JSON.stringify(data);
}

/** The URL without credentials, path or query: enough to say where, nothing that could be secret. */
function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
}
