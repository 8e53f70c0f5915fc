/**
 * The edges of the lexical gate's readings that their mutants asked for (docs/TESTING.md, "Mutation"): figures'
 * labels and ranges, the ellipsis, words of absence, particles, hedges, ties in the alignment, numbers in place,
 * prefix antonyms, number words joined, ranges' shared units, and converted temperatures. Each case says what it pins.
 */
import { describe, expect, it } from 'vitest';
import { exchangedFigures, movedRanges } from '../../../functions/core/grounding/figures.ts';
import { polarityConflicts } from '../../../functions/core/grounding/polarity.ts';
import { sameQuantity, statedNumbers, statedQuantities } from '../../../functions/core/grounding/quantities.ts';

const on = { anywhere: true, ellipsis: true, absence: true, particles: true };

describe('figures: labels and ranges', () => {
  it('reads the evidence leniently: a lone "one" there is a number', () => {
    expect(
      exchangedFigures('The arm count is 1 and the robot count is 2.', ['The arm count is 2, the robot count one.']),
    ).toEqual(['arm 1, robot 2 / arm 2, robot 1']);
    expect(movedRanges('It takes 1 to 3 tries.', ['It takes one to three tries.'])).toEqual([]);
  });

  it("drops a possessive's ending from a label", () => {
    const yaml = 'robot radius: 0.35\ninflation radius: 0.6';
    expect(exchangedFigures("The inflation's radius is 0.35 and the robot's radius 0.6.", [yaml])).toEqual([
      'inflat 0.35, robot 0.6 / inflat 0.6, robot 0.35',
    ]);
  });

  it('reads "between ... and" only with "and" alone between the two, spaces aside', () => {
    const bulk = 'It takes four to six hours.';
    expect(movedRanges('It takes between 2 and then 6 hours.', [bulk])).toEqual([]);
    expect(movedRanges('It takes between 2  and  6 hours.', [bulk])).toEqual(['2 to 6 / 4 to 6']);
  });

  it('compares unitless ends by number, and an end with a unit against one without by number only', () => {
    expect(movedRanges('It takes 2 to 3 tries.', ['It takes 2 to 3 tries.'])).toEqual([]);
    expect(movedRanges('It takes 2 to 3.', ['It takes 2 to 4 hours.'])).toEqual(['2 to 3 / 2 to 4']);
  });

  it('lists every range the evidence states', () => {
    expect(movedRanges('It takes 2 to 3 hours.', ['It takes 4 to 6 hours, or 8 to 10 in winter.'])).toEqual([
      '2 to 3 / 4 to 6, 8 to 10',
    ]);
  });
});

describe('the ellipsis', () => {
  const robot = 'A wheeled base executes a twist directly. A humanoid cannot.';

  it('reads every form of the cue, a curly apostrophe too', () => {
    for (const cue of ['does not.', 'never.', "can't.", 'can’t.', 'cannot.'])
      expect(
        polarityConflicts(
          'A humanoid executes a twist directly.',
          [`A wheeled base executes a twist directly. A humanoid ${cue}`],
          on,
        ),
        cue,
      ).toEqual(['humanoid execut / humanoid not execut']);
    expect(polarityConflicts('A humanoid can’t execute a twist directly.', [robot], on)).toEqual([]);
  });

  it('is no denial after "or" one or two words back ("or not", "may or may not")', () => {
    for (const tail of ['A humanoid or not.', 'A humanoid may or may not.'])
      expect(
        polarityConflicts(
          'A humanoid executes a twist directly.',
          [`A wheeled base executes a twist directly. ${tail}`],
          on,
        ),
        tail,
      ).toEqual([]);
  });

  it('looks for "or" only one or two words before the cue', () => {
    expect(
      polarityConflicts(
        'A humanoid executes a twist directly.',
        ['A wheeled base executes a twist directly. A humanoid or a big biped cannot.'],
        on,
      ),
    ).toEqual(['humanoid execut / humanoid not execut']);
  });

  it('needs a clause before it', () => {
    expect(
      polarityConflicts('A humanoid executes twists directly.', ['A humanoid cannot. Twists run directly.'], on),
    ).toEqual([]);
  });

  it('takes as its subject the words the clause before lacks, and a claim naming any one of them', () => {
    const text = 'The big robot walks fast on stairs. The small robot cannot.';
    expect(polarityConflicts('The small robot walks fast on stairs.', [text], on)).toEqual([
      'small walk / small not walk',
    ]);
    expect(polarityConflicts('The big robot walks fast on stairs.', [text], on)).toEqual([]);
    const legacy =
      'Newer releases can correctly decompress concatenated files. Legacy builds cannot do this; they stop early.';
    expect(polarityConflicts('Legacy versions can correctly decompress concatenated files.', [legacy], on)).toEqual([
      'legaci correctli / legaci not correctli',
    ]);
  });

  it('is denied by the head of a negation, even when the head is not a word of the predicate', () => {
    expect(polarityConflicts('A humanoid never executes anything like a twist directly.', [robot], on)).toEqual([]);
  });
});

describe('words of absence', () => {
  it('are read apart per reading: the same text with and without them', () => {
    const text = 'The redesign eliminates the single point of failure.';
    expect(polarityConflicts('There is no single point of failure.', [text], { absence: true })).toEqual([]);
    expect(polarityConflicts('There is no single point of failure.', [text], { absence: false })).toEqual([
      'not singl / singl',
    ]);
  });

  it('leave a plain mention alone, on the evidence side too', () => {
    expect(
      polarityConflicts('There is a single point of failure.', ['It eliminates the single point of failure.'], on),
    ).toEqual([]);
  });

  it('are the two-word ones only as a pair: "a piece of dough" is no absence', () => {
    expect(polarityConflicts('A piece of dough is needed.', ['No dough is needed.'], on)).toEqual([
      'dough / not dough',
    ]);
    expect(polarityConflicts('Rather slow loops run.', ['Slow loops run.'], on)).toEqual([]);
  });
});

describe('particles', () => {
  it('count after the verb only', () => {
    const text = 'They tolerate an acidity that would stop most other microbes.';
    expect(
      polarityConflicts('They tolerate an acidity that far out keeps most other microbes alive.', [text], on),
    ).toEqual(['keep / stop']);
  });
});

describe('hedges and alignment', () => {
  it('hold a categorical claim to a hedge on two shared words, not one', () => {
    expect(polarityConflicts('The model will fail.', ['The model may fail.'], on)).toEqual(['will / may (model fail)']);
    expect(polarityConflicts('The model will crash.', ['The model may fail.'], on)).toEqual([]);
  });

  it('leave a claim alone when the evidence clause is categorical too', () => {
    expect(polarityConflicts('The model will fail.', ['The model may always fail.'], on)).toEqual([]);
  });

  it('leave a claim that hedges too', () => {
    expect(
      polarityConflicts('The model may always fail on the robot.', ['The model may fail on the robot camera.'], on),
    ).toEqual([]);
  });

  it('keep a conflict that holds against every sentence tied for the clause', () => {
    expect(
      polarityConflicts(
        'The node does not start quickly.',
        ['The node starts quickly. The node starts quickly on boot.'],
        on,
      ),
    ).toEqual(['not start / start']);
  });

  it('find a number in place when any sentence tied for the clause states it', () => {
    expect(
      polarityConflicts(
        'The robot team moved 3 labs.',
        ['The robot team moved 3 labs. The robot team moved labs again.'],
        on,
      ),
    ).toEqual([]);
  });

  it('give a leading clause’s numbers to the clause after it, and say when the aligned sentence has none', () => {
    // Lowercase: after a capital, a number is a name's version ("ROS 2") and left alone.
    const text = 'The robot team moved the lab. The budget grew in 2020.';
    expect(polarityConflicts('in 2020, the robot team moved the lab.', [text], on)).toEqual(['2020 / no number']);
  });
});

describe('the scope of a negation', () => {
  it('counts content words only, and the second word under the cue belongs to its head', () => {
    // "never uses the GPU": "the" takes no place in the scope, so the GPU is denied with "uses"; the claim does not
    // share "uses", so its GPU is held against a denied one.
    expect(polarityConflicts('The node runs on the GPU.', ['The node never uses the GPU.'], on)).toEqual([
      'gpu / not gpu',
    ]);
  });
});

describe('prefix antonyms', () => {
  it('need four letters of stem on both sides', () => {
    const locked = 'The config file is locked by the server.';
    const unlocked = 'The config file is unlocked by the server.';
    expect(polarityConflicts(locked, [unlocked], on)).toEqual(['lock / unlock']);
    expect(polarityConflicts(unlocked, [locked], on)).toEqual(['unlock / lock']);
    expect(
      polarityConflicts('The config value is put by the server.', ['The config value is input by the server.'], on),
    ).toEqual([]);
  });
});

describe('number words', () => {
  it.each([
    ['twenty five nodes', ['25']],
    ['twenty-one nodes', ['21']],
    ['twenty ten nodes', ['20', '10']],
    ['zero five nodes', ['0', '5']],
    ['ten five nodes', ['10', '5']],
    ['twenty two five nodes', ['22', '5']],
    ['one hundred twelve nodes', ['112']],
    ['one hundred fifty twenty nodes', ['150', '20']],
    ['two  hundred nodes', ['200']],
    ['one hundred and  forty nodes', ['140']],
    ['a five-star node', []],
  ])('"%s" reads %j', (text, numbers) => {
    expect(statedNumbers(text)).toEqual(numbers);
  });

  it('joins "hundred hundred" into no larger number', () => {
    expect(statedNumbers('hundred hundred', { lenient: true })).toEqual(['100', '100']);
  });

  it('keeps the words of a joined number as its quantity’s raw text', () => {
    expect(statedQuantities('It needs two hundred GB of disk.')[0]?.raw).toBe('two hundred');
  });
});

describe('ranges share a unit, and temperatures convert to the degree', () => {
  it('gives the second number’s unit to the first only when the first has none and the second has one', () => {
    expect(statedQuantities('from 5 GB to 10').map((q) => `${q.raw} ${q.unit}`)).toEqual(['5 GB']);
    expect(statedQuantities('5 MB to 10 GB').map((q) => `${q.raw} ${q.unit}`)).toEqual(['5 MB', '10 GB']);
  });

  it('allows one degree across scales, and none within one', () => {
    const [f212] = statedQuantities('212 °F');
    const [c99] = statedQuantities('99 °C');
    const [c96] = statedQuantities('96 °C');
    const [c97] = statedQuantities('97 °C');
    if (!f212 || !c99 || !c96 || !c97) throw new Error('no quantity read');
    expect(sameQuantity(f212, c99)).toBe(true);
    expect(sameQuantity(c96, c97)).toBe(false);
  });
});
