import { describe, expect, it } from 'vitest';
import { contextualHeader } from '../../functions/core/book/payload.ts';
import { chunkMarkdown, countTokens } from '../../functions/indexer/chunk-markdown.ts';

/** A paragraph of exactly `count` one-token words, each tagged so pieces can be traced back. */
function paragraph(count: number, tag: string): string {
  return Array.from({ length: count }, (_, i) => `${tag}${i}`).join(' ');
}

/** A paragraph of `sentences` sentences of 10 tokens each (9 words and a full stop). */
function sentences(sentences: number, tag: string): string {
  return Array.from({ length: sentences }, (_, s) => `${paragraph(9, `${tag}s${s}w`)}.`).join(' ');
}

describe('countTokens', () => {
  it('counts each word run and each punctuation mark as one token', () => {
    // Prepare
    const text = 'Hello, world! ROS_2 nodes use rclpy.';

    // Act
    const count = countTokens(text);

    // Assess: Hello , world ! ROS_2 nodes use rclpy .
    expect(count).toBe(9);
  });

  it('counts letters of any script as words', () => {
    expect(countTokens('Café über naïve')).toBe(3);
  });
});

/** A target no two of these tests' small sections fit together (each fits alone with its header): no merging. */
const SEPARATE = { targetTokens: 14, maxTokens: 440 };

describe('chunkMarkdown', () => {
  it('cuts at headings, each section with the title and its enclosing headings, when none fit the target together', () => {
    // Prepare
    const markdown = [
      '# ROS 2 Basics',
      '',
      'ROS 2 is middleware.',
      '',
      '## Nodes',
      '',
      'A node does one thing.',
      '',
      '### Parameters',
      '',
      'Nodes carry parameters.',
      '',
      '### Lifecycle',
      '',
      'Nodes can be managed.',
      '',
      '## Topics',
      '',
      'Topics stream data.',
    ].join('\n');

    // Act
    const chunks = chunkMarkdown(markdown, { title: 'ROS 2 Basics', sizes: SEPARATE });

    // Assess
    expect(chunks.map(({ parts, embedHeader, ...chunk }) => chunk)).toEqual([
      { chunkIndex: 0, headingHierarchy: ['ROS 2 Basics'], chunkText: 'ROS 2 is middleware.', tokenCount: 5 },
      {
        chunkIndex: 1,
        headingHierarchy: ['ROS 2 Basics', 'Nodes'],
        chunkText: '## Nodes\n\nA node does one thing.',
        tokenCount: 9,
      },
      {
        chunkIndex: 2,
        headingHierarchy: ['ROS 2 Basics', 'Nodes', 'Parameters'],
        chunkText: '### Parameters\n\nNodes carry parameters.',
        tokenCount: 8,
      },
      {
        chunkIndex: 3,
        headingHierarchy: ['ROS 2 Basics', 'Nodes', 'Lifecycle'],
        chunkText: '### Lifecycle\n\nNodes can be managed.',
        tokenCount: 9,
      },
      {
        chunkIndex: 4,
        headingHierarchy: ['ROS 2 Basics', 'Topics'],
        chunkText: '## Topics\n\nTopics stream data.',
        tokenCount: 7,
      },
    ]);
  });

  it('merges the small sections of a page into one chunk under the title, keeping each as a part', () => {
    // Prepare: five sections, 38 tokens in all
    const markdown = [
      'ROS 2 is middleware.',
      '## Nodes',
      'A node does one thing.',
      '### Parameters',
      'Nodes carry parameters.',
      '## Topics',
      'Topics stream data.',
    ].join('\n\n');

    // Act
    const chunks = chunkMarkdown(markdown, { title: 'ROS 2 Basics' });

    // Assess
    expect(chunks).toEqual([
      {
        chunkIndex: 0,
        headingHierarchy: ['ROS 2 Basics'],
        chunkText: markdown,
        tokenCount: countTokens(markdown),
        // The path, then the sections merged under it, one level down.
        embedHeader: 'ROS 2 Basics › Nodes · Topics',
        parts: [
          { headingHierarchy: ['ROS 2 Basics'], text: 'ROS 2 is middleware.' },
          { headingHierarchy: ['ROS 2 Basics', 'Nodes'], text: '## Nodes\n\nA node does one thing.' },
          {
            headingHierarchy: ['ROS 2 Basics', 'Nodes', 'Parameters'],
            text: '### Parameters\n\nNodes carry parameters.',
          },
          { headingHierarchy: ['ROS 2 Basics', 'Topics'], text: '## Topics\n\nTopics stream data.' },
        ],
      },
    ]);
  });

  it('merges up to the target with the header, and not one token more', () => {
    // Prepare: merged, the header "T › A · B" is 5 tokens; "## A" + 7 words is 10 tokens, "## B" + 7 words too.
    const markdown = `## A\n\n${paragraph(7, 'a')}\n\n## B\n\n${paragraph(7, 'b')}`;

    // Act
    const at = chunkMarkdown(markdown, { title: 'T', sizes: { targetTokens: 25, maxTokens: 440 } });
    const under = chunkMarkdown(markdown, { title: 'T', sizes: { targetTokens: 24, maxTokens: 440 } });

    // Assess
    expect(at.map((c) => [c.headingHierarchy, c.embedHeader])).toEqual([[['T'], 'T › A · B']]);
    expect(under.map((c) => c.headingHierarchy)).toEqual([
      ['T', 'A'],
      ['T', 'B'],
    ]);
  });

  it('packs a parent too big to merge whole one level down, and never merges across parents', () => {
    // Prepare: target 60. A's own text (8 with its heading) and A1 (33) fit together under "T › A"; A2 does not fit
    // them; B would fit beside A2 but is under another parent.
    const markdown = [
      paragraph(10, 'i'),
      '## A',
      paragraph(6, 'a'),
      '### A1',
      paragraph(29, 'x'),
      '### A2',
      paragraph(29, 'y'),
      '## B',
      paragraph(6, 'b'),
    ].join('\n\n');

    // Act
    const chunks = chunkMarkdown(markdown, { title: 'T', sizes: { targetTokens: 60, maxTokens: 440 } });

    // Assess
    expect(chunks.map((c) => [c.headingHierarchy, c.parts.length])).toEqual([
      [['T'], 1],
      [['T', 'A'], 2],
      [['T', 'A', 'A2'], 1],
      [['T', 'B'], 1],
    ]);
    expect(chunks.map((c) => c.chunkText).join('\n\n')).toBe(markdown);
  });

  it('writes a heading with no text of its own back into a merged chunk whose header stops above it', () => {
    // Prepare
    const markdown = '## GPU\n\n### Minimum\n\n12 GB.\n\n### Ideal\n\n24 GB.\n\n## CPU\n\n16 cores.';

    // Act
    const merged = chunkMarkdown(markdown, { title: 'Workstation' });
    const apart = chunkMarkdown(markdown, { title: 'Workstation', sizes: SEPARATE });

    // Assess: merged under the title, "## GPU" stands above its sections; apart, the header carries it.
    expect(merged.map((c) => [c.headingHierarchy, c.chunkText])).toEqual([[['Workstation'], markdown]]);
    expect(apart.map((c) => [c.headingHierarchy, c.chunkText])).toEqual([
      [['Workstation', 'GPU', 'Minimum'], '### Minimum\n\n12 GB.'],
      [['Workstation', 'GPU', 'Ideal'], '### Ideal\n\n24 GB.'],
      [['Workstation', 'CPU'], '## CPU\n\n16 cores.'],
    ]);
  });

  it('writes back only the headings above a section, not an empty sibling before it', () => {
    const markdown = 'Intro.\n\n## Empty\n\n## Full\n\n### Deep\n\nBody.';
    expect(chunkMarkdown(markdown, { title: 'T' }).map((c) => c.chunkText)).toEqual([
      'Intro.\n\n## Full\n\n### Deep\n\nBody.',
    ]);
  });

  it('drops a heading that has no text of its own before the next heading', () => {
    // Prepare
    const markdown = '## Architecture\n\n### Planner\n\nIt plans.';

    // Act
    const chunks = chunkMarkdown(markdown, { title: 'Nav2' });

    // Assess
    expect(chunks.map((c) => c.headingHierarchy)).toEqual([['Nav2', 'Architecture', 'Planner']]);
  });

  it('does not take a line starting with # inside a code block for a heading', () => {
    // Prepare
    const markdown = ['## Setup', '', '```bash', '# source the workspace', 'source install/setup.bash', '```'].join(
      '\n',
    );

    // Act
    const chunks = chunkMarkdown(markdown, { title: 'Setup guide' });

    // Assess
    expect(chunks.map((c) => [c.headingHierarchy, c.chunkText])).toEqual([
      [['Setup guide', 'Setup'], '## Setup\n\n```bash\n# source the workspace\nsource install/setup.bash\n```'],
    ]);
  });

  it('removes inline markup and custom anchors from heading names', () => {
    // Prepare
    const markdown =
      '## Nodes in `rclpy` and **C++** {#nodes}\n\nText.\n\n## See [the docs](https://example.com)\n\nMore.';

    // Act
    const chunks = chunkMarkdown(markdown, { title: 'T', sizes: SEPARATE });

    // Assess
    expect(chunks.map((c) => c.headingHierarchy.at(-1))).toEqual(['Nodes in rclpy and C++', 'See the docs']);
    // An anchor right after the words, and braces that are not an anchor at the end, as written.
    const tight = chunkMarkdown('## Setup{#setup}\n\nText.\n\n## Use {#braces} in text\n\nMore.', {
      title: 'T',
      sizes: SEPARATE,
    });
    expect(tight.map((c) => c.headingHierarchy.at(-1))).toEqual(['Setup', 'Use {#braces} in text']);
  });

  it('leaves out MDX import lines and HTML comments', () => {
    // Prepare
    const markdown = "import Tabs from '@theme/Tabs';\n\nIntro text.\n\n<!-- truncate -->\n\nMore text.";

    // Act
    const chunks = chunkMarkdown(markdown, { title: 'T' });

    // Assess
    expect(chunks.map((c) => c.chunkText)).toEqual(['Intro text.\n\nMore text.']);
  });

  it('keeps a section whole when it is over the target but within the maximum', () => {
    // Prepare
    const markdown = `## Long\n\n${paragraph(200, 'a')}\n\n${paragraph(200, 'b')}`;

    // Act
    const chunks = chunkMarkdown(markdown, { title: 'T', sizes: { targetTokens: 350, maxTokens: 512 } });

    // Assess
    expect(chunks.map((c) => c.tokenCount)).toEqual([3 + 400]);
  });

  it('splits a section over the maximum at paragraph boundaries into pieces near the target', () => {
    // Prepare
    const paragraphs = ['a', 'b', 'c', 'd', 'e'].map((tag) => paragraph(150, tag));
    const markdown = `## Long\n\n${paragraphs.join('\n\n')}`;

    // Act
    const chunks = chunkMarkdown(markdown, { title: 'T', sizes: { targetTokens: 350, maxTokens: 512 } });

    // Assess: "## Long" (3 tokens) rides with the first paragraph; two paragraphs fit under 350, three do not.
    expect(chunks.map((c) => ({ index: c.chunkIndex, hierarchy: c.headingHierarchy, tokens: c.tokenCount }))).toEqual([
      { index: 0, hierarchy: ['T', 'Long'], tokens: 303 },
      { index: 1, hierarchy: ['T', 'Long'], tokens: 300 },
      { index: 2, hierarchy: ['T', 'Long'], tokens: 150 },
    ]);
    expect(chunks.map((c) => c.chunkText).join('\n\n')).toBe(markdown);
  });

  it('folds a small last piece into the one before it when both fit in the maximum', () => {
    // Prepare
    const markdown = `${paragraph(300, 'a')}\n\n${paragraph(300, 'b')}\n\n${paragraph(20, 'c')}`;

    // Act
    const chunks = chunkMarkdown(markdown, { title: 'T', sizes: { targetTokens: 350, maxTokens: 512 } });

    // Assess
    expect(chunks.map((c) => c.tokenCount)).toEqual([300, 320]);
  });

  it('cuts a single paragraph over the maximum at sentence ends', () => {
    // Prepare: 60 sentences of 10 tokens = 600 tokens in one paragraph; the header "T" takes 1 token of each limit.
    const text = sentences(60, 'p');

    // Act
    const chunks = chunkMarkdown(text, { title: 'T', sizes: { targetTokens: 101, maxTokens: 151 } });

    // Assess
    expect(chunks.map((c) => c.tokenCount)).toEqual([100, 100, 100, 100, 100, 100]);
    expect(chunks.every((c) => c.chunkText.endsWith('.'))).toBe(true);
    expect(chunks.map((c) => c.chunkText).join(' ')).toBe(text);
  });

  it('cuts text with no sentence or line breaks between tokens without losing any', () => {
    // Prepare
    const text = paragraph(700, 'x');

    // Act: the header "T" takes 1 token of each limit
    const chunks = chunkMarkdown(text, { title: 'T', sizes: { targetTokens: 301, maxTokens: 401 } });

    // Assess
    expect(chunks.map((c) => c.tokenCount)).toEqual([300, 300, 100]);
    expect(chunks.map((c) => c.chunkText).join(' ')).toBe(text);
  });

  it('never produces a chunk over the maximum, whatever the mix of blocks', () => {
    // Prepare
    const code = ['```python', ...Array.from({ length: 80 }, (_, i) => `x${i} = call(${i})`), '```'].join('\n');
    const markdown = `## Mixed\n\n${sentences(45, 'a')}\n\n${code}\n\n${paragraph(90, 'b')}\n\n${paragraph(1200, 'c')}`;

    // Act
    const chunks = chunkMarkdown(markdown, { title: 'T', sizes: { targetTokens: 200, maxTokens: 256 } });

    // Assess
    expect(chunks.filter((c) => c.tokenCount > 256)).toEqual([]);
    expect(chunks.map((c) => c.chunkIndex)).toEqual(chunks.map((_, i) => i));
    expect(chunks.every((c) => c.tokenCount === countTokens(c.chunkText))).toBe(true);
    expect(chunks.reduce((sum, c) => sum + c.tokenCount, 0)).toBe(countTokens(markdown));
  });

  it('gives a page of components alone its title as its one chunk, so the page is in the index', () => {
    const markdown = "# Index\n\nimport DocCardList from '@theme/DocCardList';\n\n<DocCardList />\n";
    expect(chunkMarkdown(markdown, { title: 'Index' }).map((c) => [c.headingHierarchy, c.chunkText])).toEqual([
      [['Index'], 'Index'],
    ]);
  });

  it('returns no chunks for a page with no text', () => {
    expect(chunkMarkdown('# Title only\n\n', { title: 'Title only' })).toEqual([]);
  });

  it('refuses a target larger than the maximum', () => {
    expect(() => chunkMarkdown('text', { title: 'T', sizes: { targetTokens: 600, maxTokens: 512 } })).toThrow(
      'chunk sizes: need 0 < targetTokens <= maxTokens, got 600 and 512',
    );
  });
});

describe('the default chunk limit, in word-and-symbol tokens, header included', () => {
  // "## S" is 3 tokens (#, #, S); each "w" is one more. The header embedded with it, "T › S", is 3 more.
  const section = (tokens: number) => `## S\n\n${Array.from({ length: tokens - 3 }, () => 'w').join(' ')}`;

  it('keeps a section whole when it and its header make exactly 440 tokens', () => {
    expect(chunkMarkdown(section(437), { title: 'T' }).map((c) => c.tokenCount)).toEqual([437]);
  });

  it('splits a section when it and its header make 441 tokens', () => {
    expect(chunkMarkdown(section(438), { title: 'T' }).length).toBeGreaterThan(1);
  });

  it('counts a long header against the limit: 40 header tokens leave 400 for the text', () => {
    // Prepare: the header is 20 title words, "›" and 19 heading words; the section's text is "## " (2) plus words.
    const title = paragraph(20, 't');
    const heading = paragraph(19, 'h');
    const page = (textTokens: number) => `## ${heading}\n\n${paragraph(textTokens - 21, 'x')}`;
    const embedded = (chunks: ReturnType<typeof chunkMarkdown>) =>
      chunks.map((c) => countTokens(contextualHeader(c.headingHierarchy)) + c.tokenCount);

    // Act
    const whole = chunkMarkdown(page(400), { title });
    const split = chunkMarkdown(page(401), { title });

    // Assess
    expect(embedded(whole)).toEqual([440]);
    expect(split.length).toBe(2);
    expect(Math.max(...embedded(split))).toBeLessThanOrEqual(440);
  });
});

describe('countTokens on text with no tokens', () => {
  it('counts nothing in empty or blank text', () => {
    expect([countTokens(''), countTokens(' \n\t ')]).toEqual([0, 0]);
  });
});

describe('chunkMarkdown: what a page’s chunks hold', () => {
  const texts = (markdown: string, options: Parameters<typeof chunkMarkdown>[1] = { title: 'T' }) =>
    chunkMarkdown(markdown, options).map((c) => c.chunkText);
  const paths = (markdown: string, options: Parameters<typeof chunkMarkdown>[1] = { title: 'T', sizes: SEPARATE }) =>
    chunkMarkdown(markdown, options).map((c) => c.headingHierarchy);

  it('refuses a target of 0 or less, and takes a target equal to the maximum', () => {
    expect(() => chunkMarkdown('text', { title: 'T', sizes: { targetTokens: 0, maxTokens: 440 } })).toThrow(
      'chunk sizes: need 0 < targetTokens <= maxTokens, got 0 and 440',
    );
    expect(texts('Some text.', { title: 'T', sizes: { targetTokens: 300, maxTokens: 300 } })).toEqual(['Some text.']);
  });

  it('chunks a page written with Windows or old Mac line ends as the same page with \\n', () => {
    const lf = 'Intro.\n\n## Nodes\n\nA node is one process.\n\n## Topics\n\nA topic carries messages.';
    const options = { title: 'T', sizes: { targetTokens: 10, maxTokens: 440 } };
    const chunks = (markdown: string) => chunkMarkdown(markdown, options).map((c) => [c.headingHierarchy, c.chunkText]);
    expect(chunks(lf)).toEqual([
      [['T'], 'Intro.'],
      [['T', 'Nodes'], '## Nodes\n\nA node is one process.'],
      [['T', 'Topics'], '## Topics\n\nA topic carries messages.'],
    ]);
    expect(chunks(lf.replaceAll('\n', '\r\n'))).toEqual(chunks(lf));
    expect(chunks(lf.replaceAll('\n', '\r'))).toEqual(chunks(lf));
  });

  it('keeps one chunk per section with mergeSections false, however small they are', () => {
    const markdown = 'Intro.\n\n## Nodes\n\nA node.\n\n## Topics\n\nA topic.';
    expect(chunkMarkdown(markdown, { title: 'T', mergeSections: false }).map((c) => c.chunkText)).toEqual([
      'Intro.',
      '## Nodes\n\nA node.',
      '## Topics\n\nA topic.',
    ]);
    expect(texts(markdown)).toEqual([markdown]);
  });

  it('never merges a piece of a split section with the next small section', () => {
    // Prepare: "Long" (5 paragraphs of 50 tokens) is over the maximum and split; each piece stays under the target
    // with "Short" beside it, but a split section's pieces are closed.
    const long = [0, 1, 2, 3, 4].map((i) => paragraph(50, `p${i}x`)).join('\n\n');
    const markdown = `## Long\n\n${long}\n\n## Short\n\nFive tokens in here.`;

    // Act
    const chunks = chunkMarkdown(markdown, { title: 'T', sizes: { targetTokens: 101, maxTokens: 151 } });

    // Assess
    expect(chunks.map((c) => [c.headingHierarchy.at(-1), c.tokenCount])).toEqual([
      ['Long', 53],
      ['Long', 50],
      ['Long', 50],
      ['Long', 50],
      ['Long', 50],
      ['Short', 8],
    ]);
  });

  it('does not repeat in the text a heading the merged chunk’s header already names', () => {
    // Prepare: GPU's two sections fit the target together, the page does not (CPU is long).
    const markdown = `## GPU\n\n### Minimum\n\n12 GB.\n\n### Ideal\n\n24 GB.\n\n## CPU\n\n${paragraph(300, 'c')}`;

    // Act
    const [gpu] = chunkMarkdown(markdown, { title: 'W' });

    // Assess
    expect([gpu?.headingHierarchy, gpu?.embedHeader, gpu?.chunkText]).toEqual([
      ['W', 'GPU'],
      'W › GPU › Minimum · Ideal',
      '### Minimum\n\n12 GB.\n\n### Ideal\n\n24 GB.',
    ]);
  });

  it('merges sections with repeated headings under the path they really share', () => {
    const abA = chunkMarkdown('## A\n\nx.\n\n## B\n\ny.\n\n## A\n\nz.', { title: 'T' });
    expect(abA.map((c) => [c.headingHierarchy, c.embedHeader])).toEqual([[['T'], 'T › A · B']]);
    const twice = chunkMarkdown('## Example\n\nOne.\n\n## Example\n\nTwo.', { title: 'T' });
    expect(twice.map((c) => [c.headingHierarchy, c.chunkText])).toEqual([
      [['T', 'Example'], '## Example\n\nOne.\n\n## Example\n\nTwo.'],
    ]);
  });

  it('keeps two sections of the same heading apart when they do not fit the target together', () => {
    const markdown = `## Example\n\n${paragraph(200, 'a')}\n\n## Example\n\n${paragraph(200, 'b')}`;
    expect(chunkMarkdown(markdown, { title: 'T' }).map((c) => [c.headingHierarchy, c.tokenCount])).toEqual([
      [['T', 'Example'], 203],
      [['T', 'Example'], 203],
    ]);
  });

  it('writes back every empty heading above a section, each once, and no empty sibling', () => {
    expect(texts('Intro.\n\n## A\n\n### B\n\n#### C\n\nText.')).toEqual(['Intro.\n\n## A\n\n### B\n\n#### C\n\nText.']);
    expect(texts('Intro.\n\n## A\n\n## A\n\n### B\n\nText.')).toEqual(['Intro.\n\n## A\n\n### B\n\nText.']);
    expect(texts('Intro.\n\n## Empty\n\n## Full\n\nBody.')).toEqual(['Intro.\n\n## Full\n\nBody.']);
  });

  it('reads the headings after a code block, whatever fence closes it', () => {
    // A fence closes on its own mark repeated at least as often, alone on its line (indented or with trailing spaces);
    // a shorter mark, another mark, or a mark with an info string does not close it.
    const fences = [
      '```\nx = 1\n# a comment\n```',
      '```bash\n# one\n```   ',
      '````\n```\n# inner\n````',
      '~~~\n# one\n```\n# two\n~~~',
      '```\n```js\n# inner\n  ```',
    ];
    for (const code of fences)
      expect(paths(`## Setup\n\n${code}\n\n## Next\n\nText.`)).toEqual([
        ['T', 'Setup'],
        ['T', 'Next'],
      ]);
  });

  it('keeps a section whose only text is a code block, even an empty one', () => {
    expect(texts('## Output\n\n```\n```')).toEqual(['## Output\n\n```\n```']);
  });

  it('takes a level-1 heading for the title only before anything else, not after text or another heading', () => {
    expect(paths('  \n# Real title\n\nText.')).toEqual([['T']]);
    const apart = { title: 'T', sizes: { targetTokens: 5, maxTokens: 440 } };
    expect(paths('Intro.\n\n# Part two\n\nText.', apart)).toEqual([['T'], ['T', 'Part two']]);
    expect(paths('## A\n\n# B\n\nText.', apart)).toEqual([['T', 'B']]);
  });

  it('collapses blank and space-only lines between blocks to one blank line, and trims them at a chunk’s ends', () => {
    expect(texts('  \nPara one.\n   \n\n \t\nPara two.\n  ')).toEqual(['Para one.\n   \nPara two.']);
    expect(texts('## Empty\n   \n## Full\n\nText.')).toEqual(['## Full\n\nText.']);
  });

  it('keeps blank lines inside a code block as written', () => {
    expect(texts('```python\na = 1\n\n\nb = 2\n```')).toEqual(['```python\na = 1\n\n\nb = 2\n```']);
  });

  it('drops MDX imports and exports, with or without a semicolon, and keeps code and prose that mention them', () => {
    const markdown = [
      "import Tabs from '@theme/Tabs'",
      "import TabItem from  '@theme/TabItem';  ",
      'export  const meta = { draft: true };',
      'export default function Layout() {}',
      'Intro.',
      "To use tabs, import Tabs from '@theme/Tabs'",
      'import your notes from "Obsidian" in two steps.',
      'Modules export default functions.',
      '```js',
      "import Tabs from '@theme/Tabs';",
      '```',
    ].join('\n\n');
    expect(texts(markdown)).toEqual([
      [
        'Intro.',
        "To use tabs, import Tabs from '@theme/Tabs'",
        'import your notes from "Obsidian" in two steps.',
        'Modules export default functions.',
        "```js\n\nimport Tabs from '@theme/Tabs';\n\n```",
      ].join('\n\n'),
    ]);
  });
});

describe('chunkMarkdown: MDX statements over several lines', () => {
  const texts = (markdown: string) => chunkMarkdown(markdown, { title: 'T' }).map((c) => c.chunkText);
  it('drops a whole multi-line import or export, up to the blank line that ends it, as MDX reads it', () => {
    const markdown = [
      'import {',
      '  Tabs,',
      '  TabItem,',
      "} from '@theme/Tabs';",
      'import * as Icons from "./icons";',
      '',
      'export const toc = [',
      "  { value: 'Setup', id: 'setup', level: 2 },",
      '];',
      '',
      'export {',
      '  toc as contents,',
      '};',
      '',
      'Intro after the statements.',
      '',
      'export default function Layout({ children }) {',
      '  return <main>{children}</main>;',
      '}',
      '',
      'Closing words.',
    ].join('\n');
    expect(texts(markdown)).toEqual(['Intro after the statements.\n\nClosing words.']);
  });

  it('ends a statement at a heading when the blank line is missing, so no section is lost', () => {
    const chunks = chunkMarkdown('export const meta = {\n  draft: true,\n};\n## Setup\n\nInstall it.', { title: 'T' });
    expect(chunks.map((c) => [c.headingHierarchy, c.chunkText])).toEqual([[['T', 'Setup'], '## Setup\n\nInstall it.']]);
  });

  it('keeps prose lines that start with the words import or export', () => {
    const markdown = 'import\ndata from CSV files, then\nexport constants as JSON.\n\nexport the results.';
    expect(texts(markdown)).toEqual([markdown]);
  });
});

describe('chunkMarkdown: splitting a section over the maximum', () => {
  // The intro's header is "T", one token: these sizes leave 100 tokens of target and 150 of maximum for its text.
  const SIZES = { targetTokens: 101, maxTokens: 151 };
  const counts = (markdown: string) => chunkMarkdown(markdown, { title: 'T', sizes: SIZES }).map((c) => c.tokenCount);
  const blocks = (...sizes: number[]) => sizes.map((n, i) => paragraph(n, `p${i}x`)).join('\n\n');

  it('keeps a paragraph of exactly the maximum whole', () => {
    expect(counts(blocks(150, 10))).toEqual([150, 10]);
  });

  it('starts no empty chunk when the first paragraph is over the target', () => {
    expect(counts(blocks(120, 30, 30))).toEqual([120, 60]);
  });

  it('folds a last piece under a quarter of the target into the one before it, only when both fit the maximum', () => {
    expect(counts(blocks(100, 100, 24))).toEqual([100, 124]);
    expect(counts(blocks(100, 100, 25))).toEqual([100, 100, 25]);
    expect(counts(blocks(60, 60, 129, 21))).toEqual([60, 60, 150]);
    expect(counts(blocks(60, 60, 130, 21))).toEqual([60, 60, 130, 21]);
  });

  it('cuts a paragraph at sentence ends, not at the target’s token, when sentences do not add up to it', () => {
    // Prepare: 30 sentences of 7 tokens; 14 of them (98 tokens) fit the target.
    const text = Array.from({ length: 30 }, (_, s) => `${paragraph(6, `s${s}w`)}.`).join('  ');

    // Act
    const chunks = chunkMarkdown(text, { title: 'T', sizes: SIZES });

    // Assess: the last 2 sentences (14 tokens) are folded into the second piece.
    expect(chunks.map((c) => c.tokenCount)).toEqual([98, 112]);
    expect(chunks.every((c) => c.chunkText.endsWith('.') && c.chunkText === c.chunkText.trim())).toBe(true);
  });

  it('cuts a block of lines at line ends and keeps its line breaks', () => {
    // Prepare: 30 lines of 6 tokens in one code block (187 tokens with its fences).
    const code = ['```python', ...Array.from({ length: 30 }, (_, i) => `x${i} = call(${i})`), '```'].join('\n');

    // Act
    const chunks = chunkMarkdown(code, { title: 'T', sizes: SIZES });

    // Assess
    expect(chunks.map((c) => c.tokenCount)).toEqual([100, 87]);
    expect(chunks.map((c) => c.chunkText).join('\n')).toBe(code);
  });

  it('cuts a paragraph of two long lines at the line break first', () => {
    // Prepare: two lines of 9 sentences of 10 tokens (90 tokens each).
    const line = (tag: string) => Array.from({ length: 9 }, (_, s) => `${paragraph(9, `${tag}${s}w`)}.`).join(' ');
    const text = `${line('a')}\n${line('b')}`;

    // Act
    const chunks = chunkMarkdown(text, { title: 'T', sizes: SIZES });

    // Assess
    expect(chunks.map((c) => c.chunkText)).toEqual([line('a'), line('b')]);
  });

  it('never splits a code block at a blank line inside it, and splits at blank or space-only lines outside', () => {
    // Prepare: a code block of 126 tokens (within the maximum, over the target) with a blank line inside, then
    // paragraphs after a space-only line.
    const code = ['```', paragraph(60, 'c'), '', paragraph(60, 'd'), '```'].join('\n');
    const markdown = `${code}\n\n${paragraph(60, 'e')}\n  \n${paragraph(60, 'f')}`;

    // Act
    const chunks = chunkMarkdown(markdown, { title: 'T', sizes: SIZES });

    // Assess
    expect(chunks.map((c) => c.chunkText)).toEqual([code, paragraph(60, 'e'), paragraph(60, 'f')]);
  });

  it('keeps the line breaks of the last block of a split section', () => {
    const list = Array.from({ length: 5 }, (_, i) => `- item${i} ${paragraph(4, `i${i}w`)}`).join('\n');
    const chunks = chunkMarkdown(`${paragraph(130, 'a')}\n\n${list}`, { title: 'T', sizes: SIZES });
    expect(chunks.map((c) => c.chunkText)).toEqual([paragraph(130, 'a'), list]);
  });

  it('cuts text of an exact multiple of the target into full pieces, with no empty one', () => {
    const text = paragraph(600, 'x');
    const chunks = chunkMarkdown(text, { title: 'T', sizes: { targetTokens: 301, maxTokens: 401 } });
    expect(chunks.map((c) => c.chunkText)).toEqual([
      paragraph(600, 'x').split(' x300 ')[0],
      `x300 ${text.split(' x300 ')[1]}`,
    ]);
  });
});
