/** suite generate: how a heading becomes a question (list numbering left out) and which sections are asked first. */
import { describe, expect, it } from 'vitest';
import { type BookPage, generateSuite } from '../../../functions/core/suite/generate-suite.ts';

const URL = 'https://book.example.org/docs/arm/setup';

/** One page whose sections are headed as given, each with text of its own, asked about up to `perPage` times. */
function questions(headings: string[], perPage = 20): string[] {
  const page: BookPage = {
    url: URL,
    chapterId: 'arm/setup',
    moduleName: 'Arm',
    title: 'Setup',
    sections: headings.map((h, i) => ({ headings: [h], text: `Section ${i} explains its step in detail.` })),
  };
  const suite = generateSuite([page], { perPage });
  return (suite.queries as { category: string; query_text: string }[])
    .filter((q) => q.category === 'known-item')
    .map((q) => q.query_text);
}

describe('suite generate: a heading as a reader says it', () => {
  it('leaves list numbering of every form out of the question', () => {
    expect(
      questions([
        '10.2 Tune the loop',
        '1.10 Wire the motors',
        '3 Calibrate the sensors',
        'a) Choose the board',
        '(12) Mount the camera',
        'Step 12: Flash the firmware',
        'Step 4 : Check the joints',
        '1.  Install the driver',
      ]).sort(),
    ).toEqual(
      [
        'What about Tune the loop in Setup?',
        'What about Wire the motors in Setup?',
        'What about Calibrate the sensors in Setup?',
        'What about Choose the board in Setup?',
        'What about Mount the camera in Setup?',
        'What about Flash the firmware in Setup?',
        'What about Check the joints in Setup?',
        'What about Install the driver in Setup?',
      ].sort(),
    );
  });

  it('keeps a name that ends in a number, which is no list numbering', () => {
    expect(questions(['ROS2 Launch Files'])).toEqual(['What about ROS2 Launch Files in Setup?']);
  });
});

describe('suite generate: the most distinctive section first', () => {
  const common = 'The robot controller software drives every joint of the robot.';
  const other = (n: number): BookPage => ({
    url: `https://book.example.org/docs/arm/other-${n}`,
    chapterId: `arm/other-${n}`,
    moduleName: 'Arm',
    title: `Other page ${n}`,
    sections: [{ headings: [`Other topic ${n}`], text: common }],
  });
  const first = (sections: BookPage['sections']) => {
    const page: BookPage = { url: URL, chapterId: 'arm/setup', moduleName: 'Arm', title: 'Setup', sections };
    const suite = generateSuite([page, other(1), other(2), other(3)], { perPage: 1 });
    return (suite.queries as { query_text: string; expected_chapter?: string }[]).find(
      (q) => q.expected_chapter === 'arm/setup',
    )?.query_text;
  };

  it('asks about the section whose words the rest of the book uses least, wherever it stands in the page', () => {
    expect(
      first([
        { headings: ['Controller basics'], text: common },
        { headings: ['Joint overview'], text: common },
        { headings: ['Strain gauge hysteresis'], text: 'Strain gauges drift with hysteresis after overload.' },
      ]),
    ).toBe('What about Strain gauge hysteresis in Setup?');
  });

  it('asks about the first in page order of two equally distinctive sections', () => {
    expect(
      first([
        { headings: ['Controller basics'], text: common },
        { headings: ['Joint overview'], text: common },
      ]),
    ).toBe('What about Controller basics in Setup?');
    expect(
      first([
        { headings: ['Joint overview'], text: common },
        { headings: ['Controller basics'], text: common },
      ]),
    ).toBe('What about Joint overview in Setup?');
  });
});

describe('suite generate: query ids', () => {
  it('numbers on the ids of pages whose chapters make the same slug, never reusing one', () => {
    const page = (chapterId: string, n: number): BookPage => ({
      url: `https://book.example.org/docs/arm/${n}`,
      chapterId,
      moduleName: 'Arm',
      title: 'Setup',
      sections: [{ headings: [`Wiring step ${n}`], text: 'Wire the motor to the driver board.' }],
    });
    const suite = generateSuite([page('arm/a b', 1), page('arm/a-b', 2), page('arm/a_b', 3)], { perPage: 1 });
    expect(
      (suite.queries as { id: string; category: string }[]).filter((q) => q.category === 'known-item').map((q) => q.id),
    ).toEqual(['arm-a-b-1', 'arm-a-b-1-2', 'arm-a-b-1-3']);
  });
});

describe('suite generate: what a question expects and asks', () => {
  const only = (page: BookPage) =>
    (generateSuite([page], { perPage: 5 }).queries as Record<string, unknown>[]).filter(
      (q) => q.category === 'known-item',
    );

  it('expects no module of a page outside every module, rather than an empty one', () => {
    const [query] = only({
      url: 'https://book.example.org/docs/privacy',
      chapterId: 'privacy',
      moduleName: '',
      title: 'Privacy policy',
      sections: [{ headings: ['Cookies we set'], text: 'The site sets one cookie for the theme.' }],
    });
    expect(query).toBeDefined();
    expect(query && 'expected_module' in query).toBe(false);
  });

  it('asks a sentence of exactly 18 words whole, even when its last word would lead on after a cut', () => {
    // Prepare: 18 words, ending on "on" (a word that leads on when a longer sentence is cut there).
    const sentence =
      'Every wheel encoder reports raw ticks that the odometry node integrates into a pose the planner relies on';
    expect(sentence.split(' ')).toHaveLength(18);
    const texts = only({
      url: 'https://book.example.org/docs/odometry',
      chapterId: 'odometry',
      moduleName: 'Navigation',
      title: 'Odometry',
      sections: [{ headings: [], text: `${sentence}.` }],
    }).map((q) => q.query_text);
    expect(texts).toContain(`Where is it explained that ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}?`);
  });
});

describe('suite generate: which section is most distinctive, and in what order questions come', () => {
  const filler = (n: number, text: string): BookPage => ({
    url: `https://book.example.org/docs/drive/page-${n}`,
    chapterId: `drive/page-${n}`,
    moduleName: 'Drive',
    title: `Drive page ${n}`,
    sections: [{ headings: [`Drive topic ${n}`], text }],
  });

  /** `page` among six filler pages: three hold the four common drive-train terms, three hold other words. */
  const amongFillers = (page: BookPage): BookPage[] => {
    const shared = 'Gearbox pulley sprocket chain.';
    return [page, filler(1, shared), filler(2, shared), filler(3, shared), filler(4, 'Wheels turn.')].concat(
      filler(5, 'Motors spin.'),
      filler(6, 'Batteries charge.'),
    );
  };

  it('weighs a section by the mean rarity of its terms, so one rare term beats four common ones', () => {
    // Prepare: 7 pages. "Hysteresis" is on this page only (rarity ln 8 = 2.08); the four terms of the other section
    // are on 4 pages (ln 2 = 0.69 each): 2.08 for one term against 0.69 x 4 / sqrt(4) = 1.39.
    const page: BookPage = {
      url: URL,
      chapterId: 'arm/setup',
      moduleName: 'Arm',
      title: 'Setup',
      sections: [
        { headings: ['Drive train parts'], text: 'Gearbox pulley sprocket chain.' },
        { headings: ['Bearing behaviour'], text: 'Hysteresis.' },
      ],
    };
    const pages = amongFillers(page);

    // Act
    const suite = generateSuite(pages, { perPage: 1 });

    // Assess
    const asked = (suite.queries as { query_text: string; expected_chapter?: string }[]).find(
      (q) => q.expected_chapter === 'arm/setup',
    );
    expect(asked?.query_text).toBe('What about Bearing behaviour in Setup?');
  });

  it('asks last about a section with no term of four letters or more, even when it comes first', () => {
    const page: BookPage = {
      url: URL,
      chapterId: 'arm/setup',
      moduleName: 'Arm',
      title: 'Setup',
      sections: [
        { headings: ['Quick note'], text: 'Go on, it is ok.' },
        { headings: ['Drive train parts'], text: 'Gearbox pulley sprocket chain.' },
      ],
    };
    const pages = amongFillers(page);
    const asked = (generateSuite(pages, { perPage: 1 }).queries as { query_text: string; expected_chapter?: string }[])
      .filter((q) => q.expected_chapter === 'arm/setup')
      .map((q) => q.query_text);
    expect(asked).toEqual(['What about Drive train parts in Setup?']);
  });

  it('asks the title, the best heading, the best sentence, then the other headings, then the other sentences', () => {
    // Prepare: two sections with headings, two without (their questions come from their sentences).
    const page: BookPage = {
      url: URL,
      chapterId: 'arm/setup',
      moduleName: 'Arm',
      title: 'Robot localisation',
      sections: [
        { headings: ['Wheel odometry'], text: 'Robot localisation starts from wheel ticks.', chunkId: 'c1' },
        { headings: ['Sensor fusion'], text: 'A filter fuses the odometry with the inertial unit.', chunkId: 'c2' },
        { headings: [], text: 'The planner reads the fused pose at fifty hertz.', chunkId: 'c3' },
        { headings: [], text: 'Drift grows slowly when the wheels slip on gravel.', chunkId: 'c4' },
      ],
    };

    // Act
    const queries = (generateSuite([page], { perPage: 10 }).queries as Record<string, unknown>[]).filter(
      (q) => q.category === 'known-item',
    );

    // Assess
    const from = queries.map((q) => String(q.description).replace(/^.*, from /, ''));
    expect(from.map((f) => f.replace(/ ".*"$/, ''))).toEqual([
      'the page title',
      'the heading',
      'a sentence of the section',
      'the heading',
      'a sentence of the section',
    ]);
    // A sentence question counts its page and its chunk relevant, nothing more.
    expect(queries[2]?.relevant).toEqual([
      { url: URL, grade: 2 },
      { chunk_id: expect.stringMatching(/^c[34]$/), grade: 3 },
    ]);
  });
});
