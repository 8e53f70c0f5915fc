/**
 * The stand-in's answer rewrites, each a way a real model departs from its documents: inventing a number while
 * citing a real chunk, flipping a negation under a real citation, and paraphrasing faithfully (which a support check
 * must still accept).
 */

const NUMBER = /(?<![\p{L}\p{N}])\d+(?:[.,]\d+)*(?![\p{L}\p{N}])/u;

/**
 * The invented figure: 64 (or 128 where the sentence already says 64); a sentence without a number gets an invented
 * fact of its own, a clause with its own verb ("..., and it needs 64 GB of RAM"): a true fact beside a false one in
 * one sentence, for the judge to split and name.
 */
export function inventNumber(sentence: string): string {
  const number = sentence.match(NUMBER)?.[0];
  if (number !== undefined) return sentence.replace(NUMBER, number === '64' ? '128' : '64');
  return `${sentence.replace(/[.!?]+$/, '')}, and it needs 64 GB of RAM.`;
}

const AUXILIARY = /\b(is|are|was|were|can|will|must|should|does|do|has|have)\b/i;

/**
 * The sentence saying the opposite: a negation taken away ("cannot" -> "can", "is not" -> "is", "doesn't" ->
 * "does"), or one put after the first auxiliary ("is" -> "is not"); without either, the claim denied outright.
 */
export function flipNegation(sentence: string): string {
  if (/\bcannot\b/i.test(sentence)) return sentence.replace(/\b(c)annot\b/i, '$1an');
  if (/\b\w+ not\b/i.test(sentence) && AUXILIARY.test(sentence.match(/\b(\w+) not\b/i)?.[1] ?? ''))
    return sentence.replace(/\b(\w+) not\b/i, '$1');
  if (/\b(\w+)n't\b/i.test(sentence)) return sentence.replace(/\b(\w+)n't\b/i, '$1');
  if (AUXILIARY.test(sentence)) return sentence.replace(AUXILIARY, '$1 not');
  // A verb in the third person after its subject: "X implements Y" -> "X does not implement Y".
  const verb =
    /(?<=\S\s)(?<!ing\s)(?<!\b(?:by|on|in|with|for|to|from|at|as|[Tt]he|[Aa]n?|of|and|or|[Ii]ts|[Tt]heir|[Mm]any|[Ss]ome|[Aa]ll|[Bb]oth|[Tt]wo)\s)\b(\p{Ll}{3,}?)(es|s)\b(?=\s)/u;
  const found = sentence.match(verb);
  if (found && !/(?:ss|us|is)$/.test(found[0]))
    return sentence.replace(
      verb,
      (_, stem: string, ending: string) =>
        `does not ${ending === 'es' && !/(?:ch|sh|x|ss|o)$/.test(stem) ? `${stem}e` : stem}`,
    );
  return `It is not true that ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}`;
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
