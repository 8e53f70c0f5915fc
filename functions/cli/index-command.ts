/** `ragwatch index`: chunk a Docusaurus docs folder, embed it with Cohere and upsert it into Qdrant. */
import { parseEngineConfig } from '../core/config.ts';
import { indexBook } from '../indexer/index.ts';

export interface IndexFlags {
  docs: string;
  baseUrl: string;
  collection?: string;
  recreate?: boolean;
  payloadIndexes: boolean;
}

/** Indexes from flags and the environment (QDRANT_URL, QDRANT_API_KEY, COHERE_API_KEY, ...); returns the exit code. */
export async function runIndex(
  flags: IndexFlags,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const config = parseEngineConfig({
    ...env,
    DOCUSAURUS_BASE_URL: flags.baseUrl,
    ...(flags.collection ? { QDRANT_COLLECTION: flags.collection } : {}),
  });
  const summary = await indexBook({
    docsDir: flags.docs,
    baseUrl: config.docusaurusBaseUrl,
    qdrant: {
      url: config.qdrantUrl,
      collection: config.collection,
      timeoutMs: config.qdrantTimeoutMs,
      ...(config.secrets.qdrantApiKey ? { apiKey: config.secrets.qdrantApiKey } : {}),
    },
    cohere: {
      apiKey: config.secrets.cohereApiKey ?? '',
      model: config.embeddingModel,
      timeoutMs: config.cohereTimeoutMs,
      ...(config.cohereBaseUrl ? { baseUrl: config.cohereBaseUrl } : {}),
    },
    payloadIndexes: flags.payloadIndexes,
    recreate: flags.recreate ?? false,
  });
  process.stdout.write(
    `Indexed ${summary.documents} pages as ${summary.chunks} chunks into "${summary.collection}" (${summary.vectorSize} dims, ${summary.model}) in ${Math.round(summary.durationMs)} ms\n`,
  );
  return 0;
}
