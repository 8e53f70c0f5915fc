/**
 * Your own book, offline (`ragwatch sandbox`): the Qdrant and Cohere stand-ins, the book indexed into them through
 * the real clients, and its sitemap served over loopback (the given file, or one generated from the docs), with the
 * environment that points ragwatch at all three.
 */
import { readFile } from 'node:fs/promises';
import { InputError } from '../functions/core/shared/errors.ts';
import { type IndexBookSummary, indexBook } from '../functions/indexer/index.ts';
import { readDocs } from '../functions/indexer/read-docs.ts';
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
  const pages = await readDocs({ docsDir: options.docsDir, baseUrl: options.baseUrl });
  const xml =
    options.sitemapFile === undefined ? sitemapOfPages(options.baseUrl, pages) : await readSitemap(options.sitemapFile);
  const collection = options.collection ?? 'book';
  const [qdrant, cohere, sitemap] = await Promise.all([
    startQdrantStandIn(),
    startCohereStandIn(),
    startSitemapServer({ xml, latencyMs: 0 }),
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
    });
    return {
      env: {
        QDRANT_URL: qdrant.url,
        QDRANT_COLLECTION: collection,
        COHERE_BASE_URL: cohere.url,
        COHERE_API_KEY: SANDBOX_COHERE_KEY,
        DOCUSAURUS_BASE_URL: options.baseUrl,
        SITEMAP_URL: sitemap.url,
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

async function readSitemap(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new InputError(`--sitemap ${file}`, [`${file}: cannot be read (${code})`]);
  }
}
