/** Polarity conflicts between a claim and its evidence: negation, antonyms and negating prefixes (polarity.ts). */
import { describe, expect, it } from 'vitest';
import { polarityConflicts } from '../../../functions/core/grounding/polarity.ts';

const URDF = 'URDF cannot describe closed kinematic loops, and it says little about sensors.';

describe('polarityConflicts: negation', () => {
  it('finds a claim that drops the negation of its evidence, and the reverse', () => {
    expect(polarityConflicts('URDF can describe closed kinematic loops.', [URDF])).toEqual(['describ / not describ']);
    expect(polarityConflicts('Gazebo does not read SDF files.', ['Gazebo reads SDF files.'])).toEqual([
      'not read / read',
    ]);
  });

  it('finds nothing when the claim keeps the evidence’s polarity, or restates it in other words', () => {
    expect(polarityConflicts(URDF, [URDF])).toEqual([]);
    expect(polarityConflicts("URDF can't describe closed kinematic loops.", [URDF])).toEqual([]);
  });

  it('reads contractions, "never", "without" and "lacks" as negations', () => {
    const evidence = ['The admin API can drain nodes without a client certificate.'];
    expect(polarityConflicts('The admin API requires a client certificate to drain nodes.', evidence)).toContain(
      'client / not client',
    );
    expect(
      polarityConflicts('A renderer lacks exact knowledge of each object.', [
        'A renderer knows the exact identity of every object.',
      ]),
    ).toContain('not exact / exact');
    expect(polarityConflicts("Reads don't stop during an election.", ['Reads stop during an election.'])).toEqual([
      'not stop / stop',
    ]);
  });

  it('negates two content words after "not" and one after "without", ending at the clause', () => {
    const evidence = ['Clusters do not span regions quickly at all.'];
    // "span" and "regions" are under "not", "quickly" is not; "regions" counts only where "span" is not shared.
    expect(polarityConflicts('Clusters span regions.', evidence)).toEqual(['span / not span']);
    expect(polarityConflicts('Clusters cover regions quickly.', evidence)).toEqual(['region / not region']);
    expect(polarityConflicts('Clusters do it quickly at all.', evidence)).toEqual([]);
    // "without" negates one word: "damping" is negated, "oscillates" is not.
    const joint = ['A simulated joint without damping oscillates where the real one would settle.'];
    expect(polarityConflicts('It oscillates where the real one would settle.', joint)).toEqual([]);
    expect(polarityConflicts('A simulated joint with damping oscillates.', joint)).toEqual(['damp / not damp']);
  });

  it('does not take "not only", "no more than" or a subordinate clause for a negation', () => {
    expect(polarityConflicts('Nodes publish topics.', ['Nodes not only publish topics.'])).toEqual([]);
    expect(polarityConflicts('Keep the starter warm.', ['Keep no more than the starter warm.'])).toEqual([]);
    expect(
      polarityConflicts('That takes long because the caller blocks.', [
        'Do not use it for anything that takes long because the caller blocks.',
      ]),
    ).toEqual([]);
  });

  it('counts the second word under a cue only when the other side lacks the first', () => {
    const evidence = ['Instead of kneading, the baker gives the dough a few folds.'];
    expect(polarityConflicts("You don't knead the dough; you give it a few folds.", evidence)).toEqual([]);
  });

  it('needs two shared content words to match a clause to a sentence', () => {
    expect(polarityConflicts('Loops matter.', [URDF])).toEqual([]);
  });

  it('counts a conflict only when every equally matched sentence has it', () => {
    const evidence = ['Snapshots are not encrypted by default.', 'Snapshots are encrypted by default.'];
    expect(polarityConflicts('Snapshots are encrypted by default.', evidence)).toEqual([]);
  });
});

describe('polarityConflicts: antonyms and prefixes', () => {
  it('finds an antonym the evidence states in the claim word’s place, under the same polarity', () => {
    const evidence = ['The cold proof is optional for the dough.'];
    expect(polarityConflicts('The cold proof is required for the dough.', evidence)).toEqual(['requir / option']);
    expect(polarityConflicts('The cold proof is not required for the dough.', evidence)).toEqual([]);
  });

  it('finds a negating prefix added or dropped', () => {
    const evidence = ['Publisher and subscriber profiles must be compatible.'];
    expect(polarityConflicts('Publisher and subscriber profiles are incompatible.', evidence)).toEqual([
      'incompat / compat',
    ]);
    expect(
      polarityConflicts('Publisher and subscriber profiles are compatible.', [
        'Publisher and subscriber profiles are incompatible.',
      ]),
    ).toEqual(['compat / incompat']);
  });

  it('leaves a word the evidence also holds, and short stems, to the other checks', () => {
    expect(
      polarityConflicts('The profiles are compatible and the profiles are incompatible.', [
        'The profiles are compatible and the profiles are incompatible.',
      ]),
    ).toEqual([]);
    expect(polarityConflicts('Put the input on the profiles list.', ['Put the profiles list on input.'])).toEqual([]);
  });

  it('can be limited to negation or switched off', () => {
    const evidence = ['The cold proof is optional for the dough.'];
    expect(polarityConflicts('The cold proof is required for the dough.', evidence, { antonyms: false })).toEqual([]);
    expect(polarityConflicts('URDF can describe closed kinematic loops.', [URDF], { scope: 0 })).toEqual([]);
  });
});

describe('polarityConflicts: hedges', () => {
  const evidence = ['A model that scores well on synthetic data may still fail on the robot camera.'];

  it('finds a rule or a certainty where the evidence hedges', () => {
    expect(
      polarityConflicts('A model that scores well on synthetic data will fail on the robot camera.', evidence),
    ).toEqual(['will / may (model score well)']);
    expect(
      polarityConflicts('A humanoid is always rooted at the pelvis.', ['A humanoid is commonly rooted at the pelvis.']),
    ).toEqual(['always / commonly (humanoid root pelvi)']);
  });

  it('accepts a claim that hedges too, or states nothing categorical', () => {
    expect(polarityConflicts('A model trained on synthetic data might fail on the robot camera.', evidence)).toEqual(
      [],
    );
    expect(polarityConflicts('A model trained on synthetic data fails on the robot camera.', evidence)).toEqual([]);
  });

  it('accepts a categorical claim where the evidence is categorical too, or where its hedge is elsewhere', () => {
    expect(polarityConflicts('Steam must be trapped.', ['Steam must be trapped, or it may escape.'])).toEqual([]);
    expect(polarityConflicts('Every node must run NTP.', ['Every node must run NTP; clocks may drift.'])).toEqual([]);
  });

  it('can be switched off', () => {
    const claim = 'A model that scores well on synthetic data will fail on the robot camera.';
    expect(polarityConflicts(claim, evidence, { hedges: false })).toEqual([]);
  });
});

describe('polarityConflicts: numbers in place', () => {
  const evidence = [
    'Upgrades between adjacent minor versions, such as 4.2 to 4.3, can be rolling. Skipping one, from 4.2 to 4.4, stops the cluster.',
  ];

  it('finds a number of the evidence moved out of the sentence the clause restates', () => {
    expect(
      polarityConflicts('Upgrades between adjacent minor versions, such as 4.2 to 4.4, can be rolling.', evidence),
    ).toEqual(['4.4 / 4.2 4.3']);
  });

  it('accepts the numbers where they are, a name’s version, and leaves a number stated nowhere to the number check', () => {
    expect(
      polarityConflicts('Upgrades between adjacent minor versions, such as 4.2 to 4.3, can be rolling.', evidence),
    ).toEqual([]);
    expect(polarityConflicts('ROS 2 upgrades between adjacent minor versions can be rolling.', evidence)).toEqual([]);
    expect(
      polarityConflicts('Upgrades between adjacent minor versions, such as 4.2 to 4.9, can be rolling.', evidence),
    ).toEqual([]);
  });

  it('can be switched off', () => {
    const claim = 'Upgrades between adjacent minor versions, such as 4.2 to 4.4, can be rolling.';
    expect(polarityConflicts(claim, evidence, { numbers: false })).toEqual([]);
  });
});
