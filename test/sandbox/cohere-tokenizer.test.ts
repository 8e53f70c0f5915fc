import { describe, expect, it } from 'vitest';
import { extractTerms, stemWord, tokenizeWords } from '../../sandbox/cohere/tokenizer.ts';

describe('tokenizeWords', () => {
  it('lowercases and keeps every word, stop words and contractions included', () => {
    // Prepare
    const text = "Don't run ROS 2's demo-nodes, please!";

    // Act
    const words = tokenizeWords(text);

    // Assess
    expect(words).toEqual(["don't", 'run', 'ros', "2's", 'demo', 'nodes', 'please']);
  });
});

describe('extractTerms', () => {
  it('drops stop words, single characters and possessives, and stems what is left', () => {
    // Prepare
    const question = "How do I publish messages on the robot's topics in ROS 2?";

    // Act
    const terms = extractTerms(question);

    // Assess
    expect(terms).toEqual(['publish', 'messag', 'robot', 'topic', 'ros']);
  });
});

describe('stemWord', () => {
  it.each([
    ['nodes', 'node', 'nod'],
    ['queries', 'query', 'query'],
    ['installing', 'installation', 'install'],
    ['navigation', 'navigated', 'navig'],
    ['mapping', 'mapped', 'map'],
    ['configure', 'configuration', 'configur'],
    ['classes', 'class', 'class'],
    ['deployment', 'deploy', 'deploy'],
  ])('reduces %s and %s to the same stem %s', (first, second, stem) => {
    // Act
    const stems = [stemWord(first), stemWord(second)];

    // Assess
    expect(stems).toEqual([stem, stem]);
  });

  it('leaves short words, numbers and words ending in -ss, -us or -is alone', () => {
    // Act
    const stems = ['ros', 'api', '2048', 'process', 'status', 'analysis'].map(stemWord);

    // Assess
    expect(stems).toEqual(['ros', 'api', '2048', 'process', 'status', 'analysis']);
  });
});
