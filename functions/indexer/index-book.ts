/**
 * The indexing use case: pages in, points in the vector index out. It knows no SDK; it takes an embedder of
 * documents and a point sink (functions/indexer/qdrant-writer.ts on Qdrant).
 *
 * What happens, in order:
 * 1. Every page is chunked (chunk-markdown.ts); a book with no text at all is bad input.
 * 2. The points already stored are read back (id, source_url, content_hash, page_hash, page_version, model_version)
 *    and compared
 *    (reindex-plan.ts): a chunk whose id holds the same text hash from the same model is unchanged and not re-embedded.
 * 3. Changed chunks are embedded as search documents, in calls of at most 96 texts (fewer if the embedder says so).
 * 4. Before the first write, the sink is prepared with the vector size of the first embedding (creating the
 *    collection and its payload indexes if needed); when nothing needed embedding, only the missing payload indexes
 *    of the existing collection are created.
 * 5. Points are written in batches of 256 as they are embedded, each with a deterministic id (point-id.ts) and the
 *    seeds' payload plus indexed_at (one time per run, from the clock), content_hash, page_hash, page_version (the
 *    page, its hash, its chunk count and its last update day in one keyword) and model_version.
 * 6. Unchanged points get this run's indexed_at (and their page's new page_hash and page_version when another chunk
 *    of it changed);
 *    the re-indexed pages' leftover points are deleted, and with `prune` those of pages no longer in the folder.
 * 7. A summary says what was written, left unchanged and deleted, and how long it took.
 */
import { createHash } from 'node:crypto';
import { type ChunkPayload, embeddedText, pageVersionKey } from '../core/book/payload.ts';
import type { Clock, EmbeddingResult } from '../core/ports.ts';
import { EmbeddingError, InputError } from '../core/shared/errors.ts';
import { type ChunkSizes, chunkMarkdown, DEFAULT_CHUNK_SIZES } from './chunk-markdown.ts';
import { pointIdFor } from './point-id.ts';
import type { DocPage } from './read-docs.ts';
import { type PlannedChunk, planReindex, type ReindexPlan, type StoredPoint } from './reindex-plan.ts';

/** What the indexer needs from an embedding service. */
export interface DocumentEmbedder {
  readonly model: string;
  readonly maxBatchSize: number;
  /** Embeds at most `maxBatchSize` texts as search documents, in order. */
  embedDocuments(texts: string[]): Promise<EmbeddingResult>;
}

/** Where points go. Implementations translate their failures into IndexError. */
export interface PointSink {
  /** What is stored already, by point id (empty when the collection does not exist or is to be recreated). */
  stored(): Promise<Map<string, StoredPoint>>;
  /** The stored vectors of these points, by id (a point that is gone is left out). */
  vectors(ids: string[]): Promise<Map<string, number[]>>;
  /** Called once, before the first upsert, with the length of the vectors to come. */
  prepare(options: { vectorSize: number }): Promise<void>;
  /**
   * Called instead of prepare when nothing needed embedding: creates the payload indexes an existing collection
   * lacks (one written before an index was added, such as page_version), so the run can still facet on them.
   */
  prepareIndexes(): Promise<void>;
  upsert(points: IndexPoint[]): Promise<void>;
  /** Merges payload fields into these points, without touching their vectors. */
  setPayload(ids: string[], payload: Partial<ChunkPayload>): Promise<void>;
  delete(ids: string[]): Promise<void>;
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
  /** Points embedded and written (new or changed chunks); the same as pointsUpserted. */
  written: number;
  /** Chunks already stored with the same text hash and model: not re-embedded. */
  unchanged: number;
  /** Of `written`, chunks whose text was stored under another id (they moved): written with the stored vector. */
  reused: number;
  /** Stored points removed: leftovers of re-indexed pages, and with prune those of pages gone from the folder. */
  deleted: number;
  /** Pages the collection still holds that are no longer in the docs folder (kept: prune was not given), sorted. */
  keptGonePages: string[];
  /** 0 when nothing needed embedding. */
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
const EMBED_BATCH_SIZE = 96;
/** Points per upsert request. */
export const UPSERT_BATCH_SIZE = 256;
/** Point ids per delete or set-payload request. */
const ID_BATCH_SIZE = 1000;

/** Chunks, embeds and writes every page; throws InputError for a book with no text, service errors as they come. */
export async function indexPages(
  deps: { embedder: DocumentEmbedder; sink: PointSink; clock: Clock; onProgress?: IndexProgress },
  options: { pages: DocPage[]; sizes?: ChunkSizes; prune?: boolean; mergeSections?: boolean },
): Promise<IndexSummary> {
  const started = deps.clock.monotonicMs();
  const indexedAt = deps.clock.now().toISOString();
  const all = options.pages.flatMap((page) => {
    const pageHash = pageHashOf(page);
    const pageChunks = chunkMarkdown(page.body, {
      title: page.title,
      sizes: options.sizes ?? DEFAULT_CHUNK_SIZES,
      mergeSections: options.mergeSections ?? true,
    });
    // The version names the page, its hash and how many chunks it has, so a facet can check each version's points,
    // and the day the page was last updated, which freshness compares with a date-only sitemap <lastmod>.
    const pageVersion = pageVersionKey(page.sourceUrl, pageHash, pageChunks.length, page.updatedAt?.slice(0, 10));
    return pageChunks.map((chunk) => {
      const header = chunk.embedHeader;
      return {
        page,
        chunk,
        id: pointIdFor(page.sourceUrl, chunk.chunkIndex),
        sourceUrl: page.sourceUrl,
        header,
        // content_hash is of what is embedded: a renamed heading re-embeds the chunks under it.
        contentHash: sha256(embeddedText({ chunk_text: chunk.chunkText, embed_header: header })),
        pageHash,
        pageVersion,
      };
    });
  });
  if (all.length === 0) {
    throw new InputError('docs', [
      `no text to index in ${options.pages.length} page(s): every page is empty or a draft`,
    ]);
  }

  const plan = planReindex({
    chunks: all,
    stored: await deps.sink.stored(),
    model: deps.embedder.model,
    prune: options.prune ?? false,
  });
  // A moved chunk keeps its stored vector, read before anything is written or deleted; one whose vector is gone
  // (another writer removed it since) is embedded after all.
  const kept = plan.moved.length === 0 ? new Map() : await deps.sink.vectors(plan.moved.map((m) => m.fromId));
  const reused = plan.moved.filter((m) => kept.has(m.fromId));
  const chunks = [...plan.toWrite, ...plan.moved.filter((m) => !kept.has(m.fromId)).map((m) => m.chunk)];
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

  const pointOf = (
    { page, chunk, id, header, contentHash, pageHash, pageVersion }: (typeof all)[number],
    vector: number[],
  ): IndexPoint => ({
    id,
    vector,
    payload: {
      chunk_text: chunk.chunkText,
      source_url: page.sourceUrl,
      chapter_id: page.chapterId,
      module_name: page.moduleName,
      heading_hierarchy: chunk.headingHierarchy,
      token_count: chunk.tokenCount,
      chunk_index: chunk.chunkIndex,
      indexed_at: indexedAt,
      content_hash: contentHash,
      page_hash: pageHash,
      page_version: pageVersion,
      model_version: deps.embedder.model,
      embed_header: header,
    },
  });
  for (const { chunk, fromId } of reused) pending.push(pointOf(chunk, kept.get(fromId) ?? []));
  await flush(false);

  for (let start = 0; start < chunks.length; start += batchSize) {
    const batch = chunks.slice(start, start + batchSize);
    const result = await deps.embedder.embedDocuments(
      batch.map(({ chunk, header }) => embeddedText({ chunk_text: chunk.chunkText, embed_header: header })),
    );
    checkVectors(result.vectors, batch.length, vectorSize, deps.embedder.model);
    if (vectorSize === undefined) {
      vectorSize = result.vectors[0]?.length ?? 0;
      await deps.sink.prepare({ vectorSize });
    }
    if (result.billedInputTokens !== undefined) billed = (billed ?? 0) + result.billedInputTokens;
    batch.forEach((planned, i) => {
      pending.push(pointOf(planned, result.vectors[i] ?? []));
    });
    await flush(false);
    deps.onProgress?.({ chunksDone: Math.min(start + batchSize, chunks.length), chunksTotal: chunks.length });
  }
  await flush(true);
  if (vectorSize === undefined) await deps.sink.prepareIndexes();
  await confirmUnchanged(deps.sink, plan, indexedAt);
  for (let start = 0; start < plan.toDelete.length; start += ID_BATCH_SIZE) {
    await deps.sink.delete(plan.toDelete.slice(start, start + ID_BATCH_SIZE));
  }

  return {
    documents: options.pages.length,
    chunks: all.length,
    pointsUpserted: upserted,
    written: upserted,
    unchanged: plan.unchanged.length,
    reused: reused.length,
    deleted: plan.toDelete.length,
    keptGonePages: plan.keptGonePages,
    vectorSize: vectorSize ?? 0,
    model: deps.embedder.model,
    billedInputTokens: billed,
    indexedAt,
    durationMs: deps.clock.monotonicMs() - started,
  };
}

/**
 * Unchanged points are re-confirmed with this run's indexed_at (one request per 1000 ids), so freshness compares a
 * page's lastmod with when the index last matched it; those whose page changed elsewhere get its new page_hash and
 * page_version (as do points written before page_version existed), one request per such page.
 */
async function confirmUnchanged(sink: PointSink, plan: ReindexPlan<PlannedChunk>, indexedAt: string): Promise<void> {
  const ids = plan.unchanged.map((c) => c.id);
  for (let start = 0; start < ids.length; start += ID_BATCH_SIZE) {
    await sink.setPayload(ids.slice(start, start + ID_BATCH_SIZE), { indexed_at: indexedAt });
  }
  for (const [pageVersion, update] of plan.pageVersionUpdates)
    await sink.setPayload(update.ids, { page_hash: update.pageHash, page_version: pageVersion });
}

/** What a page's points derive from, hashed: changes whenever any of its chunks or their metadata would. */
function pageHashOf(page: DocPage): string {
  return sha256(JSON.stringify([page.title, page.chapterId, page.moduleName, page.body]));
}

/** The SHA-256 of a text, hex: tells a re-indexer which chunks changed. */
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
