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
