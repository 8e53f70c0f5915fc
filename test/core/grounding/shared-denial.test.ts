/**
 * Readings added so the gate carries to texts it was not tuned on (docs/GROUNDING.md, "Carrying to new texts"): each on
 * a faithful rewording it must pass and a wrong claim beside it that it must still catch, with its switch.
 */
import { describe, expect, it } from 'vitest';
import { polarityConflicts } from '../../../functions/core/grounding/polarity.ts';

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
