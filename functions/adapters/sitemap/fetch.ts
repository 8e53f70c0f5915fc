/**
 * One sitemap file over HTTP: redirects followed by hand so that each hop passes the URL policy, the body streamed
 * under its caps into the piece parser, and every failure translated once (errors.ts) into a SitemapError naming
 * the URL.
 */
import type { SitemapIssue } from '../../core/ports.ts';
import { readSitemapBody } from './body.ts';
import { redirectError, SitemapRefusal, statusError, translateSitemapError } from './errors.ts';
import { fetchRefusal, shownUrl } from './url-policy.ts';
import { type SitemapFile, SitemapXmlReader } from './xml.ts';

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
    throw translateSitemapError(error, url, limits);
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
      throw redirectError(
        url,
        location === null ? 'without a Location header' : `more than ${limits.maxRedirects} times`,
      );
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
    throw translateSitemapError(error, url, limits);
  }
  if (response.ok || REDIRECTS.has(response.status)) return response;
  const body = await response.text().catch(() => '');
  throw statusError(url, response.status, body, response.headers.get('retry-after'));
}

async function* emptyBody(): AsyncGenerator<Uint8Array> {}
