/**
 * The stand-in's tokenizer: word tokens (what is billed), and content terms (what is embedded and matched), which are
 * word tokens without English stop words, reduced by a light stemmer so "nodes", "node" and "noding" meet.
 */

import { STOP_WORDS } from './stop-words.ts';

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
const MIN_STEM = 3;

/** Lowercase word tokens in order; their count is what the stand-in bills as tokens. */
export function tokenizeWords(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/**
 * Content terms in order: word tokens minus stop words and single characters (the "2" of "ROS 2" is everywhere in
 * the book and says nothing), stemmed; possessives and contractions are cut first.
 */
export function extractTerms(text: string): string[] {
  const terms: string[] = [];
  for (const word of tokenizeWords(text)) {
    const bare = word.replace(/['’].*$/u, '');
    if (bare.length < 2 || STOP_WORDS.has(bare)) continue;
    terms.push(stemWord(bare));
  }
  return terms;
}

// Tried in order; the first whose remaining stem keeps MIN_STEM letters wins. Longer endings come first so that
// "navigation", "navigated", "navigating" and "navigate" all reduce to "navig".
const SUFFIXES = ['ational', 'ation', 'ating', 'ated', 'ition', 'ment', 'ate', 'ion', 'ing', 'ed'];

/** Reduces a lowercase word to a crude stem: plurals, then one derivational or inflectional ending, then a final e. */
export function stemWord(word: string): string {
  if (word.length <= MIN_STEM || /^\p{N}+$/u.test(word)) return word;
  let stem = stripPlural(word);
  for (const suffix of SUFFIXES) {
    if (stem.endsWith(suffix) && stem.length - suffix.length >= MIN_STEM) {
      stem = undouble(stem.slice(0, -suffix.length));
      break;
    }
  }
  if (stem.endsWith('e') && stem.length > MIN_STEM) stem = stem.slice(0, -1);
  return stem;
}

function stripPlural(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word) && word.length > MIN_STEM) return word.slice(0, -1);
  return word;
}

// "mapping" -> "mapp" -> "map", "planned" -> "plann" -> "plan"; ll/ss/zz are kept ("install", "process").
function undouble(stem: string): string {
  return /([b-df-hj-kmnp-rtv-y])\1$/.test(stem) ? stem.slice(0, -1) : stem;
}
