/**
 * Suite filters (module / chapter / section / url) in the vector index's filter language, and the payload
 * fields a search returns. The payload keys are the seeds' (001): module_name, chapter_id, heading_hierarchy, source_url.
 */

import type { PayloadFilter } from '../ports.ts';
import { CHUNK_METADATA_FIELDS } from '../quality/payload-fields.ts';

/**
 * The payload fields every search asks for: what a QueryResult reports, nothing more (no vectors). indexed_at and
 * model_version are the indexer's (seed 004's result timestamp and QueryEmbedding model).
 */
export const RESULT_FIELDS: string[] = ['chunk_text', ...CHUNK_METADATA_FIELDS, 'indexed_at', 'model_version'];

export interface QueryFilters {
  module?: string;
  chapter?: string;
  section?: string;
  url?: string;
}

const FILTER_KEYS: Record<keyof QueryFilters, string> = {
  module: 'module_name',
  chapter: 'chapter_id',
  // heading_hierarchy is an array: Qdrant's match on an array field matches when any element equals the value.
  section: 'heading_hierarchy',
  url: 'source_url',
};

/** Builds a must-filter from suite filters; undefined when there is nothing to filter on. */
export function buildPayloadFilter(filters: QueryFilters): PayloadFilter | undefined {
  const must = (Object.keys(FILTER_KEYS) as (keyof QueryFilters)[])
    .filter((name) => filters[name] !== undefined)
    .map((name) => ({ key: FILTER_KEYS[name], match: { value: filters[name] as string } }));
  return must.length > 0 ? { must } : undefined;
}
