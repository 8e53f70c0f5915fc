/**
 * The fixture project-site book (test/fixtures/project-site-book: base path /repo/, top-level pages beside
 * moduleN-name folders) served and indexed into fresh stand-ins through the real clients, with the environment a
 * user of that book would give `ragwatch run`.
 */
import path from 'node:path';
import { indexBook } from '../../functions/indexer/index.ts';
import { startBookServer } from '../../sandbox/book-server.ts';
import { startCohereStandIn } from '../../sandbox/cohere/index.ts';
import { startQdrantStandIn } from '../../sandbox/qdrant/index.ts';

export const PROJECT_SITE_BOOK_DIR = path.join(import.meta.dirname, '..', 'fixtures', 'project-site-book');
export const PROJECT_SITE_BASE_URL = 'https://user.github.io/repo/';

export interface IndexedProjectSiteBook {
  /** QDRANT_*, COHERE_*, DOCUSAURUS_BASE_URL and SITEMAP_URL for the stand-ins and the served book. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startIndexedProjectSiteBook(): Promise<IndexedProjectSiteBook> {
  const [qdrant, cohere, book] = await Promise.all([
    startQdrantStandIn(),
    startCohereStandIn(),
    startBookServer({ dir: PROJECT_SITE_BOOK_DIR }),
  ]);
  const stop = async () => {
    await Promise.all([qdrant.stop(), cohere.stop(), book.stop()]);
  };
  try {
    await indexBook({
      docsDir: path.join(PROJECT_SITE_BOOK_DIR, 'docs'),
      baseUrl: PROJECT_SITE_BASE_URL,
      qdrant: { url: qdrant.url, collection: 'repo', timeoutMs: 10_000 },
      cohere: { apiKey: 'test-key', baseUrl: cohere.url, model: 'embed-english-v3.0', timeoutMs: 30_000 },
      payloadIndexes: true,
      recreate: true,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  const env = {
    QDRANT_URL: qdrant.url,
    QDRANT_COLLECTION: 'repo',
    COHERE_API_KEY: 'test-key',
    COHERE_BASE_URL: cohere.url,
    DOCUSAURUS_BASE_URL: PROJECT_SITE_BASE_URL,
    SITEMAP_URL: `${book.url}/sitemap.xml`,
  };
  return { env, stop };
}
