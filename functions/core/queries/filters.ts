/**
 * Suite filters (module / chapter / section / url) in the vector index's filter language. The payload keys are the
 * seeds' (001): module_name, chapter_id, heading_hierarchy, source_url.
 */

import type { PayloadField } from '../book/payload.ts';
import type { FilterCondition, PayloadFilter } from '../ports.ts';
import { type BookCatalog, describeUnknown, resolveChapter, resolveModule } from './catalog.ts';

export interface QueryFilters {
  module?: string;
  chapter?: string;
  section?: string;
  url?: string;
}

const FILTER_KEYS: Record<keyof QueryFilters, PayloadField> = {
  module: 'module_name',
  chapter: 'chapter_id',
  // heading_hierarchy is an array: Qdrant's match on an array field matches when any element equals the value.
  section: 'heading_hierarchy',
  url: 'source_url',
};

/**
 * Builds a must-filter from suite filters; undefined when there is nothing to filter on. With the index's catalog,
 * a module or chapter is sent as the stored values it names (catalog.ts), and one the index does not have is
 * returned in `unknown` (the query is then not searched); without it, values are sent as written.
 */
export function buildPayloadFilter(
  filters: QueryFilters,
  catalog?: BookCatalog,
): { filter: PayloadFilter | undefined; unknown: string[] } {
  const must: FilterCondition[] = [];
  const unknown: string[] = [];
  for (const name of Object.keys(FILTER_KEYS) as (keyof QueryFilters)[]) {
    const value = filters[name];
    if (value === undefined) continue;
    if (catalog !== undefined && name === 'module') {
      const resolved = resolveModule(value, catalog);
      if (resolved === null) unknown.push(describeUnknown('module', value, catalog));
      else must.push(matchAny(resolved.field, resolved.values));
    } else if (catalog !== undefined && name === 'chapter') {
      const chapters = resolveChapter(value, catalog);
      if (chapters.length === 0) unknown.push(describeUnknown('chapter', value, catalog));
      else must.push(matchAny('chapter_id', chapters));
    } else {
      must.push({ key: FILTER_KEYS[name], match: { value } });
    }
  }
  return { filter: must.length > 0 ? { must } : undefined, unknown };
}

function matchAny(key: string, values: string[]): FilterCondition {
  return values.length === 1 ? { key, match: { value: values[0] ?? '' } } : { key, match: { any: values } };
}
