/**
 * Three readings of issue 22's fourth round (docs/GROUNDING.md, "Round four (session gprec)"): a number that counts the
 * items the claim lists itself, a month written in another of its forms, and a synonym in a common sense. Each on a faithful rewording it must pass
 * and a wrong claim beside it that it must still catch, with its switch, and the edges of each reading. Sentences made
 * up for these tests, not taken from the evaluation set.
 */
import { describe, expect, it } from 'vitest';
import { extractClaimTerms, synonymIndex, synonymStems } from '../../../functions/core/grounding/claim-terms.ts';
import {
  ALL_SUPPORT_FEATURES,
  assessClaim,
  collectEvidence,
  DEFAULT_MIN_WORD_SUPPORT,
  listCounts,
  MAX_COUNTED_HEAD_WORDS,
  namesMonth,
  type SupportFeatures,
  spellsOut,
} from '../../../functions/core/grounding/support.ts';

const check = (claim: string, chunk: string, features: Partial<SupportFeatures> = {}) =>
  assessClaim({
    claim,
    evidence: collectEvidence([chunk]),
    minWordSupport: DEFAULT_MIN_WORD_SUPPORT,
    features: { ...ALL_SUPPORT_FEATURES, ...features },
  });

describe('a number that counts the claim’s own list', () => {
  const chunk = 'The starter kit ships with a breadboard, jumper wires, a resistor pack and a USB cable.';

  it('passes a count the cited text does not state, when the claim lists that many items', () => {
    const claim = 'The starter kit ships with four parts: a breadboard, jumper wires, a resistor pack and a USB cable.';
    expect(check(claim, chunk)).toMatchObject({ supported: true, missing_numbers: [] });
    expect(check(claim, chunk, { listCounts: false })).toMatchObject({ supported: false, missing_numbers: ['4'] });
  });

  it('still catches a count its own list does not bear out, and an item the text does not list', () => {
    expect(
      check(
        'The starter kit ships with five parts: a breadboard, jumper wires, a resistor pack and a USB cable.',
        chunk,
      ),
    ).toMatchObject({ supported: false, missing_numbers: ['5'] });
    expect(
      check(
        'The starter kit ships with four parts: a breadboard, jumper wires, a resistor pack and an Arduino.',
        chunk,
      ),
    ).toMatchObject({ supported: false, missing_names: ['Arduino'] });
  });

  it.each([
    ['three error codes: 4012, 4013 and 4020', ['3']],
    ['two modes: fast or safe', ['2']],
    ['Two flags, then: --quiet, --verbose', []],
    ['3 ports: 80, 443, 8080', ['3']],
    ['four keys: host for the name, port for the number, user and password', ['4']],
    ['2 options: on; off', []],
    ['two steps: knead.', []],
    ['two files: a.txt and b.txt', ['2']],
    ['two things:', []],
    ['It ran for two hours: too long.', []],
    ['I keep two cats and a dog.', []],
    ['3 ports: 80,443,8080', ['3']],
    ['three modes: fast, safe, and slow', ['3']],
    ['three modes: fast, safe,, slow', ['3']],
    ['three modes: fast, , safe, slow', ['3']],
    ['1 rule: never push', []],
    ['It ships ROS 2 packages: rclpy and rclcpp', []],
    ['Module 2 topics: perception and planning', []],
    ['The version 2 features: speed and safety', []],
    ['Since v2 features: speed and safety', []],
    ['it adds two features: speed and safety', ['2']],
    ['Two features: speed and safety', ['2']],
    ['2 rules: never push', []],
  ])('counts %j as %j', (text, counted) => {
    expect([...listCounts(text)]).toEqual(counted);
  });

  it(`reads a head of up to ${MAX_COUNTED_HEAD_WORDS} words between the number and the colon, not more`, () => {
    expect([...listCounts('three very small plastic parts: a, b and c')]).toEqual(['3']);
    expect([...listCounts('three very small grey plastic parts: a, b and c')]).toEqual([]);
    expect([...listCounts('two parts: a and b')]).toEqual(['2']);
  });
});

describe('a month in another of its forms', () => {
  it('finds "September" where the text writes "Sept." or "Sep", and the reverse', () => {
    const claim = 'Version 2 was released in September 2021.';
    expect(check(claim, 'In Sept. 2021 version 2 was released.')).toMatchObject({ supported: true });
    expect(check(claim, 'Released: Sep 2021 (version 2).')).toMatchObject({ supported: true });
    expect(check(claim, 'In Sept. 2021 version 2 was released.', { monthNames: false })).toMatchObject({
      supported: false,
      missing_names: ['September'],
    });
    expect(check('Support ends in Nov 2026.', 'Support ends in November 2026.')).toMatchObject({ supported: true });
  });

  it('counts the month as a word found too, in any one of the texts given', () => {
    const evidence = collectEvidence(['Version 2 came out.', 'In Sept. 2021 it was released.']);
    const verdict = assessClaim({ claim: 'Version 2 was released in September 2021.', evidence, minWordSupport: 1 });
    expect(verdict).toMatchObject({ supported: true, missing_words: [], missing_names: [] });
    const off = assessClaim({
      claim: 'Version 2 was released in September 2021.',
      evidence,
      minWordSupport: 0,
      features: { ...ALL_SUPPORT_FEATURES, monthNames: false },
    });
    expect(off.missing_words).toEqual(['September']);
  });

  it('still catches another month', () => {
    expect(check('Version 2 was released in October 2021.', 'In Sept. 2021 version 2 was released.')).toMatchObject({
      supported: false,
      missing_names: ['October'],
    });
  });

  it.each([
    ['September', 'In Sept. 2018', true],
    ['Sept', 'in September', true],
    ['Jan', 'from January on', true],
    ['March', 'troops mar the lawn', false],
    ['March', 'since Mar 2020', true],
    ['June', 'Junebug', false],
    ['May', 'it may fail', false],
    ['sept', 'In Sept. 2018', false],
    ['September', 'in October', false],
  ])('%s in %j: %s', (word, text, found) => {
    expect(namesMonth(word, text)).toBe(found);
  });
});

describe('a synonym in a common sense (the word share only)', () => {
  const chunk = 'Each station provides abundant shade and essential water for hikers.';
  const claim = 'Every stop supplies plentiful cover and indispensable drinks to walkers.';

  it('finds a content word as its synonym, and only with the switch on', () => {
    const on = check(claim, chunk);
    const off = check(claim, chunk, { synonyms: false });
    expect(off.missing_words).toEqual(['stop', 'supplies', 'plentiful', 'cover', 'indispensable', 'drinks', 'walkers']);
    expect(on.missing_words).toEqual(['stop', 'cover', 'drinks', 'walkers']);
    expect(on).toMatchObject({ supported: true });
    expect(off).toMatchObject({ supported: false });
  });

  it('excuses no number, name or polarity', () => {
    expect(
      check('Each station supplies 3 bottles of water.', 'Each station provides 2 bottles of water.'),
    ).toMatchObject({
      supported: false,
      missing_numbers: ['3'],
    });
    expect(check('Each station does not supply water.', 'Each station provides water.').polarity_conflicts).not.toEqual(
      [],
    );
  });

  it('indexes each group by stem, both ways, never a word to itself', () => {
    const index = synonymIndex([
      ['begin', 'start'],
      ['start', 'commence', 'starting'],
    ]);
    expect([...(index.get('start') ?? [])]).toEqual(['begin', 'commenc']);
    expect([...(index.get('begin') ?? [])]).toEqual(['start']);
    expect([...(index.get('commenc') ?? [])]).toEqual(['start']);
    expect(index.size).toBe(3);
  });

  it('joins words in a frequent sense only, and by stem both ways', () => {
    expect(synonymStems('suppli')).toContain('provid');
    expect(synonymStems('provid')).toContain('suppli');
    expect(synonymStems('quick')).toContain('fast');
    expect(synonymStems('requir')).toContain('necessari');
    // "run" and "bleed" share a synset in a rare sense (of colours); "begin" is not its own synonym.
    expect(synonymStems('run')).not.toContain('bleed');
    expect(synonymStems('begin')).not.toContain('begin');
    expect(synonymStems('qwertyuiop').size).toBe(0);
  });
});

describe('the support check’s other findings, each alone (edges the mutants asked for)', () => {
  it('fails a claim on a quantity alone, and passes a number converted to another unit', () => {
    expect(check('The cache holds 16 MB in all.', 'The cache holds 16 GB in all.')).toMatchObject({
      supported: false,
      missing_quantities: ['16 MB'],
      missing_numbers: [],
      polarity_conflicts: [],
    });
    expect(check('One step lasts 1000 ms here.', 'One step lasts a second here.')).toMatchObject({
      supported: true,
      missing_numbers: [],
      missing_quantities: [],
    });
  });

  it('leaves number words and units out of the content words, when they are read as such', () => {
    const words = (numberWords: boolean, units: boolean) =>
      extractClaimTerms('Five gigabytes of memory', { numberWords, units }).words.map((w) => w.word);
    expect(words(true, true)).toEqual(['memory']);
    expect(words(true, false)).toEqual(['gigabytes', 'memory']);
    expect(words(false, true)).toEqual(['Five', 'memory']);
  });

  it('checks a claim given as terms (an uncited sentence) on its terms alone', () => {
    const verdict = assessClaim({
      claim: extractClaimTerms('Nodes exchange messages over topics.'),
      evidence: collectEvidence(['Nodes exchange messages over topics.']),
      minWordSupport: DEFAULT_MIN_WORD_SUPPORT,
    });
    expect(verdict).toMatchObject({ supported: true, missing_quantities: [], polarity_conflicts: [] });
  });

  it('reads an acronym in capitals only, and in any one of the texts given', () => {
    expect(spellsOut('iOS', 'the input output system')).toBe(false);
    // Only a plural "s" at the end is set aside.
    expect(spellsOut('MsC', 'a master course')).toBe(false);
    expect(spellsOut('MCs', 'a master course')).toBe(true);
    expect(spellsOut('IOS', 'the input output system')).toBe(true);
    const evidence = collectEvidence(['A guest runs Linux.', 'It runs in a virtual machine.']);
    const verdict = assessClaim({ claim: 'It runs Linux in a VM here.', evidence, minWordSupport: 1 });
    expect(verdict).toMatchObject({ supported: true, missing_words: [], missing_names: [] });
  });
});
