/** The book's pages read back from the index, for `ragwatch suite generate` without the docs folder. */
import { describe, expect, it } from 'vitest';
import { readBookPagesFromIndex } from '../../../functions/core/suite/book-pages.ts';
import { MemoryIndex, type MemoryPoint } from '../../fakes/memory-index.ts';

const URL_A = 'https://book.example.org/docs/module1/nodes';
const URL_B = 'https://book.example.org/docs/intro';

function chunk(id: string, url: unknown, index: unknown, extra: Record<string, unknown> = {}): MemoryPoint {
  return {
    id,
    payload: {
      chunk_text: `text ${id}`,
      source_url: url,
      chapter_id: 'module1/nodes',
      module_name: 'Module 1',
      heading_hierarchy: ['Nodes', `Section ${id}`],
      chunk_index: index,
      ...extra,
    },
  };
}

describe('readBookPagesFromIndex', () => {
  it('groups the chunks by page, each page in order of first appearance with its module, chapter and title', async () => {
    const index = new MemoryIndex([
      chunk('a1', URL_A, 0),
      chunk('b1', URL_B, 0, { chapter_id: 'intro', module_name: 'Intro', heading_hierarchy: ['Welcome'] }),
      chunk('a2', URL_A, 1),
    ]);
    expect(await readBookPagesFromIndex(index)).toEqual([
      {
        url: URL_A,
        chapterId: 'module1/nodes',
        moduleName: 'Module 1',
        title: 'Nodes',
        sections: [
          { headings: ['Section a1'], text: 'text a1', chunkId: 'a1' },
          { headings: ['Section a2'], text: 'text a2', chunkId: 'a2' },
        ],
      },
      {
        url: URL_B,
        chapterId: 'intro',
        moduleName: 'Intro',
        title: 'Welcome',
        sections: [{ headings: [], text: 'text b1', chunkId: 'b1' }],
      },
    ]);
  });

  it('puts each page’s sections in chunk_index order whatever order the scroll returns them in', async () => {
    const index = new MemoryIndex([
      chunk('c3', URL_A, 3),
      chunk('c0', URL_A, 0),
      chunk('c2', URL_A, 2),
      chunk('c1', URL_A, 1),
    ]);
    const [page] = await readBookPagesFromIndex(index, 2);
    expect(page?.sections.map((s) => s.chunkId)).toEqual(['c0', 'c1', 'c2', 'c3']);
  });

  it('keeps two chunks with the same index in scroll order', async () => {
    const index = new MemoryIndex([chunk('x', URL_A, 1), chunk('y', URL_A, 1), chunk('w', URL_A, 0)]);
    const [page] = await readBookPagesFromIndex(index);
    expect(page?.sections.map((s) => s.chunkId)).toEqual(['w', 'x', 'y']);
  });

  it('places a chunk without an index after the chunks read so far', async () => {
    const index = new MemoryIndex([chunk('a', URL_A, 0), chunk('b', URL_A, 5), chunk('n', URL_A, 'two')]);
    const [page] = await readBookPagesFromIndex(index);
    // Without an index, the chunk takes position 2 (the count so far): before the chunk at index 5.
    expect(page?.sections.map((s) => s.chunkId)).toEqual(['a', 'n', 'b']);
  });

  it('leaves out chunks without a source URL', async () => {
    const index = new MemoryIndex([chunk('a', URL_A, 0), chunk('n', null, 0), chunk('e', '', 0), chunk('k', 42, 0)]);
    const pages = await readBookPagesFromIndex(index);
    expect(pages.map((p) => p.url)).toEqual([URL_A]);
    expect(pages[0]?.sections).toHaveLength(1);
  });

  it('titles a page by its chapter when its chunks carry no headings, and reads missing fields as empty', async () => {
    const index = new MemoryIndex([
      {
        id: 'm',
        payload: { source_url: URL_A, chapter_id: 'module1/nodes', heading_hierarchy: 'Nodes', module_name: 7 },
      },
      { id: 'n', payload: { source_url: URL_B, heading_hierarchy: [1, 'Two'] } },
    ]);
    expect(await readBookPagesFromIndex(index)).toEqual([
      {
        url: URL_A,
        chapterId: 'module1/nodes',
        moduleName: '',
        title: 'module1/nodes',
        sections: [{ headings: [], text: '', chunkId: 'm' }],
      },
      {
        url: URL_B,
        chapterId: '',
        moduleName: '',
        title: '1',
        sections: [{ headings: ['Two'], text: '', chunkId: 'n' }],
      },
    ]);
  });

  it('asks the index for the text and metadata fields only, in pages of the size given', async () => {
    const index = new MemoryIndex([chunk('a', URL_A, 0), chunk('b', URL_A, 1), chunk('c', URL_A, 2)]);
    const asked: { payloadFields: string[]; pageSize: number }[] = [];
    const scroll = index.scroll.bind(index);
    index.scroll = (options) => {
      asked.push(options);
      return scroll(options);
    };
    await readBookPagesFromIndex(index, 2);
    expect(asked).toEqual([
      {
        payloadFields: ['chunk_text', 'source_url', 'chapter_id', 'module_name', 'heading_hierarchy', 'chunk_index'],
        pageSize: 2,
      },
    ]);
    expect(index.calls).toEqual(['scroll', 'scroll']);
  });

  it('reads 1,000 points a page by default', async () => {
    const index = new MemoryIndex([chunk('a', URL_A, 0)]);
    const sizes: number[] = [];
    const scroll = index.scroll.bind(index);
    index.scroll = (options) => {
      sizes.push(options.pageSize);
      return scroll(options);
    };
    await readBookPagesFromIndex(index);
    expect(sizes).toEqual([1000]);
  });
});

describe('a merged chunk read back from the index', () => {
  it('gives each heading section of its text, under the chunk’s path, with the chunk as their chunk', async () => {
    // Prepare: what the indexer stores for small sections merged under the page title ("## GPU" had no text)
    const text = [
      'Needed by every team member.',
      '## GPU (Critical **Bottleneck**)',
      '### Minimum',
      '- A 12 GB card',
      '```bash',
      '# not a heading',
      '```',
      '## CPU {#cpu}',
      '16 cores.',
    ].join('\n\n');
    const index = new MemoryIndex([
      chunk('m', URL_A, 1, { chunk_text: text, heading_hierarchy: ['Field Workstation'] }),
      chunk('z', URL_A, 0, { chunk_text: 'First.', heading_hierarchy: ['Field Workstation'] }),
    ]);

    // Act
    const [page] = await readBookPagesFromIndex(index);

    // Assess: in page order, the chunk at index 0 first; a heading with no text starts no section
    expect(page?.sections).toEqual([
      { headings: [], text: 'First.', chunkId: 'z' },
      { headings: [], text: 'Needed by every team member.', chunkId: 'm' },
      {
        headings: ['GPU (Critical Bottleneck)', 'Minimum'],
        text: '### Minimum\n\n- A 12 GB card\n\n```bash\n\n# not a heading\n\n```',
        chunkId: 'm',
      },
      { headings: ['CPU'], text: '## CPU {#cpu}\n\n16 cores.', chunkId: 'm' },
    ]);
  });

  it('starts no section at a heading followed only by spaces, nor at a fence mark inside code', async () => {
    const index = new MemoryIndex([
      chunk('s', URL_A, 0, {
        chunk_text: '## Empty\n   \n## Full\n\nBody text.\n\n  ```\n## not a heading\n  ```\n\n## After\n\nMore.',
        heading_hierarchy: ['Page'],
      }),
    ]);
    expect((await readBookPagesFromIndex(index))[0]?.sections.map((s) => s.headings)).toEqual([['Full'], ['After']]);
  });

  it('takes a first heading as the chunk’s own only when it repeats the chunk’s last heading', async () => {
    const index = new MemoryIndex([
      chunk('s', URL_A, 0, { chunk_text: '## Other\n\nText here.', heading_hierarchy: ['Page', 'Nodes'] }),
      chunk('t', URL_B, 0, { chunk_text: '## Nodes\n\nText here.', heading_hierarchy: ['Page'] }),
    ]);
    const pages = await readBookPagesFromIndex(index);
    expect(pages.map((p) => p.sections.map((s) => s.headings))).toEqual([[['Nodes', 'Other']], [['Nodes']]]);
  });

  it('does not take a repeat of the path’s last heading for the chunk’s own after text or under another heading', async () => {
    const index = new MemoryIndex([
      chunk('s', URL_A, 0, { chunk_text: 'Intro text.\n\n## Nodes\n\nMore.', heading_hierarchy: ['Page', 'Nodes'] }),
      chunk('t', URL_B, 0, { chunk_text: '## Other\n\n### Nodes\n\nText.', heading_hierarchy: ['Page', 'Nodes'] }),
    ]);
    const pages = await readBookPagesFromIndex(index);
    expect(pages.map((p) => p.sections.map((s) => s.headings))).toEqual([
      [['Nodes'], ['Nodes', 'Nodes']],
      [['Nodes', 'Other', 'Nodes']],
    ]);
  });

  it('does not repeat the heading a chunk of one section opens with', async () => {
    const index = new MemoryIndex([
      chunk('s', URL_A, 0, {
        chunk_text: '## Nodes\n\nA node does one thing.\n\n### Parameters\n\nNodes carry parameters.',
        heading_hierarchy: ['ROS 2', 'Nodes'],
      }),
    ]);
    expect((await readBookPagesFromIndex(index))[0]?.sections.map((s) => s.headings)).toEqual([
      ['Nodes'],
      ['Nodes', 'Parameters'],
    ]);
  });
});
