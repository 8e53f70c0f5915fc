/** The chunk payload of seed 001: the metadata every point should carry, besides its chunk_text. */
export const CHUNK_METADATA_FIELDS = [
  'source_url',
  'chapter_id',
  'module_name',
  'heading_hierarchy',
  'token_count',
  'chunk_index',
] as const;
