/** The book's pages from the docs folder for `suite generate --docs`: the index's chunks, one section per heading. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBookPagesFromDocs } from '../../functions/indexer/book-pages.ts';
import { pointIdFor } from '../../functions/indexer/point-id.ts';

let docs: string;
beforeEach(async () => {
  docs = await mkdtemp(join(tmpdir(), 'ragwatch-book-pages-'));
});
afterEach(() => rm(docs, { recursive: true, force: true }));

describe('readBookPagesFromDocs', () => {
  it('gives each heading section of a merged chunk, with the merged chunk’s id as its chunk', async () => {
    // Prepare: small sections, merged into one chunk by the indexer
    const body = 'Intro text.\n\n## GPU\n\n### Minimum\n\n12 GB.\n\n### Ideal\n\n24 GB.';
    await writeFile(join(docs, 'station.md'), `---\ntitle: Field Workstation\n---\n\n${body}\n`);

    // Act
    const { pages } = await readBookPagesFromDocs({ docsDir: docs, baseUrl: 'https://book.example.org' });

    // Assess
    const url = 'https://book.example.org/docs/station';
    const chunkId = pointIdFor(url, 0);
    expect(pages.map((p) => [p.url, p.title, p.sections])).toEqual([
      [
        url,
        'Field Workstation',
        [
          { headings: [], text: 'Intro text.', chunkId },
          { headings: ['GPU', 'Minimum'], text: '### Minimum\n\n12 GB.', chunkId },
          { headings: ['GPU', 'Ideal'], text: '### Ideal\n\n24 GB.', chunkId },
        ],
      ],
    ]);
  });
});
