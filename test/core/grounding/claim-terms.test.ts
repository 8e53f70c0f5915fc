import { describe, expect, it } from 'vitest';
import { extractClaimTerms, isProperName } from '../../../functions/core/grounding/claim-terms.ts';

describe('extractClaimTerms', () => {
  it('keeps content words, stemmed, and drops function words and discourse markers', () => {
    // Act
    const terms = extractClaimTerms('In short: the nodes are publishing messages on topics.');

    // Assess
    expect(terms.words).toEqual([
      { word: 'nodes', stem: 'node', base: 'node' },
      { word: 'publishing', stem: 'publish', base: 'publish' },
      { word: 'messages', stem: 'messag', base: 'messag' },
      { word: 'topics', stem: 'topic', base: 'topic' },
    ]);
  });

  it('reduces inflections of one word to one stem, so a rewording meets its source', () => {
    // Act
    const stems = ['publishes', 'published', 'publishing'].map((w) => extractClaimTerms(w).words[0]?.stem);

    // Assess
    expect(stems).toEqual(['publish', 'publish', 'publish']);
  });

  it('reads standalone numbers, decimals kept and thousands separators removed', () => {
    // Act
    const terms = extractClaimTerms('Ubuntu 22.04 runs 1,000 nodes at 30 Hz on Nav2.');

    // Assess
    expect(terms.numbers).toEqual(['22.04', '1000', '30']);
  });

  it('reads acronyms, mixed-case words and capitalised words inside a sentence as proper names', () => {
    // Act
    const terms = extractClaimTerms('Gazebo runs ROS nodes with LiDAR on Ubuntu and Nav2. Isaac renders them.');

    // Assess
    expect(terms.names).toEqual(['ROS', 'LiDAR', 'Ubuntu', 'Nav2']);
  });
});

describe('isProperName', () => {
  it('does not take a capitalised word that starts a sentence for a name', () => {
    // Assess
    expect([isProperName('Nodes', true), isProperName('Nodes', false)]).toEqual([false, true]);
  });

  it('takes an acronym for a name even where a sentence starts', () => {
    // Assess
    expect([isProperName('URDF', true), isProperName('rViz', true), isProperName('node', false)]).toEqual([
      true,
      true,
      false,
    ]);
  });
});

describe('extractClaimTerms: tokens', () => {
  it('drops a possessive or a contraction ending from a word, so "Isaac’ll" is the name Isaac', () => {
    const terms = extractClaimTerms("We run Isaac’ll and Gazebo's sensors.");
    expect(terms.names).toEqual(['Isaac', 'Gazebo']);
    expect(terms.words.map((w) => w.word)).toEqual(['run', 'Isaac', 'Gazebo', 'sensors']);
  });

  it('keeps a word that starts with a digit, and skips bare numbers and one-letter words', () => {
    const terms = extractClaimTerms('x 3D meshes load in 2 s');
    expect(terms.words.map((w) => w.word)).toEqual(['3D', 'meshes', 'load']);
    expect(terms.numbers).toEqual(['2']);
  });

  it('keeps each word as first written when a later form has the same stem', () => {
    expect(extractClaimTerms('publishing publishes published').words).toEqual([
      { word: 'publishing', stem: 'publish', base: 'publish' },
    ]);
  });

  it('removes every thousands separator of a number', () => {
    expect(extractClaimTerms('It holds 1,000,000 points and 12,5 units.').numbers).toEqual(['1000000', '12,5']);
  });
});
