/**
 * The chunk payload: the fields a point carries (seed 001's chunk metadata, plus what the indexer adds), written by
 * the indexer (functions/indexer) and read by every check. Every list of fields a request asks for is declared here
 * in terms of ChunkPayload, so a field renamed or dropped is a type error at once in the indexer and in each reader.
 */

/** The payload of one point: the seeds' fields plus indexed_at, content_hash, page_hash, page_version and model_version. */
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
  /** SHA-256 of what the page's points derive from (title, chapter, module, markdown): one value per page. */
  page_hash: string;
  /**
   * The page and its version in one keyword (pageVersionKey): its URL, page_hash and the number of chunks the indexer
   * wrote for it. One exact facet on it lists every version of every page with its points, whatever the points.
   */
  page_version: string;
  model_version: string;
  /**
   * The contextual header embedded above chunk_text (page title › H2 › H3; '' for none; for sections merged into one
   * chunk, their names after the path: "Introduction › Course Overview · Prerequisites"): what the vector is of is
   * embed_header + blank line + chunk_text (embeddedText). Absent on collections another indexer wrote.
   */
  embed_header: string;
}

export type PayloadField = keyof ChunkPayload;

/** Seed 001's chunk metadata: what every point should carry besides its chunk_text (the default required fields). */
export const CHUNK_METADATA_FIELDS = [
  'source_url',
  'chapter_id',
  'module_name',
  'heading_hierarchy',
  'token_count',
  'chunk_index',
] as const satisfies readonly PayloadField[];

/**
 * What every golden-query search returns: what a QueryResult reports, nothing more (no vectors). indexed_at and
 * model_version are the indexer's (seed 004's result timestamp and QueryEmbedding model).
 */
export const RESULT_FIELDS: PayloadField[] = ['chunk_text', ...CHUNK_METADATA_FIELDS, 'indexed_at', 'model_version'];

/** A chunk as the agent's retrieval tool hands it over (seed 002's Retrieved Context). */
export const CONTEXT_FIELDS: PayloadField[] = [
  'chunk_text',
  'source_url',
  'chapter_id',
  'module_name',
  'heading_hierarchy',
];

/** A page's chunks in order, to generate a suite from the index. */
export const PAGE_FIELDS: PayloadField[] = [...CONTEXT_FIELDS, 'chunk_index'];

/**
 * The index-health inventory: per page its hashes, chunk indexes (and the count its version declares), models and
 * ages; never chunk text nor vectors.
 */
export const INVENTORY_FIELDS: PayloadField[] = [
  'source_url',
  'page_hash',
  'page_version',
  'chunk_index',
  'model_version',
  'indexed_at',
];

/** The drift canary's sample: the text to re-embed, and the page it comes from. */
export const CANARY_FIELDS: PayloadField[] = ['chunk_text', 'embed_header', 'source_url'];

/** The contextual header of a chunk: its heading path from the page title down ("Field Workstation › GPU › Minimum"). */
export function contextualHeader(headingHierarchy: readonly string[]): string {
  return headingHierarchy
    .map((h) => h.trim())
    .filter((h) => h !== '')
    .join(' › ');
}

/**
 * The text a chunk's vector is of: its header above its text (issue 23 §5: the page title and the H1 were in no
 * embedded text, so a chunk under "Minimum" did not say which page or section it belongs to). The indexer embeds
 * this; the drift canary re-embeds it, and chunk_text alone where a collection carries no embed_header.
 */
export function embeddedText(payload: { chunk_text: string; embed_header?: unknown }): string {
  const header = typeof payload.embed_header === 'string' ? payload.embed_header : '';
  return header === '' ? payload.chunk_text : `${header}\n\n${payload.chunk_text}`;
}

/** The book's catalog: its modules and chapters. */
export const CATALOG_FIELDS: PayloadField[] = ['module_name', 'chapter_id'];

/** What the indexer reads back of the stored points to plan a re-index (which pages and chunks changed). */
export const REINDEX_FIELDS: PayloadField[] = [
  'source_url',
  'content_hash',
  'page_hash',
  'page_version',
  'model_version',
];

/**
 * The payload indexes the indexer creates: exact facets on the URL, module, chapter, embedding model, page version
 * and indexing time, ranges on token counts. The checks ask the index for counts and facets where these exist, and
 * scroll where they do not. indexed_at is a keyword (not a datetime) index because Qdrant facets only keyword,
 * integer, bool and uuid indexes: its facet lists the few indexing times the collection holds.
 */
export const PAYLOAD_INDEXES = {
  source_url: 'keyword',
  module_name: 'keyword',
  chapter_id: 'keyword',
  token_count: 'integer',
  model_version: 'keyword',
  page_version: 'keyword',
  indexed_at: 'keyword',
} as const satisfies Partial<Record<PayloadField, 'keyword' | 'integer'>>;

/**
 * A page version as one keyword: "<source_url> <page_hash> <chunk count>", then " <YYYY-MM-DD>" when the page's last
 * update day is known (the UTC day Docusaurus writes as a date-only `<lastmod>`; freshness-check.ts compares them).
 * The URL may hold spaces, the rest not.
 */
export function pageVersionKey(sourceUrl: string, pageHash: string, chunks: number, updatedDay?: string): string {
  return updatedDay === undefined
    ? `${sourceUrl} ${pageHash} ${chunks}`
    : `${sourceUrl} ${pageHash} ${chunks} ${updatedDay}`;
}

const UPDATED_DAY = / (\d{4}-\d{2}-\d{2})$/;

/** The parts of a page_version keyword, or undefined when it is not "<url> <hash> <count>[ <day>]". */
export function parsePageVersion(
  key: string,
): { sourceUrl: string; pageHash: string; chunks: number; updatedDay?: string } | undefined {
  const day = UPDATED_DAY.exec(key)?.[1];
  const rest = day === undefined ? key : key.slice(0, -day.length - 1);
  const countAt = rest.lastIndexOf(' ');
  const hashAt = countAt <= 0 ? -1 : rest.lastIndexOf(' ', countAt - 1);
  if (hashAt <= 0) return undefined;
  const count = rest.slice(countAt + 1);
  const pageHash = rest.slice(hashAt + 1, countAt);
  if (!/^\d{1,9}$/.test(count) || pageHash === '') return undefined;
  const parts = { sourceUrl: rest.slice(0, hashAt), pageHash, chunks: Number(count) };
  return day === undefined ? parts : { ...parts, updatedDay: day };
}
