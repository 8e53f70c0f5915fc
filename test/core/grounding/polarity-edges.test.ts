/**
 * Edges of polarity.ts the mutation run found untested (docs/TESTING.md, "quantities.ts and polarity.ts each to
 * 90 %"): each case says what a reader of the claim and its chunk would expect.
 */
import { describe, expect, it } from 'vitest';
import { polarityConflicts } from '../../../functions/core/grounding/polarity.ts';

describe('a chunk read under two readings', () => {
  it('answers each reading of bare contractions on its own, whichever was read first', () => {
    const evidence = ['Standby replicas dont serve stale reads.'];
    const claim = 'Standby replicas serve stale reads.';
    expect(polarityConflicts(claim, evidence, { bareContractions: true })).toEqual(['serv / not serv']);
    expect(polarityConflicts(claim, evidence, { bareContractions: false })).toEqual([]);
  });

  it('answers each reading of dashes between numbers on its own, whichever was read first', () => {
    // As a range, "1–2" leaves "feedings" in the reach of "never"; as a break, it ends the clause before them.
    const evidence = ['A mature starter never needs 1–2 feedings a day.'];
    const claim = 'A mature starter gets feedings daily.';
    expect(polarityConflicts(claim, evidence, { dashRanges: true })).toEqual(['feed / not feed']);
    expect(polarityConflicts(claim, evidence, { dashRanges: false })).toEqual([]);
  });
});

describe('words that look like a denial', () => {
  it('does not read "don\'ts" (a noun) as a denial, in a clause or as an ellipsis', () => {
    expect(
      polarityConflicts("The tuning guide's don'ts cover caching writes.", ['The tuning guide covers caching writes.']),
    ).toEqual([]);
    // As an ellipsis, "gives the don'ts" would deny of the checklist what the sentence before says of the guide.
    expect(
      polarityConflicts(
        'The checklist covers caching writes.',
        ["The guide covers caching writes. Its checklist gives the don'ts."],
        { ellipsis: true },
      ),
    ).toEqual([]);
  });
});

describe('the reach of a denial', () => {
  it('judges a word deeper in a wider scope by the denial’s head word, not by the word before it', () => {
    // "boxes" is third after "not": the evidence shares the head "lift", so "boxes" carries no denial of its own.
    expect(polarityConflicts('The robot does not lift heavy boxes.', ['The robot lifts boxes.'], { scope: 3 })).toEqual(
      ['not lift / lift'],
    );
  });

  it('keeps a denial to its own clause when a subordinate clause follows it', () => {
    const evidence = ['Wheel odometry is not available when the robot walks.'];
    const claim = 'Since humanoids have no wheel odometry, they localise with cameras.';
    expect(polarityConflicts(claim, evidence, { sharedDenial: true })).toEqual([]);
    expect(polarityConflicts(claim, evidence, { sharedDenial: false })).toEqual(['not wheel / wheel']);
  });

  it('does not excuse a word the sentence also states plainly, in a clause without the denial', () => {
    const evidence = ['Wheel odometry is not available when the wheel slips.'];
    expect(
      polarityConflicts('Since humanoids have no wheel odometry, they localise with cameras.', evidence, {
        sharedDenial: true,
      }),
    ).toEqual(['not wheel / wheel']);
  });

  it('reads, with the shared denial off, a word of a denied clause that the evidence denies in another sentence', () => {
    // The clause aligns with the first sentence; "wheel" is denied in the second only.
    const evidence = ['The humanoid robot does not drift. It has no wheel odometry.'];
    const claim = 'Wheel odometry and the humanoid robot do not drift.';
    expect(polarityConflicts(claim, evidence, { anywhere: true, sharedDenial: false })).toEqual(['wheel / not wheel']);
    expect(polarityConflicts(claim, evidence, { anywhere: true, sharedDenial: true })).toEqual([]);
  });
});

describe('numbers in place', () => {
  it('does not take a name’s version for a figure moved from another sentence', () => {
    const evidence = ['ROS runs many nodes. It has 2 modes.'];
    expect(polarityConflicts('ROS 2 runs many nodes.', evidence, { numbers: true })).toEqual([]);
    // Wrapped text keeps two spaces now and then.
    expect(polarityConflicts('ROS  2 runs many nodes.', evidence, { numbers: true })).toEqual([]);
  });

  it('finds a count in the sentence that says it as a word ("twice"), not in the next one', () => {
    expect(
      polarityConflicts('The node retries 2 times.', ['The node retries twice. Each retry waits 2 seconds.'], {
        numbers: true,
      }),
    ).toEqual([]);
  });
});

describe('opposites by prefix and by word', () => {
  it('takes no opposite from a prefix that is not one, or from a stem too short after it', () => {
    expect(
      polarityConflicts('The config value is input by the server.', ['The config value is put by the server.']),
    ).toEqual([]);
    expect(polarityConflicts('The camera view can scroll quickly.', ['The camera view can roll quickly.'])).toEqual([]);
  });

  it('does not hold a claim to the antonym of a word the evidence says is removed', () => {
    expect(
      polarityConflicts('The cleanup step is required.', ['The release script removes the optional cleanup step.'], {
        absence: true,
      }),
    ).toEqual([]);
  });
});

describe('a setting on or off', () => {
  const onOff = { onOff: true };
  it('finds "off" against "on" and "on" against "off"', () => {
    expect(polarityConflicts('WAL archiving is off.', ['WAL archiving is on.'], onOff)).toEqual(['off / on']);
    expect(polarityConflicts('WAL archiving is on.', ['WAL archiving is off.'], onOff)).toEqual(['on / off']);
  });

  it('reads only a state as the setting, not "on" as a preposition', () => {
    expect(polarityConflicts('Compression stays on.', ['Compression is on the list and stays off.'], onOff)).toEqual([
      'on / off',
    ]);
  });

  it('reads a state before "by default" even when a condition follows it', () => {
    expect(
      polarityConflicts(
        'Compression is on by default.',
        ['Compression is off by default until the disk fills.'],
        onOff,
      ),
    ).toEqual(['on / off']);
  });
});

describe('a sentence that states a word both ways', () => {
  const reading = { closestClause: true };
  it('lets the clause that restates the claim decide, the shorter on a tie, in either order', () => {
    const evidence = ['Relays are not fast, big switches are fast, and motors run hot.'];
    expect(polarityConflicts('Relays are fast.', evidence, reading)).toEqual(['fast / not fast']);
    expect(polarityConflicts('Big switches are not fast.', evidence, reading)).toEqual(['not fast / fast']);
    for (const shorterFirst of [true, false]) {
      const clauses = ['relays are not fast', 'big heavy relays are fast'];
      const sentence = `${(shorterFirst ? clauses : clauses.toReversed()).join(', ')}.`;
      expect(polarityConflicts('Relays are fast.', [sentence], reading)).toEqual(['fast / not fast']);
    }
  });

  it('leaves it undecided when no clause shares two words with the claim', () => {
    // "Motors are fast" shares only "fast" with the first two clauses and only "motors" with the third.
    expect(
      polarityConflicts(
        'Motors are fast.',
        ['Relays are not fast, big switches are fast, and motors run hot.'],
        reading,
      ),
    ).toEqual([]);
  });
});

describe('the edges the third mutation run left', () => {
  it('takes no word for the opposite of one it merely ends ("input" is no denial of "put")', () => {
    // A negating prefix is read off only when four letters or more are left: "put" is no stem "in" denies.
    expect(
      polarityConflicts('Users input files into the bucket.', ['Users put files into the bucket.'], { antonyms: true }),
    ).toEqual([]);
    expect(
      polarityConflicts('Users put files into the bucket.', ['Users input files into the bucket.'], { antonyms: true }),
    ).toEqual([]);
    // The same rule still reads a real prefix: "unlock" against "lock".
    expect(polarityConflicts('The tool unlocks the table.', ['The tool locks the table.'], { antonyms: true })).toEqual(
      ['unlock / lock'],
    );
  });

  it('lets no clause that shares a single word with the claim’s decide a word the sentence states both ways', () => {
    // Each clause shares only "system" or "boots" with the claim: none restates it, so the sentence's two readings
    // of "system" stand and neither is a conflict.
    const evidence = ['ROS is not a system, Linux is a system kernel, and it boots from the local disk.'];
    expect(polarityConflicts('A system boots.', evidence, { closestClause: true })).toEqual([]);
    // Sharing two words, the first clause does decide.
    expect(polarityConflicts('ROS is a system.', evidence, { closestClause: true })).toEqual(['system / not system']);
  });

  it('with the hedges switched off, a dropped hedge is no conflict', () => {
    const evidence = ['Backups may run nightly.'];
    expect(polarityConflicts('Backups will run nightly.', evidence, { hedges: false })).toEqual([]);
    expect(polarityConflicts('Backups will run nightly.', evidence, {})).toEqual(['will / may (backup run nightli)']);
  });
});
