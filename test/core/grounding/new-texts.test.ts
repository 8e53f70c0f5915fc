/**
 * Readings added so the gate carries to texts it was not tuned on (docs/GROUNDING.md, "Carrying to new texts"): each on
 * a faithful rewording it must pass and a wrong claim beside it that it must still catch, with its switch.
 */
import { describe, expect, it } from 'vitest';
import { assessAnswerClaims } from '../../../functions/core/grounding/assess-claims.ts';
import { baseStem, extractClaimTerms } from '../../../functions/core/grounding/claim-terms.ts';
import { splitSentences } from '../../../functions/core/grounding/grounding.ts';
import { polarityConflicts } from '../../../functions/core/grounding/polarity.ts';
import { statedNumbers, statedQuantities } from '../../../functions/core/grounding/quantities.ts';
import {
  ALL_SUPPORT_FEATURES,
  assessClaim,
  collectEvidence,
  DEFAULT_MIN_WORD_SUPPORT,
  MAX_ACRONYM_LETTERS,
  spellsOut,
} from '../../../functions/core/grounding/support.ts';

const ON = { anywhere: true, ellipsis: true, absence: true, particles: true, sharedDenial: true };
const OFF = { ...ON, sharedDenial: false };

describe('a denial shared at another word of the clause', () => {
  it.each([
    [
      'Since humanoids have no wheel odometry, most of them localize using cameras.',
      'Wheel odometry is not available, so most humanoids localise with cameras.',
    ],
    [
      'Neither bzip2 nor bunzip2 overwrites a file by default.',
      'bzip2 and bunzip2 will by default not overwrite existing files.',
    ],
    [
      'Masses and inertias are fine for visualization but not for simulation or control.',
      'For visualisation only, masses and inertias can be rough. For simulation and control they cannot.',
    ],
    ['You cannot time bulk fermentation by the clock.', 'Bulk fermentation ends by judgment rather than by the clock.'],
  ])('agrees: %s', (claim, evidence) => {
    expect(polarityConflicts(claim, [evidence], ON)).toEqual([]);
    expect(polarityConflicts(claim, [evidence], OFF)).not.toEqual([]);
  });

  it('still catches a claim that drops the denial, on either side', () => {
    expect(
      polarityConflicts('Wheel odometry is available on humanoids.', ['Wheel odometry is not available.'], ON),
    ).toEqual(['avail / not avail']);
    expect(
      polarityConflicts(
        'bzip2 will by default overwrite existing files.',
        ['bzip2 will by default not overwrite existing files.'],
        ON,
      ),
    ).not.toEqual([]);
    expect(
      polarityConflicts('bzip2 does not overwrite existing files.', ['bzip2 overwrites existing files.'], ON),
    ).not.toEqual([]);
  });

  it('reads a subordinate clause as its own: "cannot form until kneaded" is no shared denial of "form without kneading"', () => {
    const evidence = 'During the rest gluten begins to form without any kneading.';
    expect(polarityConflicts('During the rest gluten cannot form until the dough is kneaded.', [evidence], ON)).toEqual(
      expect.arrayContaining(['knead / not knead']),
    );
    // The same denial in the main clause, the kneading no longer in a clause of its own: the two agree.
    expect(polarityConflicts('During the rest gluten does not need kneading to form.', [evidence], ON)).toEqual([]);
  });
});

describe('a contraction written without its apostrophe', () => {
  const evidence = 'Snapshots do not block reads or writes.';
  it.each(['dont', 'doesnt', 'isnt', 'cant', 'wont', 'shouldnt'])('"%s" denies as its contraction does', (bare) => {
    const claim = `Snapshots ${bare} block reads or writes.`;
    expect(polarityConflicts(claim, [evidence], { ...ON, bareContractions: true })).toEqual([]);
    expect(polarityConflicts(claim, [evidence], ON)).toEqual(['block / not block']);
  });

  it('is read only with its switch, and is no content word', () => {
    const reading = { ...ON, bareContractions: true };
    expect(polarityConflicts('Snapshots dont block reads.', [evidence], reading)).toEqual([]);
    expect(
      polarityConflicts('Snapshots dont block reads.', [evidence], { ...reading, bareContractions: false }),
    ).toEqual(['block / not block']);
    expect(polarityConflicts('Snapshots dont block reads.', ['Snapshots block reads.'], reading)).toEqual([
      'not block / block',
    ]);
    expect(extractClaimTerms('Snapshots dont block reads').words.map((w) => w.word)).toEqual([
      'Snapshots',
      'block',
      'reads',
    ]);
  });
});

describe('words of absence', () => {
  const reading = { ...ON, bareContractions: true };
  it.each([
    ['The pipeline drops silence before transcribing.', 'Only utterances, not silence, are sent to the model.'],
    ['It discards silence before transcribing.', 'Only utterances, not silence, are sent to the model.'],
    ['Keep the loaf out of closed plastic bags.', 'Store it on a board, not in a sealed plastic bag.'],
    ['Keep the model away from control loops.', 'Call the model from the planner, never inside a control loop.'],
  ])('agree with a denial: %s', (claim, evidence) => {
    expect(polarityConflicts(claim, [evidence], reading)).toEqual([]);
    expect(polarityConflicts(claim, [evidence], { ...reading, absence: false })).not.toEqual([]);
  });

  it('make ABSENCE_REACH (2) content words absent, not a third', () => {
    const evidence = 'Never put it in plastic bags.';
    expect(polarityConflicts('Keep it out of sealed plastic bags.', [evidence], reading)).toEqual([]);
    expect(polarityConflicts('Keep it out of big sealed plastic bags.', [evidence], reading)).toEqual([
      'plastic / not plastic',
    ]);
  });
});

describe('acronyms', () => {
  const evidence = collectEvidence(['Run HeronDB inside a Linux virtual machine if you must use a Windows host.']);
  const names = (claim: string, acronyms = true) =>
    assessClaim({
      claim,
      evidence,
      minWordSupport: DEFAULT_MIN_WORD_SUPPORT,
      features: { ...ALL_SUPPORT_FEATURES, acronyms },
    }).missing_names;

  it('are found where the cited text spells them out, and only with the switch', () => {
    expect(names('Use a Linux VM on a Windows host.')).toEqual([]);
    expect(names('Use Linux VMs on a Windows host.')).toEqual([]);
    expect(names('Use a Linux VM on a Windows host.', false)).toEqual(['VM']);
    expect(names('Use a Linux VPS on a Windows host.')).toEqual(['VPS']);
  });

  it('are spelled out by whole words, in order, from two to MAX_ACRONYM_LETTERS (5) letters', () => {
    expect(MAX_ACRONYM_LETTERS).toBe(5);
    expect(spellsOut('VM', 'a revival machine')).toBe(false);
    expect(spellsOut('MV', 'a virtual machine')).toBe(false);
    expect(spellsOut('WAL', 'the write-ahead log')).toBe(true);
    expect(spellsOut('ABCDE', 'alpha beta charlie delta echo')).toBe(true);
    expect(spellsOut('ABCDEF', 'alpha beta charlie delta echo foxtrot')).toBe(false);
    expect(spellsOut('A', 'alpha')).toBe(false);
    expect(spellsOut('Vm', 'virtual machine')).toBe(false);
  });
});

describe('a dash between two numbers', () => {
  const evidence = [
    'The shaped loaf goes into a banneton for the final proof. The final proof can last 1 to 3 hours, or overnight in the refrigerator.',
  ];
  const claim = 'Proof the loaf for 1–3 hours or overnight in the fridge.';
  it('is a range inside its clause, not a break between two', () => {
    expect(polarityConflicts(claim, evidence, { numbers: true, dashRanges: true })).toEqual([]);
    expect(polarityConflicts(claim, evidence, { numbers: true })).not.toEqual([]);
    // With a space on either side, or both, an en or em dash between numbers is still a range.
    for (const dash of ['1 – 3', '1 —3', '1– 3'])
      expect(polarityConflicts(claim.replace('1–3', dash), evidence, { numbers: true, dashRanges: true })).toEqual([]);
  });

  it('between words still ends a clause', () => {
    // Were it no break, "not" would reach "essential" (the second content word after it) and deny it.
    const text = ['Steam is essential for the crust.'];
    expect(polarityConflicts('Steam is not harmful — essential for the crust.', text, { dashRanges: true })).toEqual(
      [],
    );
    expect(polarityConflicts('Steam is not harmful, essential for the crust.', text, { dashRanges: true })).toEqual([]);
    expect(polarityConflicts('Steam is not harmful essential for the crust.', text, { dashRanges: true })).toEqual([
      'not essenti / essenti',
    ]);
  });
});

describe('a sentence that states a word both ways', () => {
  const evidence = ['ROS 2, the Robot Operating System, is not an operating system.'];
  it('is read in its clause closest to the claim’s', () => {
    const on = { closestClause: true };
    expect(polarityConflicts('ROS 2, the Robot Operating System, is an operating system.', evidence, on)).toEqual([
      'oper / not oper',
    ]);
    expect(polarityConflicts('ROS 2, the Robot Operating System, is an operating system.', evidence, {})).toEqual([]);
    expect(polarityConflicts('ROS 2, the Robot Operating System, is no operating system.', evidence, on)).toEqual([]);
  });

  it('is left as it is when two of its clauses restate the claim’s equally well', () => {
    const on = { closestClause: true };
    const both = ['ROS is not an operating system, Linux is an operating system.'];
    // Each clause shares "operating system" and has one word of its own: neither decides.
    expect(polarityConflicts('It is an operating system.', both, on)).toEqual([]);
    // "ROS" picks the first, "Linux" the second.
    expect(polarityConflicts('ROS is an operating system.', both, on)).toEqual(['oper / not oper']);
    expect(polarityConflicts('Linux is not an operating system.', both, on)).toEqual(['not oper / oper']);
  });
});

describe('a setting on or off', () => {
  const evidence = ['WAL archiving is off by default and must be enabled with backup.wal_archive.'];
  const on = { onOff: true };
  it('fails a claim that states the other state', () => {
    expect(polarityConflicts('WAL archiving is on by default.', evidence, on)).toEqual(['on / off']);
    expect(polarityConflicts('WAL archiving is on by default.', evidence, {})).toEqual([]);
    expect(polarityConflicts('WAL archiving stays off.', evidence, on)).toEqual([]);
    expect(polarityConflicts('WAL archiving is turned on', ['WAL archiving is switched off.'], on)).toEqual([
      'on / off',
    ]);
  });

  it('reads a state only after a verb of state, at the clause’s end or before "by default", outside a condition', () => {
    expect(polarityConflicts('WAL archiving is on the disk by default.', evidence, on)).toEqual([]);
    expect(polarityConflicts('WAL archiving on by default.', evidence, on)).toEqual([]);
    expect(polarityConflicts('WAL archiving is on by choice.', evidence, on)).toEqual([]);
    expect(polarityConflicts('Recovery only works if WAL archiving was switched on.', evidence, on)).toEqual([]);
    // A sentence that states both states leaves the claim alone.
    const both = ['WAL archiving is off by default and metrics are on by default.'];
    expect(polarityConflicts('WAL archiving is on by default.', both, on)).toEqual([]);
  });
});

describe('words of absence against an antonym', () => {
  it('leave the absent word out of the antonym comparison', () => {
    const evidence = ['Its acidity slows the staling of the crumb.'];
    const claim = 'Its acidity keeps the crumb fresh.';
    const reading = { absence: true };
    expect(polarityConflicts(claim, ['Its acidity slows staling of the crumb.'], reading)).toEqual([]);
    expect(polarityConflicts(claim, evidence, reading)).toEqual([]);
    expect(polarityConflicts(claim, ['Its acidity speeds the staling of the crumb.'], reading)).toEqual([
      'fresh / stale',
    ]);
  });
});

describe('a number in another clause of its sentence', () => {
  const evidence = [
    'Alert when p99 write latency stays above 50 ms for 5 minutes, or when any shard stays under-replicated for more than 15 minutes.',
  ];
  const on = { numbers: true, numbersInClause: true };

  it('fails a claim whose clause takes it from a clause that restates it less well', () => {
    const claim = 'Alert when p99 write latency stays above 50 ms for 15 minutes.';
    expect(polarityConflicts(claim, evidence, on)).toEqual(['15 / 50 5']);
    expect(polarityConflicts(claim, evidence, { numbers: true })).toEqual([]);
    expect(polarityConflicts('Alert when p99 write latency stays above 50 ms for 5 minutes.', evidence, on)).toEqual(
      [],
    );
    expect(polarityConflicts('Alert when a shard stays under-replicated for 15 minutes.', evidence, on)).toEqual([]);
  });

  it('leaves a clause that sums up two, or that holds every number of its closest clause', () => {
    const proof = [
      'The final proof can last 1 to 3 hours at room temperature, or it can be done overnight in the refrigerator for 8 to 16 hours.',
    ];
    // "proof ... hours" and "overnight ... hours": the clause that holds 1 and 3 restates it as well as the other.
    expect(polarityConflicts('Proof it 1 to 3 hours or overnight in the fridge.', proof, on)).toEqual([]);
    // The closest clause's numbers (50, 5) are all the claim's: a summary of both clauses.
    const both = 'Alert when p99 write latency stays above 50 ms for 5 minutes or 15 minutes.';
    expect(polarityConflicts(both, evidence, on)).toEqual([]);
  });
});

describe('irregular forms', () => {
  it('read a word as its base form where the stemmer leaves them apart', () => {
    expect(baseStem('lost')).toBe('lose');
    expect(baseStem('loses')).toBe('lose');
    expect(baseStem('held')).toBe('hold');
    expect(baseStem('indices')).toBe('index');
    expect(baseStem('walking')).toBe('walk');
    // A key of Object's prototype is no form.
    expect(baseStem('constructor')).toBe('constructor');
  });

  it('find a content word for the word share, only with the switch', () => {
    const evidence = collectEvidence(['When tracking is lost, the robot should stop.']);
    const words = (features: Partial<typeof ALL_SUPPORT_FEATURES> = {}) =>
      assessClaim({
        claim: 'If the robot loses tracking, it stops.',
        evidence,
        minWordSupport: DEFAULT_MIN_WORD_SUPPORT,
        features: { ...ALL_SUPPORT_FEATURES, ...features },
      }).missing_words;
    expect(words()).toEqual([]);
    expect(words({ irregularForms: false })).toEqual(['loses']);
  });

  it('count for the better chunk as for the cited one', () => {
    const text = 'The robot lost tracking.';
    const citations = [{ start: 0, end: text.length - 1, text: text.slice(0, -1), document_ids: ['a'] }];
    const assess = (irregularForms: boolean) =>
      assessAnswerClaims({
        text,
        sentences: splitSentences(text),
        citations,
        claimedRanges: citations,
        chunkTexts: { a: 'The robot keeps tracking.', b: 'The robot loses tracking.' },
        minWordSupport: DEFAULT_MIN_WORD_SUPPORT,
        features: { ...ALL_SUPPORT_FEATURES, irregularForms },
      })[0];
    // "b" holds all three words ("loses" for "lost"), "a" two: the claim restates "b" and cites "a".
    expect(assess(true)?.better_chunk).toEqual({ chunk_id: 'b', word_support: 1 });
    expect(assess(false)?.better_chunk).toBeUndefined();
  });

  it('never excuse a name', () => {
    const evidence = collectEvidence(['The robot ran the planner.']);
    expect(assessClaim({ claim: 'The robot used Run.', evidence, minWordSupport: 0 }).missing_names).toEqual(['Run']);
  });
});

describe('an acronym in the word share', () => {
  it('is found where the text spells it out, only with the switch', () => {
    const evidence = collectEvidence(['Run HeronDB inside a Linux virtual machine.']);
    const words = (acronyms: boolean) =>
      assessClaim({
        claim: 'Use a Linux VM.',
        evidence,
        minWordSupport: 0,
        features: { ...ALL_SUPPORT_FEATURES, acronyms },
      }).missing_words;
    expect(words(true)).toEqual([]);
    expect(words(false)).toEqual(['VM']);
  });
});

describe('a number joined to its unit by a hyphen', () => {
  it('is a quantity, in digits or in words', () => {
    expect(statedQuantities('in 30-second windows')).toEqual([
      { raw: '30', number: '30', value: 30, dimension: 'time', unit: 'second' },
    ]);
    expect(statedQuantities('in thirty-second windows')).toEqual([
      { raw: 'thirty', number: '30', value: 30, dimension: 'time', unit: 'second' },
    ]);
    expect(statedNumbers('a five-minute rest, twenty-five items, a one-time fee')).toEqual(['5', '25']);
    // "one" alone is ambiguous, so only a unit makes it a number: "a one-hour proof" is one.
    expect(statedNumbers('a one-hour proof')).toEqual(['1']);
  });

  it('fails a claim that changes it, and passes one that spells it out', () => {
    const evidence = collectEvidence(['Whisper processes audio in 30-second windows.']);
    const check = (claim: string) => assessClaim({ claim, evidence, minWordSupport: DEFAULT_MIN_WORD_SUPPORT });
    expect(check('Whisper processes audio in thirty-second windows.').supported).toBe(true);
    expect(check('Whisper processes audio in thirteen-second windows.').missing_numbers).toEqual(['13']);
  });
});
