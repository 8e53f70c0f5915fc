/**
 * The SitemapSource port over HTTP: fetches sitemap.xml (gzipped or not), follows a sitemap index, and
 * translates every failure into a SitemapError naming the URL at fault.
 *
 * A sitemap is hostile input until read, so:
 * - every fetch, each redirect hop included (redirects are followed here, not by fetch), passes the URL policy
 *   (url-policy.ts); a refused child or hop is an issue in the listing, the others are still read;
 * - each file is streamed and parsed in bounded pieces (xml.ts) under the Sitemaps protocol's caps:
 *   50,000 URLs and 50 MB uncompressed (which also stops a gzip bomb); over a cap the file is read up to it and
 *   the listing says so, it does not fail;
 * - an index is followed one level deep (the protocol forbids nesting), at most 500 children, 4 at a time, and at
 *   most 100,000 URLs in all;
 * - every request ends at its timeout or when the run's signal aborts.
 */
import pLimit from 'p-limit';
import type { SitemapEntry, SitemapIssue, SitemapListing, SitemapSource } from '../../core/ports.ts';
import { type RunSignal, retryTransient } from '../transport.ts';
import { SitemapRefusal } from './errors.ts';
import { fetchSitemapFile, type SitemapFetchLimits } from './fetch.ts';
import { fetchRefusal, pageRefusal, shownUrl } from './url-policy.ts';

export interface HttpSitemapOptions {
  url: string;
  timeoutMs: number;
  retries?: number;
  /** Origins a sitemap may be fetched from besides the origin of `url` (SITEMAP_ALLOWED_ORIGINS, the book's). */
  allowedOrigins?: readonly string[];
  /** A sitemap index's children beyond this many are not fetched (the listing says so). */
  maxChildSitemaps?: number;
  /** URLs kept per file (the protocol: 50,000). */
  maxUrlsPerFile?: number;
  /** Bytes read per file after decompression (the protocol: 50 MB). */
  maxBytesPerFile?: number;
  /** URLs kept over the whole index. */
  maxTotalUrls?: number;
  /** How many levels of sitemap index are followed (the protocol: 1, an index lists sitemaps only). */
  maxDepth?: number;
  /** Children fetched at once. */
  childConcurrency?: number;
  /** The run's deadline, when the adapter is built for one run: used when `list` is given no signal of its own. */
  run?: RunSignal;
}

const SITEMAP_LIMITS = {
  maxChildSitemaps: 500,
  maxUrlsPerFile: 50_000,
  maxBytesPerFile: 50 * 1024 * 1024,
  maxTotalUrls: 100_000,
  maxDepth: 1,
  childConcurrency: 4,
  maxRedirects: 5,
  maxPieceChars: 1024 * 1024,
} as const;

interface Walk {
  issues: SitemapIssue[];
  seen: Set<string>;
  limit: ReturnType<typeof pLimit>;
  signal: AbortSignal;
  runSignal: AbortSignal | undefined;
  kept: number;
  totalCapNoted: boolean;
}

export class HttpSitemap implements SitemapSource {
  readonly location: string;
  readonly #options: HttpSitemapOptions;
  readonly #allowed: Set<string>;

  constructor(options: HttpSitemapOptions) {
    this.#options = options;
    this.location = options.url;
    this.#allowed = new Set([new URL(options.url).origin, ...(options.allowedOrigins ?? [])]);
  }

  async list(options: { signal?: AbortSignal } = {}): Promise<SitemapListing> {
    // One failed child fails the listing (coverage on part of a sitemap would invent orphans): the rest stop.
    const stop = new AbortController();
    const runSignal = options.signal ?? this.#options.run?.signal;
    const walk: Walk = {
      issues: [],
      seen: new Set([this.location]),
      limit: pLimit(this.#options.childConcurrency ?? SITEMAP_LIMITS.childConcurrency),
      signal: runSignal ? AbortSignal.any([runSignal, stop.signal]) : stop.signal,
      runSignal,
      kept: 0,
      totalCapNoted: false,
    };
    try {
      const entries = await this.#collect(this.location, 0, walk);
      return { entries, issues: walk.issues };
    } finally {
      stop.abort();
    }
  }

  async #collect(url: string, depth: number, walk: Walk): Promise<SitemapEntry[]> {
    const maxTotal = this.#options.maxTotalUrls ?? SITEMAP_LIMITS.maxTotalUrls;
    if (walk.kept >= maxTotal) return this.#totalCapReached(url, walk, maxTotal);
    const file = await walk.limit(() =>
      retryTransient(() => fetchSitemapFile(url, this.#limits(walk)), {
        retries: this.#options.retries ?? 2,
        ...(this.#options.run ? { run: this.#options.run } : {}),
      }),
    );
    walk.issues.push(...file.issues);
    if (file.kind === 'urlset') return this.#keepPages(url, file.entries, walk, maxTotal);

    const maxDepth = this.#options.maxDepth ?? SITEMAP_LIMITS.maxDepth;
    if (depth >= maxDepth) {
      walk.issues.push({
        kind: 'over_cap',
        url: shownUrl(url),
        message: `sitemap index ${shownUrl(url)} is nested ${depth} level(s) deep: not followed (at most ${maxDepth}; the Sitemaps protocol does not nest indexes)`,
      });
      return [];
    }
    const children: string[] = [];
    for (const { loc } of file.entries) {
      const refusal = fetchRefusal(loc, this.#allowed);
      if (refusal) {
        walk.issues.push({
          kind: 'refused',
          url: shownUrl(loc),
          message: `sitemap index ${shownUrl(url)} lists ${shownUrl(loc)}, which is refused: ${refusal}`,
        });
      } else if (!walk.seen.has(loc)) {
        walk.seen.add(loc);
        children.push(loc);
      }
    }
    const maxChildren = this.#options.maxChildSitemaps ?? SITEMAP_LIMITS.maxChildSitemaps;
    if (children.length > maxChildren) {
      walk.issues.push({
        kind: 'over_cap',
        url: shownUrl(url),
        message: `sitemap index ${shownUrl(url)} lists ${children.length} sitemaps, more than the limit of ${maxChildren}: only the first ${maxChildren} were read`,
      });
    }
    const lists = await Promise.all(
      children.slice(0, maxChildren).map((child) => this.#collectChild(child, depth + 1, walk)),
    );
    return lists.flat();
  }

  /** A child whose redirect is refused is an issue, not a failure: the other children are still read. */
  async #collectChild(url: string, depth: number, walk: Walk): Promise<SitemapEntry[]> {
    try {
      return await this.#collect(url, depth, walk);
    } catch (error) {
      if (!(error instanceof SitemapRefusal)) throw error;
      walk.issues.push({ kind: 'refused', url: error.refusedUrl, message: error.message });
      return [];
    }
  }

  #keepPages(url: string, entries: { loc: string; lastmod?: string }[], walk: Walk, maxTotal: number): SitemapEntry[] {
    const kept: SitemapEntry[] = [];
    let refused = 0;
    let first: { loc: string; why: string } | undefined;
    for (const { loc, lastmod } of entries) {
      const why = pageRefusal(loc);
      if (why) {
        refused += 1;
        first ??= { loc, why };
      } else if (walk.kept >= maxTotal) {
        this.#totalCapReached(url, walk, maxTotal);
        break;
      } else {
        walk.kept += 1;
        kept.push(lastmod === undefined ? { url: loc } : { url: loc, lastmod });
      }
    }
    if (first) {
      walk.issues.push({
        kind: 'refused',
        url: shownUrl(first.loc),
        message: `sitemap ${shownUrl(url)} lists ${refused} page URL(s) left out as not http(s) URLs without credentials; first: ${shownUrl(first.loc)} (${first.why})`,
      });
    }
    return kept;
  }

  #totalCapReached(url: string, walk: Walk, maxTotal: number): [] {
    if (!walk.totalCapNoted) {
      walk.totalCapNoted = true;
      walk.issues.push({
        kind: 'over_cap',
        url: shownUrl(url),
        message: `the sitemaps list more than ${maxTotal} URLs in all: reading stopped at ${shownUrl(url)}`,
      });
    }
    return [];
  }

  #limits(walk: Walk): SitemapFetchLimits {
    return {
      timeoutMs: this.#options.timeoutMs,
      signal: walk.signal,
      runSignal: walk.runSignal,
      allowed: this.#allowed,
      maxRedirects: SITEMAP_LIMITS.maxRedirects,
      maxBytes: this.#options.maxBytesPerFile ?? SITEMAP_LIMITS.maxBytesPerFile,
      maxEntries: this.#options.maxUrlsPerFile ?? SITEMAP_LIMITS.maxUrlsPerFile,
      maxPieceChars: SITEMAP_LIMITS.maxPieceChars,
    };
  }
}
