/**
 * Two readings of negation in polarity.ts: a denial that leaves its verb phrase out ("A humanoid cannot:") denies the
 * clause before it of its own subject, and a word of absence ("removes the single point of failure") agrees with a
 * denial. Each on a claim it must catch or pass, with its switch, and the ellipsis's two-word threshold on both sides.
 */
import { describe, expect, it } from 'vitest';
import { polarityConflicts } from '../../../functions/core/grounding/polarity.ts';
import {
  ALL_SUPPORT_FEATURES,
  assessClaim,
  collectEvidence,
  DEFAULT_MIN_WORD_SUPPORT,
  type SupportFeatures,
} from '../../../functions/core/grounding/support.ts';

const on = { anywhere: true, ellipsis: true, absence: true };
const ROBOT =
  'A wheeled base executes a cmd_vel twist directly. A humanoid cannot: it must choose where to place each foot.';
const BZIP =
  'Newer releases can correctly decompress multiple concatenated compressed files. Legacy builds cannot do this; they stop after the first file.';

describe('an elliptical denial', () => {
  it('passes a claim that denies the predicate of the elliptical subject, as the text does', () => {
    expect(polarityConflicts("A humanoid can't execute a cmd_vel twist directly.", [ROBOT], on)).toEqual([]);
    expect(
      polarityConflicts("Unlike a wheeled base, a humanoid can't execute a cmd_vel twist directly.", [ROBOT], on),
    ).toEqual([]);
    // Without the reading, the sentence of the other subject is taken for the claim's evidence.
    expect(
      polarityConflicts("A humanoid can't execute a cmd_vel twist directly.", [ROBOT], { ...on, ellipsis: false }),
    ).not.toEqual([]);
  });

  it('fails a claim that states the predicate of the elliptical subject', () => {
    expect(
      polarityConflicts('Legacy builds can correctly decompress multiple concatenated compressed files.', [BZIP], on),
    ).toEqual(['legaci build correctli / legaci build not correctli']);
    expect(polarityConflicts('A humanoid executes a cmd_vel twist directly.', [ROBOT], on)).toHaveLength(1);
    expect(
      polarityConflicts('Legacy builds can correctly decompress multiple concatenated compressed files.', [BZIP], {
        ...on,
        ellipsis: false,
      }),
    ).toEqual([]);
  });

  it('holds the other subject to the clause that states it, as before', () => {
    expect(polarityConflicts('A wheeled base executes a cmd_vel twist directly.', [ROBOT], on)).toEqual([]);
    expect(polarityConflicts("A wheeled base can't execute a cmd_vel twist directly.", [ROBOT], on)).not.toEqual([]);
    expect(
      polarityConflicts('Newer releases can correctly decompress multiple concatenated compressed files.', [BZIP], on),
    ).toEqual([]);
  });

  it('needs two words of the predicate: one shared word does not make the claim restate it', () => {
    expect(polarityConflicts('A humanoid executes steps.', [ROBOT], on)).toEqual([]);
    expect(polarityConflicts('A humanoid executes twists.', [ROBOT], on)).toEqual([
      'humanoid execut / humanoid not execut',
    ]);
  });

  it('is no ellipsis when the cue has a verb phrase, follows "or"/"whether"/"if", or keeps the subject', () => {
    const full = 'A wheeled base executes a twist directly. A humanoid cannot walk fast.';
    expect(polarityConflicts('A humanoid executes a twist directly.', [full], on)).toEqual([]);
    const whether = 'A wheeled base executes a twist directly. A humanoid, whether or not.';
    expect(polarityConflicts('A humanoid executes a twist directly.', [whether], on)).toEqual([]);
    const same = 'The client executes a twist directly. The client cannot.';
    expect(polarityConflicts('The client executes a twist directly.', [same], on)).toEqual([]);
  });

  it('reads the clause before within a sentence too ("X can ..., but Y cannot")', () => {
    const text = 'A single node runs on a laptop with little memory, but a cluster cannot.';
    expect(polarityConflicts('A cluster runs on a laptop.', [text], on)).toEqual(['cluster run / cluster not run']);
    expect(polarityConflicts('A cluster does not run on a laptop.', [text], on)).toEqual([]);
  });
});

describe('words of absence', () => {
  const ros = 'There is no single point of failure: nodes discover each other automatically.';

  it('agree with a denial, on either side', () => {
    expect(polarityConflicts('DDS removes the single point of failure.', [ros], on)).toEqual([]);
    expect(
      polarityConflicts('There is no single point of failure.', ['DDS eliminates the single point of failure.'], on),
    ).toEqual([]);
    expect(
      polarityConflicts('The dough is free of lumps.', ['Knead until there are no lumps in the dough.'], on),
    ).toEqual([]);
    expect(polarityConflicts('DDS removes the single point of failure.', [ros], { ...on, absence: false })).not.toEqual(
      [],
    );
  });

  it('agree with a plain mention too: an absence is no denial of the word', () => {
    expect(
      polarityConflicts('Remove the lid after twenty minutes.', ['Bake with the lid on for twenty minutes.'], on),
    ).toEqual([]);
  });

  it('only govern their next content word', () => {
    const text = 'ROS 2 has no central master and no custom transport.';
    expect(polarityConflicts('ROS 2 removes the central master.', [text], on)).toEqual([]);
    expect(polarityConflicts('ROS 2 removes the central master and the custom transport.', [text], on)).toEqual([
      'custom / not custom',
    ]);
  });
});

describe('in the support check', () => {
  const check = (claim: string, evidence: string, features: Partial<SupportFeatures> = {}) =>
    assessClaim({
      claim,
      evidence: collectEvidence([evidence]),
      minWordSupport: DEFAULT_MIN_WORD_SUPPORT,
      features: { ...ALL_SUPPORT_FEATURES, ...features },
    });

  it('switches each reading with its feature', () => {
    expect(
      check('Legacy builds can correctly decompress multiple concatenated compressed files.', BZIP).supported,
    ).toBe(false);
    expect(
      check('Legacy builds can correctly decompress multiple concatenated compressed files.', BZIP, {
        ellipsis: false,
      }).supported,
    ).toBe(true);
    const ros = 'There is no single point of failure: nodes discover each other automatically.';
    expect(check('The redesign removes the single point of failure.', ros).supported).toBe(true);
    expect(check('The redesign removes the single point of failure.', ros, { absence: false }).supported).toBe(false);
  });

  it('reads no ellipsis with negation off', () => {
    expect(
      check('Legacy builds can correctly decompress multiple concatenated compressed files.', BZIP, {
        negation: false,
        polarityAnywhere: false,
      }).supported,
    ).toBe(true);
  });
});
