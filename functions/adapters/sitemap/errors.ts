/**
 * The one place a sitemap fetch's failure is translated (as qdrant-js does at its transport): an HTTP status, a
 * socket error, a timeout or the run's deadline, a body that does not decompress and a file that is not a sitemap
 * all become a SitemapError naming the URL at fault (without credentials), with a kind ops can act on. The pieces
 * that read a file throw the plain errors below; fetch.ts hands whatever it caught to translateSitemapError.
 */
import { SitemapError, truncate } from '../../core/shared/errors.ts';
import { shownUrl } from './url-policy.ts';

/** A URL the policy refused on the way (a redirect hop); for the root sitemap it fails the listing. */
export class SitemapRefusal extends SitemapError {
  readonly refusedUrl: string;
  constructor(message: string, refusedUrl: string) {
    super(message, 'bad_request');
    this.refusedUrl = refusedUrl;
  }
}

/** The text is not a sitemap, or not well-formed; the message reads after the file's URL. */
export class SitemapFormatError extends Error {
  override name = 'SitemapFormatError';
}

/** The body starts like gzip but does not decompress. */
export class GzipError extends Error {
  constructor(cause: unknown) {
    super(`looks gzipped but could not be decompressed: ${(cause as Error).message ?? String(cause)}`, { cause });
    this.name = 'GzipError';
  }
}

/** A redirect that cannot be followed: no Location, or one hop too many. */
export function redirectError(url: string, why: string): SitemapError {
  return new SitemapError(`fetching sitemap ${shownUrl(url)} failed: redirected ${why}`, 'bad_request');
}

/** A non-2xx, non-redirect answer: its status, the start of its body and the Retry-After it asked for. */
export function statusError(url: string, status: number, body: string, retryAfterHeader: string | null): SitemapError {
  const said = truncate(body);
  const kind =
    status === 404 ? 'not_found' : status === 429 ? 'rate_limited' : status >= 500 ? 'unavailable' : 'bad_request';
  const retryAfter = Number(retryAfterHeader);
  return new SitemapError(`fetching sitemap ${shownUrl(url)} failed with ${status}${said ? `: ${said}` : ''}`, kind, {
    status,
    ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
  });
}

/** Whatever fetching or reading one sitemap file threw, as a SitemapError naming its URL. */
export function translateSitemapError(
  error: unknown,
  url: string,
  limits: { timeoutMs: number; runSignal: AbortSignal | undefined },
): SitemapError {
  if (error instanceof SitemapFormatError) return new SitemapError(`${shownUrl(url)} ${error.message}`, 'bad_request');
  if (error instanceof GzipError) return new SitemapError(`sitemap ${shownUrl(url)} ${error.message}`, 'bad_request');
  if (error instanceof SitemapError) return error;
  const e = error as { name?: string; cause?: { code?: string }; message?: string };
  if (limits.runSignal?.aborted) {
    return new SitemapError(`fetching sitemap ${shownUrl(url)} stopped: the run's deadline was reached`, 'timeout', {
      cause: error,
    });
  }
  if (e.name === 'TimeoutError' || e.name === 'AbortError') {
    return new SitemapError(`fetching sitemap ${shownUrl(url)} timed out after ${limits.timeoutMs} ms`, 'timeout', {
      cause: error,
    });
  }
  const code = e.cause?.code ?? e.message ?? 'network error';
  return new SitemapError(`fetching sitemap ${shownUrl(url)} failed: ${code}`, 'unavailable', { cause: error });
}
