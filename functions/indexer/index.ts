/**
 * The indexer's composition root, called by `ragwatch index` and the demo: reads a Docusaurus docs folder, embeds its
 * chunks with Cohere and writes them to Qdrant (a real one, or the sandbox's stand-ins).
 */
import { CohereEmbedder } from '../adapters/cohere/embedder.ts';
import { systemClock } from '../adapters/system-clock.ts';
import { describeModules } from '../core/book/book-modules.ts';
import type { Clock } from '../core/ports.ts';
import type { ChunkSizes } from './chunk-markdown.ts';
import { type IndexProgress, type IndexSummary, indexPages } from './index-book.ts';
import { QdrantWriter } from './qdrant-writer.ts';
import { describeRoutes, docsPathPrefix, readBook } from './read-docs.ts';

/** Everything one indexing run needs. */
export interface IndexBookOptions {
  /** The Docusaurus docs folder, e.g. sandbox/book/docs. */
  docsDir: string;
  /** The published site's base URL, e.g. https://book.example.com: source_url values start with it. */
  baseUrl: string;
  /** Docusaurus's docs routeBasePath (default `docs`). */
  routeBasePath?: string;
  /** The folder whose sub-folders are the modules, overriding the sidebars file and the detected root. */
  moduleRoot?: string;
  /** `retries`: of transient Qdrant failures (default 2). */
  qdrant: { url: string; apiKey?: string; collection: string; timeoutMs: number; retries?: number };
  /** `maxRetries`: the Cohere SDK's own retries of 408, 429 and 5xx (default 2). */
  cohere: { apiKey: string; baseUrl?: string; model: string; timeoutMs: number; maxRetries?: number };
  /** Create the keyword/integer payload indexes (false leaves coverage to scroll instead of facet). */
  payloadIndexes: boolean;
  /** Drop and recreate the collection first. */
  recreate: boolean;
  /** Delete the points of pages that are no longer in the docs folder (default false). */
  prune?: boolean;
  clock?: Clock;
  sizes?: ChunkSizes;
  /** false: one chunk per heading section, small ones not merged (chunk-markdown.ts); default true. */
  mergeSections?: boolean;
  onProgress?: IndexProgress;
}

/** What an indexing run did, and where. */
export interface IndexBookSummary extends IndexSummary {
  collection: string;
  /** The modules the pages were given, with their page counts (book-modules.ts describeModules). */
  modules: string;
  /** Where the docs are served and where that came from (read-docs.ts describeRoutes). */
  routes: string;
  /** The docs' path on the site, e.g. `/repo/docs/` or `/`: the COVERAGE_PATH_PREFIX the nightly run needs. */
  docsPathPrefix: string;
}

/** Indexes a docs folder into a Qdrant collection; throws InputError, EmbeddingError or IndexError. */
export async function indexBook(options: IndexBookOptions): Promise<IndexBookSummary> {
  const { pages, modules, routes } = await readBook({
    docsDir: options.docsDir,
    baseUrl: options.baseUrl,
    ...(options.routeBasePath === undefined ? {} : { routeBasePath: options.routeBasePath }),
    ...(options.moduleRoot === undefined ? {} : { moduleRoot: options.moduleRoot }),
  });
  const embedder = new CohereEmbedder(options.cohere);
  const sink = new QdrantWriter({
    ...options.qdrant,
    payloadIndexes: options.payloadIndexes,
    recreate: options.recreate,
  });
  const summary = await indexPages(
    {
      embedder,
      sink,
      clock: options.clock ?? systemClock,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    },
    {
      pages,
      prune: options.prune ?? false,
      ...(options.sizes ? { sizes: options.sizes } : {}),
      ...(options.mergeSections === false ? { mergeSections: false } : {}),
    },
  );
  return {
    ...summary,
    collection: options.qdrant.collection,
    modules: describeModules(modules),
    routes: describeRoutes(routes, options.baseUrl),
    docsPathPrefix: docsPathPrefix(options.baseUrl, routes.routeBasePath),
  };
}
