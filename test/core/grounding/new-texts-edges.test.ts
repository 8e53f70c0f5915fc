/**
 * The edges of this round's readings (docs/GROUNDING.md, "Carrying to new texts") that their mutants asked for: every
 * word of absence and verb of state by name, and a text read under one reading and then another (the evidence cache
 * keys each reading apart).
 */
import { describe, expect, it } from 'vitest';
import { polarityConflicts } from '../../../functions/core/grounding/polarity.ts';

describe('every word of absence', () => {
  const evidence = ['Only utterances, not silence, are sent to the model.'];
  it.each(
    `remove removes removed removing eliminate eliminates eliminated eliminating avoid avoids avoided avoiding drop drops
    dropped dropping discard discards discarded discarding omit omits omitted omitting exclude excludes excluded
    excluding skip skips skipped skipping slows slowed slowing`.split(/\s+/),
  )('"%s" makes the next word absent', (cue) => {
    expect(
      polarityConflicts(`The pipeline ${cue} silence first.`, evidence, { anywhere: true, absence: true }),
    ).toEqual([]);
    expect(
      polarityConflicts(`The pipeline ${cue} silence first.`, evidence, { anywhere: true, absence: false }),
    ).toEqual(['silenc / not silenc']);
  });

  it.each(['free of', 'rid of', 'absence of', 'out of', 'away from'])('"%s" makes the next word absent', (pair) => {
    expect(
      polarityConflicts(`The pipeline keeps ${pair} silence first.`, evidence, { anywhere: true, absence: true }),
    ).toEqual([]);
  });
});

describe('every verb of state before "on" or "off"', () => {
  const evidence = ['WAL archiving is off by default.'];
  it.each('is are was were be been being stays stay remains remain left turned switched set'.split(' '))(
    '"%s on" states a setting',
    (verb) => {
      expect(polarityConflicts(`WAL archiving ${verb} on by default.`, evidence, { onOff: true })).toEqual([
        'on / off',
      ]);
    },
  );
  it('a word that is no verb of state before it states none', () => {
    expect(polarityConflicts('WAL archiving goes on by default.', evidence, { onOff: true })).toEqual([]);
  });
});

describe('one text under two readings', () => {
  it('is read again for each: bare contractions', () => {
    const evidence = ['Snapshots dont block reads.'];
    for (let round = 0; round < 2; round++) {
      expect(polarityConflicts('Snapshots block reads.', evidence, { bareContractions: true })).toEqual([
        'block / not block',
      ]);
      expect(polarityConflicts('Snapshots block reads.', evidence, { bareContractions: false })).toEqual([]);
    }
  });

  it('is read again for each: dash ranges', () => {
    // Split at the dash, "10" is a clause of its own that gives its number to the clause before it.
    const evidence = ['Alert when latency stays above 50 ms for 5 – 10 minutes, or when a shard lags for 15 minutes.'];
    const claim = 'Alert when latency stays above 50 ms for 15 minutes.';
    for (let round = 0; round < 2; round++) {
      const on = polarityConflicts(claim, evidence, { numbers: true, numbersInClause: true, dashRanges: true });
      const off = polarityConflicts(claim, evidence, { numbers: true, numbersInClause: true, dashRanges: false });
      expect(on).toEqual(['15 / 50 5 10']);
      expect(off).not.toEqual(on);
    }
  });
});

describe('the edges of the new readings', () => {
  it('reads words of absence again when the reading changes', () => {
    const evidence = ['The pipeline removes silence before the model.'];
    const claim = 'The pipeline keeps no silence before the model.';
    for (let round = 0; round < 2; round++) {
      expect(polarityConflicts(claim, evidence, { absence: true })).toEqual([]);
      expect(polarityConflicts(claim, evidence, { absence: false })).toEqual(['not silenc / silenc']);
    }
  });

  it('keeps the main clause’s denial when a subordinate clause follows', () => {
    const evidence = ['bzip2 and bunzip2 will by default not overwrite existing files.'];
    expect(
      polarityConflicts('Neither bzip2 nor bunzip2 overwrites a file that exists.', evidence, { sharedDenial: true }),
    ).toEqual([]);
  });

  it('holds a shared denial only when every occurrence of the word stands in a denying clause', () => {
    const evidence = ['Wheel odometry is not available, but wheel odometry drifts on wheeled robots.'];
    expect(polarityConflicts('Humanoids have no wheel odometry.', evidence, { sharedDenial: true })).toEqual([
      'not wheel / wheel',
    ]);
  });

  it('reads "off" against "on" too, states only, and nothing against a sentence without one', () => {
    const on = { onOff: true };
    expect(polarityConflicts('WAL archiving is off by default.', ['WAL archiving is on by default.'], on)).toEqual([
      'off / on',
    ]);
    expect(
      polarityConflicts(
        'WAL archiving is off by default.',
        ['WAL archiving is on by default, with the off switch in the config.'],
        on,
      ),
    ).toEqual(['off / on']);
    expect(
      polarityConflicts('WAL archiving is on by default.', ['WAL archiving starts with the cluster by default.'], on),
    ).toEqual([]);
  });

  it('picks the clause with fewer words of its own when two share as many', () => {
    const evidence = ['ROS is not an operating system, Linux is an operating system kernel.'];
    expect(polarityConflicts('It is an operating system.', evidence, { closestClause: true })).toEqual([
      'oper / not oper',
    ]);
  });
});

describe('the edges the second mutation run left', () => {
  it('holds a number its closest clause also states to nothing', () => {
    const evidence = ['Alert when latency stays above 50 ms for 15 or 5 minutes, or when a shard lags for 15 minutes.'];
    const on = { numbers: true, numbersInClause: true };
    expect(polarityConflicts('Alert when latency stays above 50 ms for 15 minutes.', evidence, on)).toEqual([]);
  });

  it('reads a denial anywhere only with its switch', () => {
    expect(
      polarityConflicts('A spoiled starter can be rescued.', ['It cannot be rescued.'], { anywhere: true }),
    ).toEqual(['rescu / not rescu']);
    expect(polarityConflicts('A spoiled starter can be rescued.', ['It cannot be rescued.'], {})).toEqual([]);
  });

  it('reads a state after its verb whatever follows "by default", and none at a clause’s edges', () => {
    const evidence = ['WAL archiving is off by default.'];
    const on = { onOff: true };
    expect(polarityConflicts('WAL archiving is on by default when a cluster starts.', evidence, on)).toEqual([
      'on / off',
    ]);
    expect(polarityConflicts('WAL archiving is on by', evidence, on)).toEqual([]);
    expect(polarityConflicts('On by default, WAL archiving', evidence, on)).toEqual([]);
  });
});
