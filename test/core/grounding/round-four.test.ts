/**
 * Readings of the fourth tuning round (docs/GROUNDING.md, "Round four"): each on made-up sentences, a wrong claim it
 * must catch and a faithful one beside it it must pass, with its switch off for the ablation.
 */
import { describe, expect, it } from 'vitest';
import { polarityConflicts } from '../../../functions/core/grounding/polarity.ts';
import {
  ALL_SUPPORT_FEATURES,
  assessClaim,
  collectEvidence,
  DEFAULT_MIN_WORD_SUPPORT,
} from '../../../functions/core/grounding/support.ts';

const SHARED = { anywhere: true, ellipsis: true, absence: true, particles: true, sharedDenial: true };
const PAIRED = { ...SHARED, pairedDenial: true };

describe('denials paired one to one (pairedDenial)', () => {
  it.each([
    ['The old scripts will not run without changes.', 'The old scripts should run without changes.', 'not run / run'],
    [
      'The tool can start without a config file and will read YAML.',
      'The tool can start without a config file, but it will not read YAML.',
      'read / not read',
    ],
  ])('catches a denial the other side matches at its own word: %s', (claim, evidence, conflict) => {
    expect(polarityConflicts(claim, [evidence], PAIRED)).toEqual([conflict]);
    // sharedDenial alone lets the matched denial excuse the other word.
    expect(polarityConflicts(claim, [evidence], SHARED)).toEqual([]);
  });

  it.each([
    // Denials at different words: each is unmatched, so they agree as before.
    [
      'Since the rover has no wheel encoders, it localizes with cameras.',
      'Wheel encoders are not fitted, so the rover localises with cameras.',
    ],
    // "nor" reaches "overwrites" at depth 2: only a head word (depth 1) is a match.
    [
      'Neither gzip nor gunzip overwrites a file by default.',
      'gzip and gunzip will by default not overwrite existing files.',
    ],
    // A denial without a head word ("they cannot.") matches nothing.
    [
      'Rough masses are fine for drawing but not for simulation or control.',
      'For drawing only, masses can be rough. For simulation and control they cannot.',
    ],
  ])('still agrees when the denials are at different words: %s', (claim, evidence) => {
    expect(polarityConflicts(claim, [evidence], PAIRED)).toEqual([]);
  });

  it('excuses the word when one denial of its clause is unmatched, even beside a matched one', () => {
    // "no rebuild" is denied by the evidence alone, so the clause still has a denial at another word (sharedDenial's
    // reading, a known limit): only a clause whose every denial is matched is held to the other side.
    const claim = 'The old scripts will not run without changes.';
    expect(
      polarityConflicts(claim, ['The old scripts should run without changes and with no rebuild.'], PAIRED),
    ).toEqual([]);
    expect(polarityConflicts(claim, ['The old scripts should run without changes.'], PAIRED)).toEqual([
      'not run / run',
    ]);
  });

  it('never matches a denial of the word the claim also states: the claim says it both ways', () => {
    // The claim's clause states "boot" ("usually boot from") and denies it ("cannot boot"): its denial of "boot" is
    // no match that could turn its own mention of "boot" into a conflict.
    const claim = 'The tablet that the cheap Acme kits usually boot from cannot boot the Zeta planner reliably.';
    const evidence = 'The cheap kits (Acme) usually boot from a tablet, which cannot boot the Zeta planner reliably.';
    expect(polarityConflicts(claim, [evidence], { ...PAIRED, closestClause: true })).toEqual([]);
  });
});

describe('"non-" written with its hyphen is a denial (nonPrefix)', () => {
  const ON = { ...PAIRED, nonPrefix: true };
  it('reads "non-GPU laptops" as laptops without a GPU, and catches a claim that drops the prefix', () => {
    const evidence = 'Standard laptops (non-GPU models) will not run the simulator.';
    expect(polarityConflicts('Laptops without a GPU will not run the simulator.', [evidence], ON)).toEqual([]);
    expect(polarityConflicts('Laptops without a GPU will not run the simulator.', [evidence], PAIRED)).not.toEqual([]);
    expect(polarityConflicts('Release Kite is an LTS release.', ['Release Kite is a non-LTS release.'], ON)).toEqual([
      'lt / not lt',
    ]);
    expect(
      polarityConflicts('Release Kite is an LTS release.', ['Release Kite is a non-LTS release.'], PAIRED),
    ).toEqual([]);
  });

  it('needs the hyphen right after "non": "non sequitur", "nonzero" and "none" are words of their own', () => {
    expect(polarityConflicts('The offset is a sequitur here.', ['The offset is a non sequitur here.'], ON)).toEqual([]);
    expect(polarityConflicts('The offset is zero here.', ['The offset is nonzero here.'], ON)).toEqual([]);
  });
});

describe('the support check reads both by default, each behind its switch', () => {
  const verdict = (claim: string, text: string, features = ALL_SUPPORT_FEATURES) =>
    assessClaim({ claim, evidence: collectEvidence([text]), minWordSupport: DEFAULT_MIN_WORD_SUPPORT, features });

  it('fails a denial the cited text matches at its own word, unless pairedDenial is off', () => {
    const claim = 'The old scripts will not run without changes.';
    const text = 'The old scripts should run without changes.';
    expect(verdict(claim, text)).toMatchObject({ supported: false, polarity_conflicts: ['not run / run'] });
    expect(verdict(claim, text, { ...ALL_SUPPORT_FEATURES, pairedDenial: false }).supported).toBe(true);
  });

  it('passes "without a GPU" against "non-GPU", unless nonPrefix is off', () => {
    const claim = 'Laptops without a GPU will not run the simulator.';
    const text = 'Standard laptops (non-GPU models) will not run the simulator.';
    expect(verdict(claim, text).supported).toBe(true);
    expect(verdict(claim, text, { ...ALL_SUPPORT_FEATURES, nonPrefix: false }).polarity_conflicts).not.toEqual([]);
  });
});
