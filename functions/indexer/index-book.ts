/**
 * The indexing use case: pages in, points in the vector index out. It knows no SDK; it takes an embedder of
 * documents and a point sink (functions/indexer/qdrant-writer.ts on Qdrant).
 *
 * What happens, in order:
 * 1. Every page is chunked (chunk-markdown.ts); a book with no text at all is bad input.
 * 2. Chunks are embedded as search documents, in calls of at most 96 texts (fewer if the embedder says so).
 * 3. Before the first write, the sink is prepared with the vector size of the first embedding (creating the
 *    collection and its payload indexes if needed).
 * 4. Points are written in batches of 256 as they are embedded, each with a deterministic id (point-id.ts) and the
 *    seeds' payload plus indexed_at (one time per run, from the clock), content_hash and model_version.
 * 5. A summary says what was done and how long it took.
 */
import { createHash } from 'node:crypto';
import { EmbeddingError, InputError } from '../core/errors.ts';
import type { Clock, EmbeddingResult } from '../core/ports.ts';
import { type ChunkSizes, chunkMarkdown, DEFAULT_CHUNK_SIZES } from './chunk-markdown.ts';
import { pointIdFor } from './point-id.ts';
import type { DocPage } from './read-docs.ts';

/** What the indexer needs from an embedding service. */
export interface DocumentEmbedder {
  readonly model: string;
  readonly maxBatchSize: number;
  /** Embeds at most `maxBatchSize` texts as search documents, in order. */
  embedDocuments(texts: string[]): Promise<EmbeddingResult>;
}

/** Where points go. Implementations translate their failures into IndexError. */
export interface PointSink {
  /** Called once, before the first upsert, with the length of the vectors to come. */
  prepare(options: { vectorSize: number }): Promise<void>;
  upsert(points: IndexPoint[]): Promise<void>;
}

/** The payload of one point: the seeds' fields plus indexed_at, content_hash and model_version. */
export interface ChunkPayload {
  chunk_text: string;
  source_url: string;
  chapter_id: string;
  module_name: string;
  heading_hierarchy: string[];
  token_count: number;
  chunk_index: number;
  indexed_at: string;
  content_hash: string;
  model_version: string;
}

/** One point to write. */
export interface IndexPoint {
  id: string;
  vector: number[];
  payload: ChunkPayload;
}

/** What one indexing run did. */
export interface IndexSummary {
  documents: number;
  chunks: number;
  pointsUpserted: number;
  vectorSize: number;
  model: string;
  /** Input tokens billed by the embedding service, when it reports them. */
  billedInputTokens: number | undefined;
  indexedAt: string;
  durationMs: number;
}

/** Progress after each embedding call, for a progress bar. */
export type IndexProgress = (progress: { chunksDone: number; chunksTotal: number }) => void;

/** The most texts one embedding call carries (Cohere's limit). */
export const EMBED_BATCH_SIZE = 96;
/** Points per upsert request. */
export const UPSERT_BATCH_SIZE = 256;

/** Chunks, embeds and writes every page; throws InputError for a book with no text, service errors as they come. */
export async function indexPages(
  deps: { embedder: DocumentEmbedder; sink: PointSink; clock: Clock; onProgress?: IndexProgress },
  options: { pages: DocPage[]; sizes?: ChunkSizes },
): Promise<IndexSummary> {
  const started = deps.clock.monotonicMs();
  const indexedAt = deps.clock.now().toISOString();
  const chunks = options.pages.flatMap((page) =>
    chunkMarkdown(page.body, { title: page.title, sizes: options.sizes ?? DEFAULT_CHUNK_SIZES }).map((chunk) => ({
      page,
      chunk,
    })),
  );
  if (chunks.length === 0) {
    throw new InputError('docs', [
      `no text to index in ${options.pages.length} page(s): every page is empty or a draft`,
    ]);
  }

  const batchSize = Math.min(EMBED_BATCH_SIZE, deps.embedder.maxBatchSize);
  let vectorSize: number | undefined;
  let billed: number | undefined;
  let pending: IndexPoint[] = [];
  let upserted = 0;
  const flush = async (all: boolean) => {
    while (pending.length >= UPSERT_BATCH_SIZE || (all && pending.length > 0)) {
      const batch = pending.slice(0, UPSERT_BATCH_SIZE);
      await deps.sink.upsert(batch);
      upserted += batch.length;
      pending = pending.slice(batch.length);
    }
  };

  for (let start = 0; start < chunks.length; start += batchSize) {
    const batch = chunks.slice(start, start + batchSize);
    const result = await deps.embedder.embedDocuments(batch.map(({ chunk }) => chunk.chunkText));
    checkVectors(result.vectors, batch.length, vectorSize, deps.embedder.model);
    if (vectorSize === undefined) {
      vectorSize = result.vectors[0]?.length ?? 0;
      await deps.sink.prepare({ vectorSize });
    }
    if (result.billedInputTokens !== undefined) billed = (billed ?? 0) + result.billedInputTokens;
    batch.forEach(({ page, chunk }, i) => {
      pending.push({
        id: pointIdFor(page.sourceUrl, chunk.chunkIndex),
        vector: result.vectors[i] ?? [],
        payload: {
          chunk_text: chunk.chunkText,
          source_url: page.sourceUrl,
          chapter_id: page.chapterId,
          module_name: page.moduleName,
          heading_hierarchy: chunk.headingHierarchy,
          token_count: chunk.tokenCount,
          chunk_index: chunk.chunkIndex,
          indexed_at: indexedAt,
          content_hash: sha256(chunk.chunkText),
          model_version: deps.embedder.model,
        },
      });
    });
    await flush(false);
    deps.onProgress?.({ chunksDone: Math.min(start + batchSize, chunks.length), chunksTotal: chunks.length });
  }
  await flush(true);

  return {
    documents: options.pages.length,
    chunks: chunks.length,
    pointsUpserted: upserted,
    vectorSize: vectorSize ?? 0,
    model: deps.embedder.model,
    billedInputTokens: billed,
    indexedAt,
    durationMs: deps.clock.monotonicMs() - started,
  };
}

/** The SHA-256 of a chunk's text, hex: tells a re-indexer which chunks changed. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

// A vector count or size that does not match would write points whose vectors belong to other chunks, or that the
// collection refuses halfway through: stop before writing.
function checkVectors(vectors: number[][], expected: number, size: number | undefined, model: string): void {
  const sizes = new Set(vectors.map((v) => v.length));
  const first = vectors[0]?.length ?? 0;
  if (vectors.length !== expected || sizes.size !== 1 || first === 0 || (size !== undefined && first !== size)) {
    throw new EmbeddingError(
      `embedding model ${model} answered ${vectors.length} vectors of size(s) ${[...sizes].join(', ') || 'none'} ` +
        `for ${expected} texts${size === undefined ? '' : `, expected size ${size}`}`,
      'unexpected',
    );
  }
}
