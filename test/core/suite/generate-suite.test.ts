/** The known-item suite generated from the book: which questions each page yields, what each expects, the probes. */
import { describe, expect, it } from 'vitest';
import { type BookPage, generateSuite, PROBES } from '../../../functions/core/suite/generate-suite.ts';
import { validateSuite } from '../../../functions/core/suite/suite.ts';

const URL = 'https://book.example.org/docs/module1-ros2/nodes';

function page(overrides: Partial<BookPage> = {}): BookPage {
  return {
    url: URL,
    chapterId: 'module1-ros2/nodes',
    moduleName: 'Module 1 ROS 2',
    title: 'Nodes and Topics',
    sections: [
      { headings: ['Publishers'], text: 'A publisher sends messages on topics to every subscriber.', chunkId: 'c-1' },
      { headings: ['Subscribers'], text: 'A subscriber receives what the nodes publish.', chunkId: 'c-2' },
    ],
    ...overrides,
  };
}

type Query = Record<string, unknown>;
const queriesOf = (suite: Record<string, unknown>) => suite.queries as Query[];
const knownItems = (suite: Record<string, unknown>) => queriesOf(suite).filter((q) => q.category === 'known-item');
const texts = (suite: Record<string, unknown>) => knownItems(suite).map((q) => q.query_text);

describe('generateSuite', () => {
  it('writes a suite the project loads, with its defaults, benchmark metrics and a description of what it holds', () => {
    const suite = generateSuite([page()]);
    expect(() => validateSuite(suite, 'generated.json')).not.toThrow();
    expect(suite).toMatchObject({
      name: 'generated-known-item',
      description:
        'Known-item questions generated from 1 pages (2 per page at most) and 3 out-of-domain probes. Calibrate before use: ragwatch calibrate --suite <this file> --write',
      defaults: { top_k: 5, min_similarity: 0.5, category: 'known-item' },
      metrics: ['precision@5', 'recall@10', 'mrr', 'ndcg@10'],
    });
  });

  it('asks first about the page title when the page’s text uses a word of it', () => {
    const [first] = knownItems(generateSuite([page()]));
    expect(first).toEqual({
      id: 'module1-ros2-nodes-1',
      query_text: 'What is Nodes and Topics about?',
      category: 'known-item',
      description: `Known item: ${URL}, from the page title`,
      expected_module: 'Module 1 ROS 2',
      expected_chapter: 'module1-ros2/nodes',
      relevant: [{ url: URL, grade: 2 }],
    });
  });

  it('skips the title when its words of four letters or more are not in the page text', () => {
    const suite = generateSuite([page({ title: 'ROS Bits and Nodules' })]);
    expect(texts(suite)).toEqual([
      'What about Publishers in ROS Bits and Nodules?',
      'What about Subscribers in ROS Bits and Nodules?',
    ]);
  });

  it('matches a title word only as a whole word of the text', () => {
    const suite = generateSuite([
      page({ title: 'Topic Maps', sections: [{ headings: ['Naming'], text: 'Topics are named.' }] }),
    ]);
    expect(texts(suite)).toEqual(['What about Naming in Topic Maps?']);
  });

  it('asks about each section’s own heading, relevant at the section’s chunk too', () => {
    const [, second] = knownItems(generateSuite([page()]));
    expect(second).toEqual({
      id: 'module1-ros2-nodes-2',
      query_text: 'What about Publishers in Nodes and Topics?',
      category: 'known-item',
      description: `Known item: ${URL}, from the heading "Publishers"`,
      expected_module: 'Module 1 ROS 2',
      expected_chapter: 'module1-ros2/nodes',
      relevant: [
        { url: URL, grade: 2 },
        { chunk_id: 'c-1', grade: 3 },
      ],
    });
  });

  it('asks as many questions per page as told: the title, the most distinctive heading, body text, the rest', () => {
    const sections = [
      { headings: ['Overview'], text: 'Every node in the graph publishes its state on topics.' },
      { headings: ['Publishers'], text: 'p' },
      { headings: ['Subscribers'], text: 's' },
    ];
    const suite = generateSuite([page({ sections })], { perPage: 4 });
    expect(texts(suite)).toEqual([
      'What is Nodes and Topics about?',
      'What about Publishers in Nodes and Topics?',
      'Where is it explained that every node in the graph publishes its state on topics?',
      'What about Subscribers in Nodes and Topics?',
    ]);
    expect(knownItems(suite)[2]?.description).toBe(`Known item: ${URL}, from a sentence of the section`);
    expect(generateSuite([page({ sections })], { perPage: 1 }).queries).toHaveLength(1 + 3);
  });

  it.each([
    'Introduction',
    'overview',
    'Summary',
    'Conclusion',
    'Next steps',
    'Exercise',
    'Exercises',
    'Prerequisites',
    'Recap',
    "What's next",
    'References',
    'Further reading',
    ' Summary ',
  ])('asks from the first sentence under a heading that says nothing of its own: %s', (heading) => {
    const suite = generateSuite([
      page({ title: 'X', sections: [{ headings: [heading], text: 'Nodes talk over typed topics.' }] }),
    ]);
    expect(texts(suite)).toEqual(['Where is it explained that nodes talk over typed topics?']);
  });

  it('asks from the first sentence of a section without a heading', () => {
    const suite = generateSuite([
      page({ title: 'X', sections: [{ headings: [], text: 'Nodes talk over typed topics! More.' }] }),
    ]);
    expect(texts(suite)).toEqual(['Where is it explained that nodes talk over typed topics?']);
  });

  it('asks about the innermost heading of a section, with its parent when it is one word or generic', () => {
    const ask = (headings: string[]) =>
      texts(generateSuite([page({ title: 'X', sections: [{ headings, text: 't' }] })]));
    expect(ask(['Outer', 'Inner Loop'])).toEqual(['What about Inner Loop in X?']);
    expect(ask(['GPU (Critical Bottleneck)', 'Minimum'])).toEqual([
      'What about GPU (Critical Bottleneck) › Minimum in X?',
    ]);
    expect(ask(['Camera Rig', 'Overview'])).toEqual(['What about Camera Rig › Overview in X?']);
    expect(ask(['Overview', 'Minimum'])).toEqual(['What about Minimum in X?']);
    expect(ask(['Overview', 'Setup'])).toEqual([]);
  });

  it('asks nothing from a heading found on two or more pages, unless its parent tells the pages apart', () => {
    const two = (headings: string[], other: string[]) =>
      generateSuite([
        page({ url: 'https://b/docs/a', chapterId: 'a', title: 'A', sections: [{ headings, text: '' }] }),
        page({ url: 'https://b/docs/b', chapterId: 'b', title: 'B', sections: [{ headings: other, text: '' }] }),
      ]);
    expect(texts(two(['Module Structure'], ['Module Structure']))).toEqual([]);
    expect(texts(two(['Hardware Needs'], ['Hardware Needs']))).toEqual([]);
    const pathed = knownItems(two(['Workstation', 'Minimum'], ['Minimum']));
    expect(pathed.map((q) => q.query_text)).toEqual(['What about Workstation › Minimum in A?']);
    // The other page's section of the same heading is relevant too, at the lowest grade.
    expect(pathed[0]?.relevant).toEqual([
      { url: 'https://b/docs/a', grade: 2 },
      { url: 'https://b/docs/b', grade: 1 },
    ]);
  });

  it('asks no title question for a one-word, generic or shared title', () => {
    const titleOf = (title: string, others: string[] = []) =>
      knownItems(
        generateSuite([
          page({ title, sections: [{ headings: [], text: 'Publishers and subscribers talk over topics here.' }] }),
          ...others.map((t, i) =>
            page({
              url: `https://b/docs/${i}`,
              chapterId: `${i}`,
              title: t,
              sections: [{ headings: [], text: 'Other words entirely, nothing alike.' }],
            }),
          ),
        ]),
      ).find((q) => String(q.description).includes(URL))?.query_text;
    expect(titleOf('Publishers')).toBe('Where is it explained that publishers and subscribers talk over topics here?');
    expect(titleOf('Getting Started')).toBe(
      'Where is it explained that publishers and subscribers talk over topics here?',
    );
    expect(titleOf('Publishers and Topics', ['Publishers and Topics'])).toBe(
      'Where is it explained that publishers and subscribers talk over topics here?',
    );
    expect(titleOf('Publishers and Topics')).toBe('What is Publishers and Topics about?');
  });

  it('drops list numbering from a heading and a title, and keeps their casing', () => {
    const ask = (title: string, heading: string) =>
      texts(generateSuite([page({ title, sections: [{ headings: [heading], text: '' }] })]));
    expect(ask('X', '1. Hardware Requirements')).toEqual(['What about Hardware Requirements in X?']);
    expect(ask('X', '2) hardware Requirements')).toEqual(['What about hardware Requirements in X?']);
    expect(ask('X', 'Step 3: Flash the Board')).toEqual(['What about Flash the Board in X?']);
    expect(ask('X', '**Bold** `Code` Heading')).toEqual(['What about Bold Code Heading in X?']);
    expect(ask('X', '3D Maps Today')).toEqual(['What about 3D Maps Today in X?']);
  });

  it('asks from the sentence the rest of the book says least, never one that leans on the one before', () => {
    const suite = generateSuite([
      page({
        title: 'X',
        sections: [
          {
            headings: [],
            text: 'It is rarely worth it at all. The robot moves. Lidar returns give the planner its costmap layers.',
          },
        ],
      }),
      page({
        url: 'https://b/docs/z',
        chapterId: 'z',
        title: 'Z',
        sections: [{ headings: [], text: 'The robot moves along.' }],
      }),
    ]);
    expect(knownItems(suite).find((q) => String(q.description).includes(URL))?.query_text).toBe(
      'Where is it explained that lidar returns give the planner its costmap layers?',
    );
  });

  it('asks nothing from a sentence under four words', () => {
    const suite = generateSuite([page({ title: 'X', sections: [{ headings: [], text: 'Too short here.' }] })]);
    expect(texts(suite)).toEqual([]);
  });

  it('asks from a sentence of exactly four words, and keeps at most its first 18 words', () => {
    const long = `${Array.from({ length: 25 }, (_, i) => `w${i}`).join(' ')}.`;
    const suite = generateSuite([
      page({
        title: 'X',
        sections: [
          { headings: [], text: 'Four words are enough.' },
          { headings: [], text: long },
        ],
      }),
    ]);
    expect(texts(suite)).toEqual([
      'Where is it explained that four words are enough?',
      `Where is it explained that ${Array.from({ length: 18 }, (_, i) => `w${i}`).join(' ')}?`,
    ]);
  });

  it('reads the prose only: code, headings, tables, markup, images and imports left out, inline markup unwrapped', () => {
    const text = [
      'import Tabs from "@theme/Tabs";',
      '# A heading',
      '```python',
      'print("code")',
      '```',
      '~~~',
      'echo "more code"',
      '~~~',
      '| a | b |',
      '<div>html</div>',
      '> quoted',
      '![diagram](img.png)',
      'The `ros2 run` command starts a [node](/docs/nodes) with **bold** and _italic_ words.',
    ].join('\n');
    const suite = generateSuite([page({ title: 'X', sections: [{ headings: [], text }] })]);
    expect(texts(suite)).toEqual([
      'Where is it explained that the ros2 run command starts a node with bold and italic words?',
    ]);
  });

  it('keeps an acronym or a name at the start of a question as written', () => {
    const suite = generateSuite([
      page({
        title: 'X',
        sections: [
          { headings: ['ROS 2 graphs'], text: '' },
          { headings: [], text: 'URDF files describe robots well.' },
          { headings: ['a lowercase heading'], text: '' },
        ],
      }),
    ]);
    expect(texts(suite)).toEqual([
      'What about ROS 2 graphs in X?',
      'Where is it explained that URDF files describe robots well?',
    ]);
    expect(
      texts(generateSuite([page({ title: 'X', sections: [{ headings: ['a lowercase heading'], text: '' }] })])),
    ).toEqual(['What about a lowercase heading in X?']);
    expect(
      texts(
        generateSuite([page({ title: 'X', sections: [{ headings: [], text: 'URDF files describe robots well.' }] })]),
      ),
    ).toEqual(['Where is it explained that URDF files describe robots well?']);
  });

  it('asks each question once: a repeated heading, a heading like the title, or a repeated sentence is skipped', () => {
    const sections = [
      { headings: ['Publishers'], text: 'a' },
      { headings: ['publishers!'], text: 'b' },
      { headings: ['Nodes and topics'], text: 'c' },
      { headings: [], text: 'Every node has a name.' },
      { headings: ['Summary'], text: 'Every node has a name!' },
    ];
    const suite = generateSuite([page({ title: 'Nodes and Topics', sections })], { perPage: 10 });
    expect(texts(suite)).toEqual([
      'What about Publishers in Nodes and Topics?',
      'Where is it explained that every node has a name?',
    ]);
  });

  it('orders the pages by URL, so the same book gives the same suite, and keeps ids unique', () => {
    const a = page({
      url: 'https://b/docs/a',
      chapterId: 'a',
      title: 'A',
      sections: [{ headings: ['One'], text: '' }],
    });
    const b = page({
      url: 'https://b/docs/b',
      chapterId: 'b',
      title: 'B',
      sections: [{ headings: ['Two'], text: '' }],
    });
    const c = page({
      url: 'https://b/docs/c',
      chapterId: 'c',
      title: 'C',
      sections: [{ headings: ['Six'], text: '' }],
    });
    expect(knownItems(generateSuite([c, a, b, a])).map((q) => q.id)).toEqual(['a-1', 'a-1-2', 'b-1', 'c-1']);
  });

  it('makes ids from the chapter, and from "page" when the chapter has no letter or digit', () => {
    const ids = (chapterId: string) => knownItems(generateSuite([page({ chapterId })])).map((q) => q.id);
    expect(ids('--Module 1/Ch_2--')).toEqual(['module-1-ch-2-1', 'module-1-ch-2-2']);
    expect(ids('//')).toEqual(['page-1', 'page-2']);
    expect(ids('x'.repeat(120))[0]).toBe('x'.repeat(100));
  });

  it('cuts a question at 1,000 characters', () => {
    const suite = generateSuite([page({ title: 'X', sections: [{ headings: ['h'.repeat(1200)], text: '' }] })]);
    expect((texts(suite)[0] as string).length).toBe(1000);
  });

  it('adds three out-of-domain probes by default, each expected to match nothing', () => {
    const probes = queriesOf(generateSuite([page()])).filter((q) => q.category === 'probe');
    expect(probes).toEqual(
      PROBES.slice(0, 3).map((text, i) => ({
        id: `probe-${i + 1}`,
        query_text: text,
        category: 'probe',
        description: 'Out-of-domain probe: must match nothing in the book',
        expect_match: false,
      })),
    );
  });

  it('adds as many probes as asked, at most five', () => {
    const count = (probes: number) =>
      queriesOf(generateSuite([page()], { probes })).filter((q) => q.category === 'probe').length;
    expect([count(0), count(5), count(9)]).toEqual([0, 5, 5]);
    expect(generateSuite([page()], { probes: 9, perPage: 1, name: 'mine' })).toMatchObject({
      name: 'mine',
      description: expect.stringMatching(
        /^Known-item questions generated from 1 pages \(1 per page at most\) and 5 out-of-domain probes\./,
      ),
    });
  });
});

describe('generateSuite: reading the page', () => {
  const sectionText = (text: string) =>
    texts(generateSuite([page({ title: 'X', sections: [{ headings: [], text }] })]));

  it('asks about the title when a word of four letters is in the text, not for shorter words', () => {
    const gait = generateSuite([
      page({ title: 'Gait Cycle', sections: [{ headings: ['Legs'], text: 'The gait repeats.' }] }),
    ]);
    expect(texts(gait)[0]).toBe('What is Gait Cycle about?');
    const short = generateSuite([
      page({ title: 'Use of ROS', sections: [{ headings: ['Legs'], text: 'The use of ROS.' }] }),
    ]);
    expect(texts(short)).toEqual(['What about Legs in Use of ROS?']);
  });

  it('matches a title word whatever its case, and at the start of a later section', () => {
    const suite = generateSuite([
      page({
        title: 'Gazebo Worlds',
        sections: [
          { headings: ['One'], text: 'Nodes' },
          { headings: ['Two'], text: 'gazebo runs the simulation' },
        ],
      }),
    ]);
    expect(texts(suite)[0]).toBe('What is Gazebo Worlds about?');
  });

  it('asks once about two headings that differ only in case', () => {
    const sections = [
      { headings: ['ROS nodes'], text: '' },
      { headings: ['ROS Nodes'], text: '' },
    ];
    expect(texts(generateSuite([page({ title: 'X', sections })], { perPage: 5 }))).toEqual([
      'What about ROS nodes in X?',
    ]);
  });

  it('keeps a heading that starts with an acronym as written, even with a capitalised word later', () => {
    expect(texts(generateSuite([page({ title: 'X', sections: [{ headings: ['ROS Nodes'], text: '' }] })]))).toEqual([
      'What about ROS Nodes in X?',
    ]);
  });

  it('reads a sentence across the lines it spans', () => {
    expect(sectionText('Nodes talk over\ntyped topics.')).toEqual([
      'Where is it explained that nodes talk over typed topics?',
    ]);
  });

  it('keeps a prose line holding a fence mark, a # or a | that does not start it', () => {
    expect(sectionText('C# and F# both run on .NET runtimes.')).toEqual([
      'Where is it explained that C# and F# both run on .NET runtimes?',
    ]);
    expect(sectionText('Markdown```fences open code blocks here.\nMore text follows after this line.')).toEqual([
      'Where is it explained that markdown`fences open code blocks here?',
    ]);
  });

  it('drops only the end punctuation of the sentence, all of it, and a space before it', () => {
    // A first word followed by a number is a name ("Version 2.0", "Week 3"): its casing is kept.
    expect(sectionText('Version 2.0 adds nodes to graphs.')).toEqual([
      'Where is it explained that Version 2.0 adds nodes to graphs?',
    ]);
    expect(sectionText('Nodes really do work well!!')).toEqual([
      'Where is it explained that nodes really do work well?',
    ]);
    expect(sectionText('Nodes talk over topics .')).toEqual(['Where is it explained that nodes talk over topics?']);
  });

  it('asks only whole sentences of one paragraph or list item, never a list, label or table row run together', () => {
    // Prepare: what real books hold around their prose (issue 23 §2, two public Docusaurus books)
    const text = [
      '**Weeks 6-7** | Physics-Based Robot Simulation',
      '',
      '- Week 3 Lesson 1: ROS 2 Architecture',
      '- Week 3 Lesson 2: Nodes and Packages',
      '',
      'By the end of this lesson, you will be able to:',
      '- Understand bipedal walking dynamics and balance',
      '',
      'If you are using the jest.config.js file:',
      '',
      '[compiler]: options/compiler',
      '',
      '- AI perception pipeline (object detection, segmentation',
    ].join('\n');

    // Act, Assess: none of it is a sentence
    expect(sectionText(text)).toEqual([]);
  });

  it('asks a sentence of a list item, and a sentence of a paragraph wrapped over lines', () => {
    expect(sectionText('- Gazebo simulates rigid bodies quickly.')).toEqual([
      'Where is it explained that gazebo simulates rigid bodies quickly?',
    ]);
    expect(sectionText('Gazebo simulates\nrigid bodies quickly.')).toEqual([
      'Where is it explained that gazebo simulates rigid bodies quickly?',
    ]);
  });

  it('keeps the capital of a name that opens the sentence: a word the book writes capitalised mid-sentence, never lower', () => {
    const book = (...paragraphs: string[]) =>
      texts(
        generateSuite(
          paragraphs.map((text, i) =>
            page({ url: `${URL}${i}`, chapterId: `c${i}`, title: 'X', sections: [{ headings: [], text }] }),
          ),
        ),
      );
    // "Gazebo" inside a sentence elsewhere, never "gazebo": a name.
    expect(book('Gazebo simulates rigid bodies quickly.', 'Robots are tested in Gazebo before hardware.')).toEqual([
      'Where is it explained that Gazebo simulates rigid bodies quickly?',
      'Where is it explained that robots are tested in Gazebo before hardware?',
    ]);
    // Written in lower case somewhere too, or capitalised only where a sentence opens: a common word, lowered.
    expect(book('Gazebo simulates rigid bodies quickly.', 'The garden has a gazebo in Gazebo Park.')[0]).toBe(
      'Where is it explained that gazebo simulates rigid bodies quickly?',
    );
    expect(book('Gazebo simulates rigid bodies quickly.', 'Gazebo runs the world. Robots walk.')[0]).toBe(
      'Where is it explained that gazebo simulates rigid bodies quickly?',
    );
    // Inside code or a path it is not the book's prose: "gazebo_ros" and `gazebo` do not make it a common word.
    expect(
      book('Gazebo simulates rigid bodies quickly.', 'Start it with `gazebo` from gazebo_ros in Gazebo mode.')[0],
    ).toBe('Where is it explained that Gazebo simulates rigid bodies quickly?');
  });

  it('keeps a first word with inner capitals as written: a name, whatever the rest of the book says', () => {
    expect(sectionText('JavaScript runs the build steps here.')).toEqual([
      'Where is it explained that JavaScript runs the build steps here?',
    ]);
    expect(sectionText('McKinsey writes reports about robots.')).toEqual([
      'Where is it explained that McKinsey writes reports about robots?',
    ]);
    // A title-case word followed by a word and a number is lowered; followed by the number itself, kept.
    expect(sectionText('Tests run 3 times a day.')).toEqual(['Where is it explained that tests run 3 times a day?']);
    expect(sectionText('Weeks 3 and 4 cover the nodes.')).toEqual([
      'Where is it explained that Weeks 3 and 4 cover the nodes?',
    ]);
  });

  it('asks no sentence that ends in inline code, and cuts a long one before code it would split or end on', () => {
    expect(sectionText('A default export will look like this: `new soundPlayer.default()`.')).toEqual([]);
    expect(sectionText('Set the option `isolatedModules` in the config file.')).toEqual([
      'Where is it explained that set the option isolatedModules in the config file?',
    ]);
    const words = Array.from({ length: 16 }, (_, i) => `w${i}`).join(' ');
    expect(sectionText(`${words} \`new Foo()\` and more words end here.`)).toEqual([
      `Where is it explained that ${words}?`,
    ]);
    expect(sectionText(`${words} w16 \`code\` and more words end here.`)).toEqual([
      `Where is it explained that ${words} w16?`,
    ]);
  });

  it('ends a cut sentence on a word that ends a thought, not on one that leads on to what was cut', () => {
    const words = Array.from({ length: 14 }, (_, i) => `w${i}`).join(' ');
    // Cut after "as the": back over both to "same".
    expect(sectionText(`${words} is the same as the one below it.`)).toEqual([
      `Where is it explained that ${words} is the same?`,
    ]);
    expect(sectionText(`${words} w14 w15 w16, which w18 w19.`)).toEqual([
      `Where is it explained that ${words} w14 w15 w16?`,
    ]);
    // Cut on "that," (its comma is not the word): back to w16.
    expect(sectionText(`${words} w14 w15 w16 that, w18 w19.`)).toEqual([
      `Where is it explained that ${words} w14 w15 w16?`,
    ]);
    // A cut of leading words alone keeps its first word rather than ask nothing.
    const leading = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 'about' : 'the')).join(' ');
    expect(sectionText(`${leading}.`)).toEqual(['Where is it explained that about?']);
  });

  it('cuts a long sentence before a bracket it would leave open', () => {
    const words = Array.from({ length: 16 }, (_, i) => `w${i}`).join(' ');
    expect(sectionText(`${words} (alpha beta gamma) end.`)).toEqual([`Where is it explained that ${words}?`]);
    expect(sectionText(`${words} w16 w17, w18 w19.`)).toEqual([`Where is it explained that ${words} w16 w17?`]);
  });

  it('never asks a sentence inside a code fence, and reads the prose after it as a paragraph of its own', () => {
    expect(sectionText('```\nThe code comment reads like a sentence here.\n```')).toEqual([]);
    expect(sectionText('~~~\nThe code comment reads like a sentence here.\n~~~')).toEqual([]);
    expect(sectionText('A label without a stop\n```\n```\nNext words end right here.')).toEqual([
      'Where is it explained that next words end right here?',
    ]);
    expect(sectionText('A label without a stop\n```\ncode\n```\nNext words end right here.')).toEqual([
      'Where is it explained that next words end right here?',
    ]);
  });

  it('ends a paragraph at a blank line, or a line of spaces, and never joins two', () => {
    expect(sectionText('First paragraph has no stop\n\nSecond paragraph ends right here.')).toEqual([
      'Where is it explained that second paragraph ends right here?',
    ]);
    expect(sectionText('First paragraph has no stop\n   \nSecond paragraph ends right here.')).toEqual([
      'Where is it explained that second paragraph ends right here?',
    ]);
  });

  it('leaves out quotes and link definitions, not a word that starts like import', () => {
    expect(sectionText('> A quoted line reads as a sentence here.')).toEqual([]);
    expect(sectionText('[ab]: https://example.com/path reads as a sentence.')).toEqual([]);
    expect(sectionText('importance of words is asked like any other.')).toEqual([
      'Where is it explained that importance of words is asked like any other?',
    ]);
  });

  it('reads each list item alone: bulleted, numbered past 9, indented', () => {
    expect(sectionText('- First item has no stop\n- Second item ends right here.')).toEqual([
      'Where is it explained that second item ends right here?',
    ]);
    expect(sectionText('12) Twelfth item ends right here.')).toEqual([
      'Where is it explained that twelfth item ends right here?',
    ]);
    expect(sectionText('  - Indented item ends right here.')).toEqual([
      'Where is it explained that indented item ends right here?',
    ]);
  });

  it('asks no sentence whose brackets do not close in order, and one whose brackets do', () => {
    expect(sectionText('A stray ) closes before it opens ( here.')).toEqual([]);
    expect(sectionText('A stray ] closes before it opens [ here.')).toEqual([]);
    expect(sectionText('The [bracket] holds words and ends here.')).toEqual([
      'Where is it explained that the [bracket] holds words and ends here?',
    ]);
  });

  it('keeps at least one word when every cut leaves a bracket open, and strips only a trailing run of commas', () => {
    const inside = Array.from({ length: 20 }, (_, i) => `w${i}`).join(' ');
    expect(sectionText(`(${inside}) end.`)).toEqual(['Where is it explained that (w0?']);
    const words = Array.from({ length: 18 }, (_, i) => `w${i}`);
    expect(sectionText(`${words.join(', ')},; tail words.`)).toEqual([
      `Where is it explained that ${words.join(', ')}?`,
    ]);
  });

  it('lowercases only a plain first word: not an acronym, nor a word before a number', () => {
    expect(sectionText('ROS 2 talks to Nodes over topics.')).toEqual([
      'Where is it explained that ROS 2 talks to Nodes over topics?',
    ]);
    expect(sectionText('Nodes talk to 3 robots at once.')).toEqual([
      'Where is it explained that nodes talk to 3 robots at once?',
    ]);
  });

  it('asks the sentence with the most distinctive terms, the first of two that tie', () => {
    expect(
      sectionText('Short line has four. The much longer second sentence holds many distinct content terms.'),
    ).toEqual(['Where is it explained that the much longer second sentence holds many distinct content terms?']);
    expect(sectionText('Alpha bravo charlie delta. Echoes foxtrot golfing hotels.')).toEqual([
      'Where is it explained that alpha bravo charlie delta?',
    ]);
  });

  it('does not count a space before the period as a word', () => {
    expect(sectionText('Too short here .')).toEqual([]);
  });

  it('makes one dash of a run of separators in an id', () => {
    expect(knownItems(generateSuite([page({ chapterId: 'module1//nodes' })]))[0]?.id).toBe('module1-nodes-1');
  });

  it('keeps pages with the same URL in the order given', () => {
    const one = page({ chapterId: 'one', title: 'A', sections: [{ headings: ['First'], text: '' }] });
    const two = page({ chapterId: 'two', title: 'B', sections: [{ headings: ['Second'], text: '' }] });
    expect(knownItems(generateSuite([one, two])).map((q) => q.id)).toEqual(['one-1', 'two-1']);
    expect(knownItems(generateSuite([two, one])).map((q) => q.id)).toEqual(['two-1', 'one-1']);
  });
});
