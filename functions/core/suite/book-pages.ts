/**
 * The book's pages as the index holds them, for `ragwatch suite generate` without the docs folder: one scroll of
 * the text and metadata fields (no vectors), grouped by source_url, chunks in chunk_index order. State is the
 * book's text, which the suite is generated from anyway.
 */
import { PAGE_FIELDS } from '../book/payload.ts';
import type { VectorIndex } from '../ports.ts';
import type { BookPage } from './generate-suite.ts';

/** Reads every page of the collection; chunks without a source_url are left out. */
export async function readBookPagesFromIndex(index: VectorIndex, pageSize = 1000): Promise<BookPage[]> {
  const byUrl = new Map<string, { page: BookPage; order: number[] }>();
  for await (const batch of index.scroll({ payloadFields: PAGE_FIELDS, pageSize })) {
    for (const { id, payload } of batch) {
      const url = payload.source_url;
      if (typeof url !== 'string' || url === '') continue;
      const hierarchy = Array.isArray(payload.heading_hierarchy) ? payload.heading_hierarchy.map(String) : [];
      const chapterId = typeof payload.chapter_id === 'string' ? payload.chapter_id : '';
      const entry = byUrl.get(url) ?? {
        page: {
          url,
          chapterId,
          moduleName: typeof payload.module_name === 'string' ? payload.module_name : '',
          title: hierarchy[0] ?? chapterId,
          sections: [],
        },
        order: [],
      };
      const position = typeof payload.chunk_index === 'number' ? payload.chunk_index : entry.order.length;
      const at = entry.order.findIndex((o) => o > position);
      const section = { headings: hierarchy.slice(1), text: String(payload.chunk_text ?? ''), chunkId: id };
      if (at === -1) {
        entry.order.push(position);
        entry.page.sections.push(section);
      } else {
        entry.order.splice(at, 0, position);
        entry.page.sections.splice(at, 0, section);
      }
      byUrl.set(url, entry);
    }
  }
  return [...byUrl.values()].map((e) => e.page);
}
