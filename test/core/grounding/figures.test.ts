/**
 * Figures in their places (functions/core/grounding/figures.ts): two numbers exchanged between what they measure,
 * and a range moved. Each rule on a claim it must catch and a faithful one beside it, its label width pinned on both
 * sides, and the support check's switch for each.
 */
import { describe, expect, it } from 'vitest';
import { exchangedFigures, LABEL_WORDS, movedRanges } from '../../../functions/core/grounding/figures.ts';
import {
  ALL_SUPPORT_FEATURES,
  assessClaim,
  collectEvidence,
  DEFAULT_MIN_WORD_SUPPORT,
} from '../../../functions/core/grounding/support.ts';

const YAML =
  'local_costmap:\n  robot_radius: 0.35\n  resolution: 0.05\n  inflation_layer:\n    inflation_radius: 0.6\n';
const LIMITS = '<limit lower="0.0" upper="2.4" effort="150" velocity="8.0"/>';

describe('exchangedFigures', () => {
  it('finds two figures given to each other’s labels', () => {
    expect(
      exchangedFigures('In the example, the inflation radius is 0.35 and the robot radius is 0.6.', [YAML]),
    ).toEqual(['inflat 0.35, robot 0.6 / inflat 0.6, robot 0.35']);
    expect(
      exchangedFigures('The upper limit is 2.4, its effort limit 8.0 and its velocity limit 150.', [LIMITS]),
    ).toEqual(['effort 8.0, veloc 150 / effort 150, veloc 8.0']);
  });

  it('leaves the figures alone when each keeps its own label, in any order or wording', () => {
    expect(exchangedFigures('The robot radius is 0.35 and the inflation radius is 0.6.', [YAML])).toEqual([]);
    expect(exchangedFigures('The inflation radius is 0.6, the robot radius 0.35.', [YAML])).toEqual([]);
    expect(exchangedFigures('Its velocity limit is 8.0 and its effort limit 150.', [LIMITS])).toEqual([]);
  });

  it('needs both labels reversed: one label the evidence words otherwise leaves the pair alone', () => {
    // "footprint" is beside neither number in the evidence, so nothing says 0.35 belongs to something else.
    expect(exchangedFigures('The footprint radius is 0.6 and the robot radius 0.35.', [YAML])).toEqual([]);
    expect(exchangedFigures('The inflation radius is 0.35 and the footprint radius 0.6.', [YAML])).toEqual([]);
  });

  it('needs both numbers in the evidence: a number stated nowhere is a missing number, not an exchange', () => {
    expect(exchangedFigures('The inflation radius is 0.35 and the robot radius is 0.7.', [YAML])).toEqual([]);
  });

  it('leaves a pair alone when the evidence gives one number both labels', () => {
    const evidence = 'The robot radius is 0.35 and the inflation radius 0.6; the default inflation radius was 0.35.';
    expect(exchangedFigures('The inflation radius is 0.35 and the robot radius is 0.6.', [evidence])).toEqual([]);
  });

  it(`reads a label from the ${LABEL_WORDS} content words before a number, not from a third`, () => {
    expect(LABEL_WORDS).toBe(2);
    // The evidence binds 4 to "alpha beta" and 8 to "gamma delta"; the claim's distinguishing word is its third word
    // back ("alpha ... 8"), out of reach, so nothing is exchanged; one word nearer and it is.
    const evidence = 'alpha beta 4; gamma delta 8.';
    expect(exchangedFigures('gamma delta 4; alpha zeta eta 8.', [evidence])).toEqual([]);
    expect(exchangedFigures('gamma delta 4; alpha zeta 8.', [evidence])).toEqual([
      'gamma 4, alpha 8 / gamma 8, alpha 4',
    ]);
  });

  it('does not read a label across a sentence or a line', () => {
    expect(exchangedFigures('Robot. 4 and radius 8.', ['radius 4; robot 8.'])).toEqual([]);
    expect(exchangedFigures('Robot\n4 and radius 8.', ['radius 4; robot 8.'])).toEqual([]);
    expect(exchangedFigures('Robot 4 and radius 8.', ['radius 4; robot 8.'])).toEqual([
      'robot 4, radiu 8 / robot 8, radiu 4',
    ]);
  });

  it('labels with content words only: number words, units and function words are no label', () => {
    expect(
      exchangedFigures('The cache takes 4 GB and the log takes 8 GB.', ['The log takes 4 GB and the cache 8 GB.']),
    ).toEqual(['cach 4, log 8 / cach 8, log 4']);
    expect(exchangedFigures('It is 4 and then it is 8.', ['It is 8 and then it is 4.'])).toEqual([]);
  });
});

describe('movedRanges', () => {
  const bulk =
    'At about 24 °C it takes four to six hours. The baker folds it during the first two hours. The same recipe can need three hours in summer.';

  it('finds a range the evidence does not state as a range', () => {
    expect(movedRanges('At about 24 °C bulk fermentation takes two to three hours.', [bulk])).toEqual([
      '2 to 3 / 4 to 6',
    ]);
    expect(movedRanges('It takes 4-7 hours.', [bulk])).toEqual(['4 to 7 / 4 to 6']);
    expect(movedRanges('It takes between 2 and 6 hours.', [bulk])).toEqual(['2 to 6 / 4 to 6']);
    expect(movedRanges('It takes two to three hours.', ['It takes two hours, or three.'])).toEqual([
      '2 to 3 / no range',
    ]);
  });

  it('accepts the same range in digits, words, dashes, "between ... and", "or", or another unit', () => {
    expect(movedRanges('At about 24 °C it takes 4 to 6 hours.', [bulk])).toEqual([]);
    expect(movedRanges('It takes 4–6 hours.', [bulk])).toEqual([]);
    expect(movedRanges('It takes between four and six hours.', [bulk])).toEqual([]);
    expect(movedRanges('It takes four to six hours.', ['It takes four or six hours.'])).toEqual([]);
    expect(movedRanges('It takes 240 to 360 minutes.', [bulk])).toEqual([]);
    expect(movedRanges('Bake at 446 to 482 °F.', ['Bake at 230 to 250 °C.'])).toEqual([]);
  });

  it('reads only "to", a dash, "through" or "between ... and" as a claim’s range: "2 and 3" are two figures', () => {
    expect(movedRanges('It takes 2 and then 3 hours.', [bulk])).toEqual([]);
    expect(movedRanges('Nodes 2 and 3 fail.', [bulk])).toEqual([]);
    expect(movedRanges('Nodes 2 or 3 fail.', [bulk])).toEqual([]);
    expect(movedRanges('Days 2 through 3.', [bulk])).toEqual(['2 to 3 / 4 to 6']);
  });

  it('needs both ends: a range with one end moved is moved', () => {
    expect(movedRanges('It takes four to seven hours.', [bulk])).toEqual(['4 to 7 / 4 to 6']);
    expect(movedRanges('It takes three to six hours.', [bulk])).toEqual(['3 to 6 / 4 to 6']);
  });
});

describe('the support check with figures in their places', () => {
  const check = (claim: string, evidence: string, features = ALL_SUPPORT_FEATURES) =>
    assessClaim({ claim, evidence: collectEvidence([evidence]), minWordSupport: DEFAULT_MIN_WORD_SUPPORT, features });

  it('fails an exchange and a moved range, and each switch lets its own through', () => {
    const exchanged = check('The inflation radius is 0.35 and the robot radius is 0.6.', YAML);
    expect(exchanged.supported).toBe(false);
    expect(exchanged.polarity_conflicts).toContain('inflat 0.35, robot 0.6 / inflat 0.6, robot 0.35');
    expect(
      check('The inflation radius is 0.35 and the robot radius is 0.6.', YAML, {
        ...ALL_SUPPORT_FEATURES,
        figureLabels: false,
      }).supported,
    ).toBe(true);
    const moved = check(
      'Bulk fermentation takes four to five hours.',
      'Bulk fermentation takes four to six hours, five hours in summer.',
    );
    expect(moved.supported).toBe(false);
    // "five" is also taken from the clause that restates the claim's less well (numbersInClause).
    expect(moved.polarity_conflicts).toEqual(['5 / 4 6', '4 to 5 / 4 to 6']);
    const movedWithout = (features: Partial<typeof ALL_SUPPORT_FEATURES>) =>
      check(
        'Bulk fermentation takes four to five hours.',
        'Bulk fermentation takes four to six hours, five hours in summer.',
        { ...ALL_SUPPORT_FEATURES, ...features },
      );
    expect(movedWithout({ ranges: false }).polarity_conflicts).toEqual(['5 / 4 6']);
    expect(movedWithout({ ranges: false, numbersInClause: false }).supported).toBe(true);
  });

  it('supports the faithful claims', () => {
    expect(check('The robot radius is 0.35 and the inflation radius is 0.6.', YAML).supported).toBe(true);
    expect(check('Bulk fermentation takes four to six hours.', 'Bulk fermentation takes 4 to 6 hours.').supported).toBe(
      true,
    );
  });
});
