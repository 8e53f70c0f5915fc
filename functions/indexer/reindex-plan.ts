/**
 * What a re-index must do, decided before any embedding: which chunks changed (and so cost an embedding), which are
 * unchanged (same text hash, same model: kept as stored, only re-confirmed), and which stored points must go
 * (a re-indexed page's leftovers, and with `prune` the points of pages no longer in the docs folder).
 */

/** What the indexer reads back about each stored point. */
export interface StoredPoint {
  sourceUrl: string | undefined;
  contentHash: string | undefined;
  pageHash: string | undefined;
  pageVersion: string | undefined;
  model: string | undefined;
}

/** One chunk to be in the index, with the id it will have. */
export interface PlannedChunk {
  id: string;
  sourceUrl: string;
  contentHash: string;
  pageHash: string;
  /** The page_version keyword of the chunk's page (payload.ts pageVersionKey). */
  pageVersion: string;
}

export interface ReindexPlan<C extends PlannedChunk> {
  /** Chunks to embed and write: new text, or text whose stored vector came from another model. */
  toWrite: C[];
  /**
   * Chunks whose text is stored already under another id (the chunk moved: a section before it was added or
   * removed, so its index changed): written under their new id with the stored vector, not re-embedded.
   */
  moved: { chunk: C; fromId: string }[];
  /** Chunks already stored as they are: not re-embedded. */
  unchanged: C[];
  /**
   * Unchanged chunks whose stored page hash or page version is out of date (another chunk of their page changed, or
   * the point was written before page_version existed), by their page's version.
   */
  pageVersionUpdates: Map<string, { pageHash: string; ids: string[] }>;
  /** Stored points to delete. */
  toDelete: string[];
  /**
   * Pages the collection holds that are no longer in the docs folder, kept because prune was not asked (sorted):
   * coverage would count them as orphans every night, so `index` warns about them.
   */
  keptGonePages: string[];
}

export function planReindex<C extends PlannedChunk>(options: {
  chunks: C[];
  stored: ReadonlyMap<string, StoredPoint>;
  model: string;
  prune: boolean;
}): ReindexPlan<C> {
  const { chunks, stored, model } = options;
  const toWrite: C[] = [];
  const unchanged: C[] = [];
  const moved: { chunk: C; fromId: string }[] = [];
  const pageVersionUpdates = new Map<string, { pageHash: string; ids: string[] }>();
  // Stored points of this model by the hash of their embedded text: a chunk that moved finds its vector here.
  const byHash = new Map<string, string>();
  for (const [id, point] of stored)
    if (point.model === model && point.contentHash !== undefined && !byHash.has(point.contentHash))
      byHash.set(point.contentHash, id);
  for (const chunk of chunks) {
    const point = stored.get(chunk.id);
    if (point === undefined || point.contentHash !== chunk.contentHash || point.model !== model) {
      const fromId = byHash.get(chunk.contentHash);
      if (fromId === undefined) toWrite.push(chunk);
      else moved.push({ chunk, fromId });
      continue;
    }
    unchanged.push(chunk);
    if (point.pageHash !== chunk.pageHash || point.pageVersion !== chunk.pageVersion) {
      const update = pageVersionUpdates.get(chunk.pageVersion) ?? { pageHash: chunk.pageHash, ids: [] };
      update.ids.push(chunk.id);
      pageVersionUpdates.set(chunk.pageVersion, update);
    }
  }
  const wanted = new Set(chunks.map((c) => c.id));
  const pages = new Set(chunks.map((c) => c.sourceUrl));
  const toDelete: string[] = [];
  const kept = new Set<string>();
  for (const [id, point] of stored) {
    if (wanted.has(id)) continue;
    const ofIndexedPage = point.sourceUrl !== undefined && pages.has(point.sourceUrl);
    if (ofIndexedPage || options.prune) toDelete.push(id);
    else if (point.sourceUrl !== undefined) kept.add(point.sourceUrl);
  }
  return { toWrite, moved, unchanged, pageVersionUpdates, toDelete, keptGonePages: [...kept].sort() };
}
