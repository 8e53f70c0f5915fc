/**
 * The stand-in's answer rewrites, each a way a real model departs from its documents: inventing a number while
 * citing a real chunk, and paraphrasing faithfully (which a support check must still accept).
 */

const NUMBER = /(?<![\p{L}\p{N}])\d+(?:[.,]\d+)*(?![\p{L}\p{N}])/u;

/** The invented figure: 64 (or 128 where the sentence already says 64), as in "Nav2 needs 64 GB of RAM". */
export function inventNumber(sentence: string): string {
  const number = sentence.match(NUMBER)?.[0];
  if (number !== undefined) return sentence.replace(NUMBER, number === '64' ? '128' : '64');
  return `${sentence.replace(/[.!?]+$/, '')} on a machine with 64 GB of RAM.`;
}

// Verbs a model rewords freely, each with a synonym that asserts the same thing.
const SYNONYMS: Record<string, string> = {
  uses: 'relies on',
  provides: 'offers',
  allows: 'lets',
  creates: 'builds',
  requires: 'needs',
  contains: 'holds',
  describes: 'defines',
  starts: 'launches',
  runs: 'executes',
  shows: 'displays',
  helps: 'assists',
  lets: 'allows',
  makes: 'renders',
  gives: 'yields',
};
const SYNONYM = new RegExp(`\\b(?:${Object.keys(SYNONYMS).join('|')})\\b`);

/**
 * A faithful paraphrase, as a model that rewords without adding facts writes it: an opening "In short:", the first
 * verb it knows a synonym for replaced by it, and plural nouns made singular. Capitalised words (names) and short
 * words are left alone.
 */
export function paraphrase(sentence: string): string {
  const singular = sentence.replace(/(?<![\p{L}\p{N}])(\p{Ll}{4,})s(?![\p{L}\p{N}])/gu, (word, stem: string) =>
    /(?:ss|us|is|ys|ics)$/.test(word) || word in SYNONYMS ? word : stem,
  );
  const reworded = singular.replace(SYNONYM, (verb) => SYNONYMS[verb] ?? verb);
  return `In short: ${reworded}`;
}
