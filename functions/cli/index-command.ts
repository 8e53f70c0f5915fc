/** `ragwatch index`: chunk a Docusaurus docs folder, embed it with Cohere and upsert it into Qdrant. */
import { redact } from '../adapters/transport.ts';
import { parseEngineConfig } from '../core/config.ts';
import { describeError, InputError } from '../core/shared/errors.ts';
import { type IndexBookSummary, indexBook } from '../indexer/index.ts';

export interface IndexFlags {
  docs: string;
  baseUrl: string;
  collection?: string;
  recreate?: boolean;
  prune?: boolean;
  payloadIndexes: boolean;
}

/**
 * Indexes from flags and the environment (QDRANT_URL, QDRANT_API_KEY, COHERE_API_KEY, ...); returns the exit code:
 * 0 done, 1 a service failed (one line on stderr, as `run` says it, never a stack trace), 2 bad input (thrown).
 */
export async function runIndex(
  flags: IndexFlags,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const config = parseEngineConfig({
    ...env,
    DOCUSAURUS_BASE_URL: flags.baseUrl,
    ...(flags.collection ? { QDRANT_COLLECTION: flags.collection } : {}),
  });
  let summary: IndexBookSummary;
  try {
    summary = await indexBook({
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
      prune: flags.prune ?? false,
    });
  } catch (error) {
    if (error instanceof InputError) throw error;
    const secrets = [config.secrets.cohereApiKey, config.secrets.qdrantApiKey];
    process.stderr.write(`ragwatch: indexing failed: ${redact(describeError(error), secrets)}\n`);
    return 1;
  }
  process.stdout.write(
    `Indexed ${summary.documents} pages as ${summary.chunks} chunks into "${summary.collection}" (${summary.vectorSize || 'no new'} dims, ${summary.model}): ` +
      `${summary.written} written, ${summary.unchanged} unchanged, ${summary.deleted} deleted in ${Math.round(summary.durationMs)} ms\n`,
  );
  return 0;
}
