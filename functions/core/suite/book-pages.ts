/**
 * The book's pages as the index holds them, for `ragwatch suite generate` without the docs folder: one scroll of
 * the text and metadata fields (no vectors), grouped by source_url, chunks in chunk_index order. State is the
 * book's text, which the suite is generated from anyway.
 */
import { headingText } from '../book/heading-text.ts';
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
      const sections = sectionsOf(hierarchy.slice(1), String(payload.chunk_text ?? '')).map((s) => ({
        ...s,
        chunkId: id,
      }));
      // Positions are per section, so a chunk's sections stay together and in order among the page's others.
      const index = at === -1 ? entry.order.length : at;
      entry.order.splice(index, 0, ...sections.map(() => position));
      entry.page.sections.splice(index, 0, ...sections);
      byUrl.set(url, entry);
    }
  }
  return [...byUrl.values()].map((e) => e.page);
}

const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/**
 * A stored chunk's heading sections. The indexer merges small sections under one parent into one chunk (its
 * heading_hierarchy is then the parent's path, its text holds "### Minimum" and the rest): each heading line of the
 * text, outside code fences, starts a section under the chunk's path, so the generator still sees every heading. A
 * first heading that repeats the path's last one is the chunk's own; a heading with no text under it starts none.
 */
function sectionsOf(base: string[], text: string): { headings: string[]; text: string }[] {
  const sections: { headings: string[]; text: string }[] = [];
  const stack: { level: number; text: string; own: boolean }[] = [];
  let lines: string[] = [];
  let body = false;
  let fence: string | undefined;
  const flush = () => {
    if (body)
      sections.push({
        headings: [...base, ...stack.filter((h) => !h.own).map((h) => h.text)],
        text: lines.join('\n').trim(),
      });
    lines = [];
    body = false;
  };
  for (const line of text.split('\n')) {
    const heading = fence === undefined ? HEADING.exec(line) : null;
    if (fence === undefined) fence = FENCE.exec(line)?.[1];
    else if (line.trim().startsWith(fence)) fence = undefined;
    if (heading !== null) {
      flush();
      const level = heading[1]?.length ?? 1;
      const name = headingText(heading[2] ?? '');
      const own = sections.length === 0 && stack.length === 0 && base.length > 0 && name === base.at(-1);
      while ((stack.at(-1)?.level ?? 0) >= level) stack.pop();
      stack.push({ level, text: name, own });
      lines.push(line);
      continue;
    }
    if (line.trim() !== '') body = true;
    lines.push(line);
  }
  flush();
  // A chunk with no heading line in its text (one section, or another indexer's) is one section, as stored.
  return stack.length === 0 ? [{ headings: base, text }] : sections;
}
