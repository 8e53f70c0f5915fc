/**
 * The book's pages from its docs folder, chunked as `ragwatch index` chunks them, with the point ids it writes:
 * `ragwatch suite generate --docs` then judges the same chunks the index holds.
 */
import type { BookPage } from '../core/suite/generate-suite.ts';
import { chunkMarkdown } from './chunk-markdown.ts';
import { pointIdFor } from './point-id.ts';
import { readDocs } from './read-docs.ts';

/** Reads and chunks every published page. */
export async function readBookPagesFromDocs(options: { docsDir: string; baseUrl: string }): Promise<BookPage[]> {
  const pages = await readDocs(options);
  return pages.map((page) => ({
    url: page.sourceUrl,
    chapterId: page.chapterId,
    moduleName: page.moduleName,
    title: page.title,
    sections: chunkMarkdown(page.body, { title: page.title }).map((chunk) => ({
      headings: chunk.headingHierarchy.slice(1),
      text: chunk.chunkText,
      chunkId: pointIdFor(page.sourceUrl, chunk.chunkIndex),
    })),
  }));
}
