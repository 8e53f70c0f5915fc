/**
 * The book's pages from its docs folder, chunked as `ragwatch index` chunks them, with the point ids it writes:
 * `ragwatch suite generate --docs` then judges the same chunks the index holds.
 */
import { describeModules } from '../core/book/book-modules.ts';
import type { BookPage } from '../core/suite/generate-suite.ts';
import { chunkMarkdown } from './chunk-markdown.ts';
import { pointIdFor } from './point-id.ts';
import { describeRoutes, readBook } from './read-docs.ts';

/** Reads and chunks every published page; `modules` says which modules they were given. */
export async function readBookPagesFromDocs(options: {
  docsDir: string;
  baseUrl: string;
  moduleRoot?: string;
  routeBasePath?: string;
}): Promise<{ pages: BookPage[]; modules: string }> {
  const { pages, modules, routes } = await readBook(options);
  return {
    modules: `${describeRoutes(routes, options.baseUrl)}\n${describeModules(modules)}`,
    pages: pages.map((page) => ({
      url: page.sourceUrl,
      chapterId: page.chapterId,
      moduleName: page.moduleName,
      title: page.title,
      // One section per heading section, even where several were merged into one chunk: the generator asks about a
      // section's own heading, and the chunk that holds it is the relevant one.
      sections: chunkMarkdown(page.body, { title: page.title }).flatMap((chunk) =>
        chunk.parts.map((part) => ({
          headings: part.headingHierarchy.slice(1),
          text: part.text,
          chunkId: pointIdFor(page.sourceUrl, chunk.chunkIndex),
        })),
      ),
    })),
  };
}
