/**
 * The modules and chapters the index holds, as stored, so that what a suite names (a folder slug, the stored name,
 * seed 001's "Module N Name") can be resolved to stored values before a filter is sent, and a name the index does
 * not have is reported as such instead of as "no results". Read by two exact facets when module_name and chapter_id
 * have keyword payload indexes (the indexer creates them), else by one scroll of those two fields.
 */

import { matchesChapter } from '../book/matching.ts';
import { moduleKey, moduleSlugOf } from '../book/module-name.ts';
import { CATALOG_FIELDS } from '../book/payload.ts';
import type { CollectionInfo, VectorIndex } from '../ports.ts';
import { scrollPlan } from '../scroll-plan.ts';
import type { ResolvedQuery } from '../suite/suite.ts';

/** Distinct stored values, sorted. */
export interface BookCatalog {
  modules: string[];
  chapters: string[];
}

const FACET_LIMIT = 10_000;
/** How many known names a message lists before "and N more". */
const LISTED = 20;

/** True when some query names a module or a chapter (in its filters or its expectations). */
export function namesModulesOrChapters(queries: readonly ResolvedQuery[]): boolean {
  return queries.some(
    (q) =>
      q.filters.module !== undefined ||
      q.filters.chapter !== undefined ||
      q.expected_module !== null ||
      q.expected_chapter !== null,
  );
}

/** Reads the catalog by facets where indexed, else (or when a facet reaches its limit) by one scroll. */
export async function readBookCatalog(options: {
  index: VectorIndex;
  info: CollectionInfo;
  pageSize: number;
  /** Id ranges the scroll reads at once (1: one page after the other). */
  partitions?: number;
}): Promise<BookCatalog> {
  const { index, info } = options;
  if (info.payloadIndexes.module_name === 'keyword' && info.payloadIndexes.chapter_id === 'keyword') {
    const [modules, chapters] = await Promise.all([
      index.facet('module_name', FACET_LIMIT),
      index.facet('chapter_id', FACET_LIMIT),
    ]);
    if (modules.length < FACET_LIMIT && chapters.length < FACET_LIMIT)
      return {
        modules: sortedStrings(modules.map((h) => h.value)),
        chapters: sortedStrings(chapters.map((h) => h.value)),
      };
  }
  const modules = new Set<unknown>();
  const chapters = new Set<unknown>();
  for await (const page of index.scroll({
    payloadFields: CATALOG_FIELDS,
    ...scrollPlan(options.pageSize, options.partitions ?? 1, info),
  })) {
    for (const point of page) {
      modules.add(point.payload.module_name);
      chapters.add(point.payload.chapter_id);
    }
  }
  return { modules: sortedStrings([...modules]), chapters: sortedStrings([...chapters]) };
}

/**
 * What a module name in the suite means in this index: the stored module names with its key, else the chapters
 * whose first segment has its key (an index whose module_name was written by another rule), else nothing.
 */
export function resolveModule(
  name: string,
  catalog: BookCatalog,
): { field: 'module_name' | 'chapter_id'; values: string[] } | null {
  const key = moduleKey(name);
  if (key === '') return null;
  const modules = catalog.modules.filter((m) => moduleKey(m) === key);
  if (modules.length > 0) return { field: 'module_name', values: modules };
  const chapters = catalog.chapters.filter((c) => moduleKey(moduleSlugOf(c)) === key);
  return chapters.length > 0 ? { field: 'chapter_id', values: chapters } : null;
}

/** The stored chapter ids a chapter name in the suite means (full id, or its trailing segments). */
export function resolveChapter(name: string, catalog: BookCatalog): string[] {
  return catalog.chapters.filter((c) => matchesChapter(name, c));
}

/** "module 'X' is not in the index (known: A, B)": what a suite names that the index does not have. */
export function describeUnknown(kind: 'module' | 'chapter', name: string, catalog: BookCatalog): string {
  const known = kind === 'module' ? catalog.modules : catalog.chapters;
  const shown = known.slice(0, LISTED).join(', ');
  const more = known.length > LISTED ? ` and ${known.length - LISTED} more` : '';
  return `${kind} '${name}' is not in the index (known ${kind}s: ${shown || 'none'}${more})`;
}

function sortedStrings(values: unknown[]): string[] {
  return values.filter((v): v is string => typeof v === 'string' && v !== '').sort();
}
