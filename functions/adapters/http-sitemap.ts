/**
 * The SitemapSource port over HTTP: fetches sitemap.xml (gzipped or not), follows a sitemap index one level
 * deep (as search engines do), and translates every failure into a SitemapError naming the URL at fault.
 */
import { gunzipSync } from 'node:zlib';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { SitemapError, truncate } from '../core/errors.ts';
import type { SitemapSource } from '../core/ports.ts';
import { deadlineCut, type RunSignal, requestSignal, retryTransient } from './transport.ts';

export interface HttpSitemapOptions {
  url: string;
  timeoutMs: number;
  retries?: number;
  /** A sitemap index with more children than this is refused rather than fetched without bound. */
  maxChildSitemaps?: number;
  /** The run's deadline: every request listens to it, and no retry starts after it. */
  run?: RunSignal;
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  isArray: (name) => name === 'url' || name === 'sitemap',
});

interface ParsedSitemap {
  urlset?: { url?: { loc?: unknown }[] } | '';
  sitemapindex?: { sitemap?: { loc?: unknown }[] } | '';
}

export class HttpSitemap implements SitemapSource {
  readonly location: string;
  readonly #options: HttpSitemapOptions;

  constructor(options: HttpSitemapOptions) {
    this.#options = options;
    this.location = options.url;
  }

  async listUrls(): Promise<string[]> {
    const root = await this.#fetchParsed(this.#options.url);
    if (root.kind === 'urlset') return root.locs;
    const max = this.#options.maxChildSitemaps ?? 500;
    if (root.locs.length > max) {
      throw new SitemapError(
        `sitemap index ${this.#options.url} lists ${root.locs.length} sitemaps, more than the limit of ${max}`,
        'bad_request',
      );
    }
    const urls: string[] = [];
    for (const child of root.locs) {
      const parsed = await this.#fetchParsed(child);
      if (parsed.kind !== 'urlset')
        throw new SitemapError(`${child}: a sitemap index inside a sitemap index is not followed`, 'bad_request');
      urls.push(...parsed.locs);
    }
    return urls;
  }

  async #fetchParsed(url: string): Promise<{ kind: 'urlset' | 'sitemapindex'; locs: string[] }> {
    const run = this.#options.run;
    const xml = await retryTransient(() => this.#fetchText(url), {
      retries: this.#options.retries ?? 2,
      ...(run ? { run } : {}),
    });
    const valid = XMLValidator.validate(xml);
    if (valid !== true) {
      throw new SitemapError(
        `${url} is not well-formed XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`,
        'bad_request',
      );
    }
    const doc = parser.parse(xml) as ParsedSitemap;
    if (doc.urlset !== undefined) return { kind: 'urlset', locs: readLocs(doc.urlset === '' ? [] : doc.urlset.url) };
    if (doc.sitemapindex !== undefined) {
      return { kind: 'sitemapindex', locs: readLocs(doc.sitemapindex === '' ? [] : doc.sitemapindex.sitemap) };
    }
    throw new SitemapError(
      `${url} is not a sitemap: expected a <urlset> or <sitemapindex> root element`,
      'bad_request',
    );
  }

  async #fetchText(url: string): Promise<string> {
    let response: Response;
    try {
      response = await fetch(url, {
        signal: requestSignal(this.#options.timeoutMs, this.#options.run),
        headers: { accept: 'application/xml, text/xml' },
      });
    } catch (error) {
      const e = error as { name?: string; cause?: { code?: string }; message?: string };
      const cut = deadlineCut(this.#options.run);
      if (cut) throw new SitemapError(`fetching sitemap ${url} was ${cut}`, 'timeout', { cause: error });
      if (e.name === 'TimeoutError' || e.name === 'AbortError') {
        throw new SitemapError(`fetching sitemap ${url} timed out after ${this.#options.timeoutMs} ms`, 'timeout', {
          cause: error,
        });
      }
      const code = e.cause?.code ?? e.message ?? 'network error';
      throw new SitemapError(`fetching sitemap ${url} failed: ${code}`, 'unavailable', { cause: error });
    }
    if (!response.ok) {
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
      throw new SitemapError(`fetching sitemap ${url} failed with ${response.status}${body ? `: ${body}` : ''}`, kind, {
        status: response.status,
        ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
      });
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    // A .xml.gz sitemap arrives as gzip bytes (not Content-Encoding), which fetch leaves alone.
    const isGzip = bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
    try {
      return (isGzip ? gunzipSync(bytes) : bytes).toString('utf8');
    } catch (error) {
      throw new SitemapError(`sitemap ${url} looks gzipped but could not be decompressed`, 'bad_request', {
        cause: error,
      });
    }
  }
}

function readLocs(entries: { loc?: unknown }[] | undefined): string[] {
  return (entries ?? [])
    .map((e) => (typeof e.loc === 'string' ? e.loc.trim() : String(e.loc ?? '').trim()))
    .filter((loc) => loc !== '');
}
