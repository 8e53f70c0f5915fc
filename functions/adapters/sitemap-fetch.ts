/**
 * One sitemap file over HTTP: redirects followed by hand so that each hop passes the URL policy, the body streamed
 * under its caps into the piece parser, and every failure translated once into a SitemapError naming the URL.
 */

import type { SitemapIssue } from '../core/ports.ts';
import { SitemapError, truncate } from '../core/shared/errors.ts';
import { GzipError, readSitemapBody } from './sitemap-body.ts';
import { fetchRefusal, shownUrl } from './sitemap-url-policy.ts';
import { type SitemapFile, SitemapFormatError, SitemapXmlReader } from './sitemap-xml.ts';

export interface SitemapFetchLimits {
  timeoutMs: number;
  /** Aborts the request: the run's deadline, or the listing giving up. */
  signal: AbortSignal;
  /** The run's own signal, to tell a deadline from a per-request timeout in the message. */
  runSignal: AbortSignal | undefined;
  allowed: ReadonlySet<string>;
  maxRedirects: number;
  maxBytes: number;
  maxEntries: number;
  maxPieceChars: number;
}

/** A URL the policy refused on the way (a redirect hop); for the root sitemap it fails the listing. */
export class SitemapRefusal extends SitemapError {
  readonly refusedUrl: string;
  constructor(message: string, refusedUrl: string) {
    super(message, 'bad_request');
    this.refusedUrl = refusedUrl;
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MB = 1024 * 1024;

/** Fetches and parses one sitemap file; what the caps cut comes back as issues. */
export async function fetchSitemapFile(
  url: string,
  limits: SitemapFetchLimits,
): Promise<SitemapFile & { issues: SitemapIssue[] }> {
  const signal = AbortSignal.any([limits.signal, AbortSignal.timeout(limits.timeoutMs)]);
  const response = await fetchFollowing(url, limits, signal);
  const reader = new SitemapXmlReader({ maxEntries: limits.maxEntries, maxPieceChars: limits.maxPieceChars });
  const progress = { bytes: 0, capped: false };
  let file: SitemapFile;
  try {
    for await (const text of readSitemapBody(response.body ?? emptyBody(), limits.maxBytes, progress)) {
      reader.push(text);
      if (reader.full) break;
    }
    file = reader.end({ cut: progress.capped });
  } catch (error) {
    if (error instanceof SitemapFormatError) throw new SitemapError(`${shownUrl(url)} ${error.message}`, 'bad_request');
    if (error instanceof GzipError) throw new SitemapError(`sitemap ${shownUrl(url)} ${error.message}`, 'bad_request');
    throw translateFetchError(error, url, limits);
  }
  const issues: SitemapIssue[] = [];
  const shown = shownUrl(url);
  if (file.full) {
    issues.push({
      kind: 'over_cap',
      url: shown,
      message: `sitemap ${shown} lists more than ${limits.maxEntries} URLs (the Sitemaps protocol's limit per file): only the first ${limits.maxEntries} were read`,
    });
  }
  if (progress.capped) {
    issues.push({
      kind: 'over_cap',
      url: shown,
      message: `sitemap ${shown} is larger than ${limits.maxBytes / MB} MB uncompressed (the Sitemaps protocol's limit per file): only its first ${limits.maxBytes / MB} MB were read (${file.entries.length} entries)`,
    });
  }
  return { ...file, issues };
}

async function fetchFollowing(url: string, limits: SitemapFetchLimits, signal: AbortSignal): Promise<Response> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const response = await fetchOnce(current, limits, signal);
    if (!REDIRECTS.has(response.status)) return response;
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (hop >= limits.maxRedirects || location === null) {
      const why = location === null ? 'without a Location header' : `more than ${limits.maxRedirects} times`;
      throw new SitemapError(`fetching sitemap ${shownUrl(url)} failed: redirected ${why}`, 'bad_request');
    }
    const next = URL.canParse(location, current) ? new URL(location, current).toString() : location;
    const refusal = fetchRefusal(next, limits.allowed);
    if (refusal) {
      throw new SitemapRefusal(
        `sitemap ${shownUrl(current)} redirects to ${shownUrl(next)}, which is refused: ${refusal}`,
        shownUrl(next),
      );
    }
    current = next;
  }
}

async function fetchOnce(url: string, limits: SitemapFetchLimits, signal: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: 'manual', headers: { accept: 'application/xml, text/xml' } });
  } catch (error) {
    throw translateFetchError(error, url, limits);
  }
  if (response.ok || REDIRECTS.has(response.status)) return response;
  const body = truncate(await response.text().catch(() => ''));
  const kind =
    response.status === 404
      ? 'not_found'
      : response.status === 429
        ? 'rate_limited'
        : response.status >= 500
          ? 'unavailable'
          : 'bad_request';
  const retryAfter = Number(response.headers.get('retry-after'));
  throw new SitemapError(
    `fetching sitemap ${shownUrl(url)} failed with ${response.status}${body ? `: ${body}` : ''}`,
    kind,
    {
      status: response.status,
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
    },
  );
}

function translateFetchError(error: unknown, url: string, limits: SitemapFetchLimits): SitemapError {
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

async function* emptyBody(): AsyncGenerator<Uint8Array> {}
