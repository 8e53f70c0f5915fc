/**
 * What a claim asserts, reduced to terms a reader can check by eye: its content words (stemmed), its numbers and its
 * proper names. The support check (support.ts) looks each of them up in the text of the chunks the claim cites.
 */
import { stemmer } from 'stemmer';
import IRREGULAR_FORMS from './irregular-forms.json' with { type: 'json' };
import { isNumberWord, isUnitWord, statedNumbers } from './quantities.ts';
import SYNONYM_GROUPS from './synonyms.json' with { type: 'json' };

/** The terms of one piece of text. */
export interface ClaimTerms {
  /**
   * Distinct content words (by stem) in order of first appearance: as written, lowercased and Porter-stemmed, and the
   * stem of its base form when it is an irregular inflection ("lost" -> "lose"; baseStem), its stem otherwise.
   */
  words: { word: string; stem: string; base: string }[];
  /** Distinct numbers as written, thousands separators removed ("1,000" -> "1000", "22.04" stays). */
  numbers: string[];
  /** Distinct proper names as written (see isProperName), in order of first appearance. */
  names: string[];
}

/**
 * Function words, question words and discourse markers ("in short", "for example", "moreover") of English: they carry
 * no claim. The usual retrieval list (close to NLTK's and Lucene's) plus the markers; contractions are matched on their
 * stem ("don't" -> "don").
 */
const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are aren as at be because been before being below between
  both but by can cannot could couldn did didn do does doesn doing don down during each either else etc ever every few
  for from further get gets got had hadn has hasn have haven having he her here hers herself him himself his how however
  i if in into is isn it its itself just let ll me might more most must mustn my myself need no nor not now of off on
  once only or other ought our ours ourselves out over own per please re same shall shan she should shouldn so some such
  than that the their theirs them themselves then there these they this those through thus to too under until up upon
  us use used using ve very via was wasn we were weren what whatever when where whether which while who whom whose why
  will with within without won would wouldn yes yet you your yours yourself yourselves
  additionally briefly essentially example finally furthermore hence instance moreover namely overall short summary
  therefore
  although despite since though unless unlike whereas
  arent cant couldnt didnt doesnt dont hadnt hasnt havent isnt mustnt neednt shouldnt wasnt werent wont wouldnt`.split(
    /\s+/,
  ),
);

// A standalone number: digits with optional decimal or thousands groups, not glued to letters ("Nav2" is a name).
const NUMBER = /(?<![\p{L}\p{N}])\d+(?:[.,]\d+)*(?![\p{L}\p{N}])/gu;
const WORD = /[\p{L}\p{N}]+(?:['’]\p{L}+)?/gu;
// Where a sentence starts inside a claim: its first word, or a word after . ! ? or a colon.
const SENTENCE_START = /(?:^|[.!?:]\s+)$/u;

/** How numbers are read (each switch is one feature of the support check, so the bench can ablate it). */
export interface NumberReading {
  /** Numbers spelled out ("five", "twenty-five") are numbers, not content words. */
  numberWords: boolean;
  /** Units after a number ("GB", "minutes") are compared as quantities (support.ts), not as content words. */
  units: boolean;
  /** The evidence side: "a second" and a lone "one" read as numbers too (reading one too many only helps a claim). */
  lenient?: boolean;
}
const DIGITS_ONLY: NumberReading = { numberWords: false, units: false };

/** True when a lowercase word carries meaning: not a function word, a marker or a bare number. */
export function isContentWord(lower: string): boolean {
  return lower.length >= 2 && !STOP_WORDS.has(lower) && !/^\p{N}+$/u.test(lower);
}

/** The terms of `text`: content words, numbers and proper names. */
export function extractClaimTerms(text: string, reading: NumberReading = DIGITS_ONLY): ClaimTerms {
  const numbers = new Set<string>();
  if (reading.numberWords) for (const n of statedNumbers(text, { lenient: reading.lenient })) numbers.add(n);
  else for (const match of text.matchAll(NUMBER)) numbers.add(normaliseNumber(match[0]));
  const words = new Map<string, string>();
  const names = new Set<string>();
  for (const match of text.matchAll(WORD)) {
    const token = match[0].replace(/['’]\p{L}+$/u, '');
    const lower = token.toLowerCase();
    if (!isContentWord(lower)) continue;
    if ((reading.numberWords && isNumberWord(lower)) || (reading.units && isUnitWord(lower))) continue;
    const stem = stemWord(lower);
    if (!words.has(stem)) words.set(stem, token);
    if (isProperName(token, SENTENCE_START.test(text.slice(0, match.index)))) names.add(token);
  }
  return {
    words: [...words].map(([stem, word]) => ({ word, stem, base: baseStem(word.toLowerCase()) })),
    numbers: [...numbers],
    names: [...names],
  };
}

/**
 * A proper name: a word with a capital after its first letter or with a digit (ROS, URDF, LiDAR, Nav2), or a
 * capitalised word that does not start a sentence (Gazebo, Ubuntu, Isaac). A capitalised first word is ambiguous
 * ("Nodes exchange data"), so it counts as a content word only.
 */
export function isProperName(token: string, startsSentence: boolean): boolean {
  if (!/^\p{Lu}/u.test(token)) return /\p{Lu}/u.test(token.slice(1));
  if (/\p{Lu}|\p{N}/u.test(token.slice(1))) return true;
  return !startsSentence;
}

/** Irregular inflections and their base forms, from WordNet's exception lists (scripts/irregular-forms.ts). */
const IRREGULAR: Readonly<Record<string, string>> = IRREGULAR_FORMS;

/**
 * The Porter stem of a lowercase word's base form: "lost" and "loses" -> "lose", "held" -> "hold", "indices" ->
 * "index", where the stemmer alone leaves them apart ("lost", "held", "indic"). Other words: their stem.
 */
export function baseStem(word: string): string {
  return stemmer(Object.hasOwn(IRREGULAR, word) ? (IRREGULAR[word] ?? word) : word);
}

/**
 * Stem -> the stems of its synonyms, for groups of words that are synonyms of each other (synonyms.json): each word's
 * stem maps to the other words' stems of every group it is in, never to itself.
 */
export function synonymIndex(groups: readonly (readonly string[])[]): Map<string, Set<string>> {
  const index = new Map<string, Set<string>>();
  for (const group of groups) {
    const stems = group.map((w) => stemmer(w));
    for (const s of stems) {
      const known = index.get(s) ?? new Set<string>();
      for (const other of stems) if (other !== s) known.add(other);
      index.set(s, known);
    }
  }
  return index;
}

/** synonyms.json's index, built on first use: a run may check no claim at all. */
let synonymsByStem: Map<string, Set<string>> | undefined;
const NO_SYNONYMS: ReadonlySet<string> = new Set();

/**
 * The stems of the words WordNet gives as synonyms of a stem in a common sense, itself left out: "suppli" (supplies)
 * -> "provid", "furnish", ...; "quick" -> "fast", "speedi", .... Empty for a word it does not list. Stems, not words,
 * since the claim's words are compared by stem: a group joins every inflection of its words.
 */
export function synonymStems(stem: string): ReadonlySet<string> {
  synonymsByStem ??= synonymIndex(SYNONYM_GROUPS);
  return synonymsByStem.get(stem) ?? NO_SYNONYMS;
}

/** The Porter stem of a lowercase word ("publishing", "publishes", "published" -> "publish"). */
export function stemWord(word: string): string {
  return stemmer(word);
}

function normaliseNumber(raw: string): string {
  return raw.replace(/,(?=\d{3}(?:\D|$))/g, '');
}
