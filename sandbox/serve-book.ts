/**
 * Your own book, offline (`ragwatch sandbox`): the Qdrant and Cohere stand-ins, the book indexed into them through
 * the real clients, and its sitemap served over loopback (the given file, or one generated from the docs), with the
 * environment that points ragwatch at all three.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { urlPath } from '../functions/core/book/matching.ts';
import { InputError } from '../functions/core/shared/errors.ts';
import { isGeneratedListing, isUnderPrefix } from '../functions/core/sitemap/pages.ts';
import { type IndexBookSummary, indexBook } from '../functions/indexer/index.ts';
import { type DocPage, readDocs } from '../functions/indexer/read-docs.ts';
import { sitemapOfPages } from './book-sitemap.ts';
import { startCohereStandIn } from './cohere/index.ts';
import { startQdrantStandIn } from './qdrant/index.ts';
import { startSitemapServer } from './sitemap-server.ts';
import { SANDBOX_COHERE_KEY } from './start-sandbox.ts';

export interface ServeBookOptions {
  docsDir: string;
  baseUrl: string;
  /** A sitemap.xml file to serve; without it, one is generated from the docs. */
  sitemapFile?: string;
  collection?: string;
  /** The folder whose sub-folders are the modules (index's --module-root). */
  moduleRoot?: string;
  /** The docs plugin's routeBasePath (index's --route-base-path); default the site config's, else `docs`. */
  routeBasePath?: string;
}

export interface ServedBook {
  /** The variables ragwatch reads, in the order they are written. */
  env: Record<string, string>;
  indexed: IndexBookSummary;
  sitemap: 'given' | 'generated';
  stop(): Promise<void>;
}

/** Starts the stand-ins and the sitemap server and indexes the book; stops what it started if anything fails. */
export async function serveBook(options: ServeBookOptions): Promise<ServedBook> {
  const route = options.routeBasePath === undefined ? {} : { routeBasePath: options.routeBasePath };
  const pages = await readDocs({ docsDir: options.docsDir, baseUrl: options.baseUrl, ...route });
  // Read again at every request, as a deployed site serves its latest build: an edit (and, generated, the file's
  // modification time as its lastmod) shows on the next run, so "edit a page, see STALE_PAGES" can be rehearsed.
  const { sitemapFile } = options;
  const read =
    sitemapFile === undefined
      ? async () => {
          const now = await readDocs({ docsDir: options.docsDir, baseUrl: options.baseUrl, ...route });
          return sitemapOfPages(options.baseUrl, now, await modifiedTimes(options.docsDir, now));
        }
      : () => readSitemap(sitemapFile);
  const xml = await read();
  const collection = options.collection ?? 'book';
  const [qdrant, cohere, sitemap] = await Promise.all([
    startQdrantStandIn(),
    startCohereStandIn(),
    startSitemapServer({ xml, latencyMs: 0, read }),
  ]);
  const stop = async () => {
    await Promise.all([qdrant.stop(), cohere.stop(), sitemap.stop()]);
  };
  try {
    const indexed = await indexBook({
      docsDir: options.docsDir,
      baseUrl: options.baseUrl,
      qdrant: { url: qdrant.url, collection, timeoutMs: 10_000 },
      cohere: { apiKey: SANDBOX_COHERE_KEY, baseUrl: cohere.url, model: 'embed-english-v3.0', timeoutMs: 30_000 },
      payloadIndexes: true,
      recreate: true,
      ...(options.moduleRoot === undefined ? {} : { moduleRoot: options.moduleRoot }),
      ...route,
    });
    const notDocs = sitePagesUnder(
      xml,
      indexed.docsPathPrefix,
      pages.map((page) => page.sourceUrl),
    );
    return {
      env: {
        QDRANT_URL: qdrant.url,
        QDRANT_COLLECTION: collection,
        COHERE_BASE_URL: cohere.url,
        COHERE_API_KEY: SANDBOX_COHERE_KEY,
        DOCUSAURUS_BASE_URL: options.baseUrl,
        SITEMAP_URL: sitemap.url,
        // Where the docs are, so coverage counts them (docs served at the root share '/' with the site's own pages).
        COVERAGE_PATH_PREFIX: indexed.docsPathPrefix,
        ...(notDocs.length === 0 ? {} : { COVERAGE_EXCLUDE: notDocs.join(',') }),
      },
      indexed,
      sitemap: options.sitemapFile === undefined ? 'generated' : 'given',
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The sitemap's pages under the docs' prefix that no docs file makes (the site's home and `src/pages`, a blog under a
 * root-served book): what COVERAGE_EXCLUDE must name for coverage to count the docs alone. Generated listings (tags,
 * categories) are left out by coverage already.
 */
function sitePagesUnder(xml: string, prefix: string, docUrls: readonly string[]): string[] {
  const docs = new Set(docUrls.map((url) => urlPath(url).replace(/\/+$/, '')));
  const locs = [...xml.matchAll(/<loc>\s*([^<]*?)\s*<\/loc>/g)].map((m) => m[1] ?? '').filter((u) => URL.canParse(u));
  const paths = locs.map(urlPath).filter((p) => isUnderPrefix(p, prefix) && !isGeneratedListing(p, prefix));
  return [...new Set(paths.filter((p) => !docs.has(p.replace(/\/+$/, ''))))].sort();
}

/** Each page's file modification time (ISO), by its path in the docs folder. */
async function modifiedTimes(docsDir: string, pages: readonly DocPage[]): Promise<Map<string, string>> {
  const times = new Map<string, string>();
  for (const page of pages) times.set(page.file, (await stat(join(docsDir, page.file))).mtime.toISOString());
  return times;
}

async function readSitemap(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new InputError(`--sitemap ${file}`, [`${file}: cannot be read (${code})`]);
  }
}
