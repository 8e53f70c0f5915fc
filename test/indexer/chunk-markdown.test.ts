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
