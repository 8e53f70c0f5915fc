/**
 * Seed 002: an answer "must only contain information present in the retrieved context". A claim is supported when
 * the chunks it cites hold what it asserts: every number (spelled out or in digits), every quantity with its unit,
 * every proper name, at least MIN_WORD_SUPPORT of its content words (stemmed), and none of its words under the
 * opposite polarity (polarity.ts). Deterministic and explainable: a claim that fails says what was not found.
 */
import { type ClaimTerms, extractClaimTerms, type NumberReading, stemWord, synonymStems } from './claim-terms.ts';
import { exchangedFigures, movedRanges } from './figures.ts';
import { polarityConflicts } from './polarity.ts';
import { numberSpans, type Quantity, sameQuantity, statedQuantities } from './quantities.ts';

/**
 * The share of a claim's content words that the cited text must hold. Tuned on the grounding evaluation set's `dev`
 * half (docs/GROUNDING.md): with the rules below on, every threshold from 0.2 to 0.5 catches the same unsupported
 * claims there (the wrong citation is caught by the better chunk, the invented fact by its number, name or tail),
 * while each step up flags more faithful rewordings (10.9 % at 0.25, 18.2 % at 0.4, 41.8 % at the former 0.65): a word
 * count cannot know that "sluggish" is "slow". 0.25 still fails a claim that shares almost nothing with what it
 * cites, whatever the other chunks say.
 */
export const DEFAULT_MIN_WORD_SUPPORT = 0.25;

/**
 * The share of content words that the uncited part of a cited sentence must find in the chunks the model was given.
 * Stricter than the cited part's: nothing vouches for it, and an invented fact added to a cited clause ("..., and it
 * needs root privileges") shares few words with any chunk. 0.7 to 0.8 catch the same tails on `dev`; 0.75 sits between.
 */
export const DEFAULT_MIN_TAIL_SUPPORT = 0.75;

/** An uncited part with fewer content words than this is a connective ("No:", "In short,"), not a claim. */
export const MIN_TAIL_WORDS = 2;

/**
 * How much more of a claim's content words another chunk the model was given must hold than the chunks it cites for
 * the claim to count as cited to the wrong chunk. 0.1 to 0.3 catch the same wrong citations on `dev`; 0.2 flags one
 * faithful rewording fewer than 0.1.
 */
export const MISATTRIBUTION_MARGIN = 0.2;

/**
 * What the support check reads beyond a word count, each switchable so the evaluation bench can show what it is worth
 * (docs/GROUNDING.md): all on by default.
 */
export interface SupportFeatures {
  /** A cited sentence is checked whole, its uncited tail too, not only the span its citation covers. */
  wholeSentence: boolean;
  /** A word negated in the claim and not in the evidence (or the reverse) fails the claim. */
  negation: boolean;
  /** A word whose antonym stands in the evidence instead ("required" / "optional") fails the claim. */
  antonyms: boolean;
  /** A claim that states as a fact what the evidence hedges ("will fail" for "may fail") fails. */
  hedges: boolean;
  /** Numbers spelled out are numbers ("five modules" needs a 5). */
  numberWords: boolean;
  /** A number must be in the evidence sentence its clause restates, not only somewhere in the chunk (polarity.ts). */
  numbersInPlace: boolean;
  /** A number's unit is compared by dimension and value ("16 MB" is not "16 GB"; "1000 ms" is "a second"). */
  units: boolean;
  /**
   * The part of a cited sentence no citation covers ("[Nav2 is the navigation framework], and it needs root") is also
   * checked as a claim of its own, against every chunk the model was given, at DEFAULT_MIN_TAIL_SUPPORT.
   */
  uncitedTail: boolean;
  /**
   * A word the claim states with one polarity and the cited text only with the other fails the claim wherever the
   * text states it ("can be rescued" against "..., and it cannot be rescued safely"), not only in the sentence the
   * claim's clause is aligned with (polarity.ts).
   */
  polarityAnywhere: boolean;
  /** A claim that another chunk the model was given holds much better than the chunks it cites is a wrong citation. */
  misattribution: boolean;
  /**
   * Two of the claim's numbers whose labels (the words just before each) the cited text gives the other way round
   * fail the claim: "the inflation radius is 0.35 and the robot radius 0.6" against "robot_radius: 0.35 ...
   * inflation_radius: 0.6" (figures.ts).
   */
  figureLabels: boolean;
  /** A range of the claim must be a range of the cited text, end for end ("two to three" is not "four to six"). */
  ranges: boolean;
  /**
   * A denial that leaves its verb phrase out ("A wheeled base executes a twist directly. A humanoid cannot") denies
   * that phrase of its own subject: a claim that names that subject must deny it too, and is not held to the sentence
   * that states it of the other subject (polarity.ts).
   */
  ellipsis: boolean;
  /**
   * Words of absence ("removes the single point of failure", "free of lumps") agree with a denial ("no single point of
   * failure"): the word they govern is compared with neither polarity (polarity.ts).
   */
  absence: boolean;
  /**
   * Words that name or report the source ("The book recommends", "according to the manual") are left out of the
   * uncited part of a cited sentence: they attribute the cited claim, they add none (assess-claims.ts).
   */
  attribution: boolean;
  /**
   * A verb with a particle after it ("keeps microbes out", "turns it off") is not held to the plain verb's antonyms
   * ("keeps" / "stops"): the particle makes it another verb (polarity.ts).
   */
  particles: boolean;
  /**
   * A claim and its evidence that both deny, at different words of the clause, agree: "humanoids have no wheel
   * odometry" against "Wheel odometry is not available", "Neither bzip2 nor bunzip2 overwrites" against "bzip2 and
   * bunzip2 will not overwrite". A word is held to the other side's denial only when its own clause denies nothing
   * (polarity.ts).
   */
  sharedDenial: boolean;
  /**
   * sharedDenial pairs denials one to one: a denial both sides make at the same word is matched, and excuses no other
   * word ("won't work without modification" against "should work without modification"; "can run without any config
   * files and will compile" against "can run without any config files, but it will not compile") (polarity.ts).
   */
  pairedDenial: boolean;
  /** "dont", "isnt", "cant" written without their apostrophe are denials, as "don't" is (polarity.ts). */
  bareContractions: boolean;
  /** "non-" written with its hyphen denies the word it joins: "non-RTX machines" are machines without RTX (polarity.ts). */
  nonPrefix: boolean;
  /**
   * A name in capitals is found where the cited text spells it out, word by word ("VM" for "virtual machine", "NFS"
   * for "network file system"): the same name, abbreviated. As a name, and as a word of the word share.
   */
  acronyms: boolean;
  /**
   * A dash between two numbers ("rest it 20–30 minutes", "1–3 hours") is a range, not a break between clauses: the
   * numbers stay in the clause that restates their sentence (polarity.ts).
   */
  dashRanges: boolean;
  /**
   * A sentence that states a word both ways ("ROS 2, the Robot Operating System, is not an operating system") is
   * read in the clause of it that restates the claim's clause: "ROS 2 is an operating system" fails (polarity.ts).
   */
  closestClause: boolean;
  /** A setting stated "on" where the cited text says it is "off" (or the reverse) fails the claim (polarity.ts). */
  onOff: boolean;
  /**
   * A number of the claim that its matched sentence states in another clause than the one that restates the claim's,
   * which states a number the claim lacks, fails: "alert when latency stays above 50 ms for fifteen minutes" against
   * "... above 50 ms for 5 minutes, or when a shard stays under-replicated for more than 15 minutes" (polarity.ts).
   */
  numbersInClause: boolean;
  /**
   * A content word is found as an irregular inflection of the same base ("loses" for "lost", "held" for "holds",
   * "indices" for "index"), from WordNet's exception lists (claim-terms.ts). For the word share only: never a number,
   * a name or a polarity.
   */
  irregularForms: boolean;
  /**
   * A number that counts the items the claim itself lists after a colon ("four dev dependencies: jest, typescript,
   * ts-jest and @types/jest") is the claim's own arithmetic, checked by its list, not a figure the cited text must
   * state: each listed item is still looked up as a word, number or name.
   */
  listCounts: boolean;
  /**
   * A month named in full is found as its abbreviation and the reverse ("September" / "Sept." / "Sep"), as a name and
   * as a word of the word share.
   */
  monthNames: boolean;
  /**
   * A content word is found as a synonym in a common sense ("supplies" for "provides", "plentiful" for "abundant",
   * "required" for "necessary"), from WordNet's synsets restricted to frequent, corpus-attested senses
   * (claim-terms.ts, scripts/synonyms.ts). For the word share only: never a number, a name or a polarity.
   */
  synonyms: boolean;
}
export const ALL_SUPPORT_FEATURES: Readonly<SupportFeatures> = {
  wholeSentence: true,
  negation: true,
  antonyms: true,
  hedges: true,
  numberWords: true,
  numbersInPlace: true,
  units: true,
  uncitedTail: true,
  polarityAnywhere: true,
  misattribution: true,
  figureLabels: true,
  ranges: true,
  ellipsis: true,
  absence: true,
  attribution: true,
  particles: true,
  sharedDenial: true,
  pairedDenial: true,
  bareContractions: true,
  nonPrefix: true,
  acronyms: true,
  dashRanges: true,
  closestClause: true,
  onOff: true,
  numbersInClause: true,
  irregularForms: true,
  listCounts: true,
  monthNames: true,
  synonyms: true,
};

/** How one claim fares against the text it cites. */
export interface ClaimAssessment {
  supported: boolean;
  /** Share of the claim's content words found in the cited text; 1 when it has none (numbers and names decide). */
  word_support: number;
  content_words: number;
  missing_words: string[];
  missing_numbers: string[];
  missing_names: string[];
  /** Quantities of the claim the cited text does not state in any unit ("16 MB" against "16 GB"). */
  missing_quantities: string[];
  /** What the claim says against the cited text (polarity.ts): "support / not support", "will / may (...)", "4.4 / 4.2 4.3". */
  polarity_conflicts: string[];
}

/** The terms of the cited text that a claim's terms are looked up in. */
export interface EvidenceTerms {
  stems: ReadonlySet<string>;
  /** The stems of its words' base forms (ClaimTerms' `base`): "lost" gives "lose". */
  bases: ReadonlySet<string>;
  numbers: ReadonlySet<string>;
  quantities: readonly Quantity[];
  /** The cited texts themselves, for the polarity comparison. */
  texts: readonly string[];
}

const readingOf = (features: SupportFeatures): NumberReading => ({
  numberWords: features.numberWords,
  units: features.units,
});

/** Reduces cited chunk texts to the stems, numbers and quantities a claim is checked against. */
export function collectEvidence(
  texts: readonly string[],
  features: SupportFeatures = ALL_SUPPORT_FEATURES,
): EvidenceTerms {
  const read = texts.map((t) => readEvidenceText(t, features));
  return {
    stems: new Set(read.flatMap((r) => r.terms.words.map((w) => w.stem))),
    bases: new Set(read.flatMap((r) => r.terms.words.map((w) => w.base))),
    numbers: new Set(read.flatMap((r) => r.terms.numbers)),
    quantities: read.flatMap((r) => r.quantities),
    texts,
  };
}

/**
 * One chunk's terms, read once per text and reading: a chunk is read for every claim that cites it, and every chunk
 * given is read for each claim's uncited part and better-chunk check. Bounded, so a long run keeps few.
 */
const READ_EVIDENCE = new Map<string, { terms: ClaimTerms; quantities: Quantity[] }>();
const READ_EVIDENCE_MAX = 512;
function readEvidenceText(text: string, features: SupportFeatures): { terms: ClaimTerms; quantities: Quantity[] } {
  const key = `${features.numberWords ? 1 : 0}${features.units ? 1 : 0}\n${text}`;
  const known = READ_EVIDENCE.get(key);
  if (known) return known;
  if (READ_EVIDENCE.size >= READ_EVIDENCE_MAX) READ_EVIDENCE.clear();
  const read = {
    terms: extractClaimTerms(text, { ...readingOf(features), lenient: true }),
    quantities: features.units ? statedQuantities(text, { lenient: true }) : [],
  };
  READ_EVIDENCE.set(key, read);
  return read;
}

/** Checks one claim (a cited sentence, or an uncited sentence against no evidence) against its evidence. */
export function assessClaim(options: {
  claim: string | ClaimTerms;
  evidence: EvidenceTerms;
  minWordSupport: number;
  features?: SupportFeatures;
}): ClaimAssessment {
  const features = options.features ?? ALL_SUPPORT_FEATURES;
  const text = typeof options.claim === 'string' ? options.claim : null;
  const terms = text === null ? (options.claim as ClaimTerms) : extractClaimTerms(text, readingOf(features));
  const { stems, numbers } = options.evidence;
  const missingWords = terms.words.filter((w) => !holdsWord(options.evidence, w, features)).map((w) => w.word);
  const quantities = text !== null && features.units ? statedQuantities(text) : [];
  const foundQuantities = quantities.filter((q) => options.evidence.quantities.some((e) => sameQuantity(q, e)));
  const missingQuantities = quantities.filter((q) => !foundQuantities.includes(q)).map((q) => `${q.raw} ${q.unit}`);
  // A number converted exactly to another unit ("1000 ms" for "a second") is found as its quantity.
  const convertedNumbers = new Set(foundQuantities.map((q) => q.number));
  const counts = text !== null && features.listCounts ? listCounts(text) : NO_COUNTS;
  const missingNumbers = terms.numbers.filter((n) => !numbers.has(n) && !convertedNumbers.has(n) && !counts.has(n));
  const missingNames = terms.names.filter(
    (name) =>
      !stems.has(stemWord(name.toLowerCase())) &&
      !(features.monthNames && options.evidence.texts.some((t) => namesMonth(name, t))) &&
      !(features.acronyms && options.evidence.texts.some((t) => spellsOut(name, t))),
  );
  const polarity = {
    anywhere: features.polarityAnywhere,
    ellipsis: features.ellipsis,
    absence: features.absence,
    particles: features.particles,
    sharedDenial: features.sharedDenial,
    pairedDenial: features.pairedDenial,
    bareContractions: features.bareContractions,
    nonPrefix: features.nonPrefix,
    dashRanges: features.dashRanges,
    closestClause: features.closestClause,
    onOff: features.onOff,
    numbersInClause: features.numbersInClause,
    antonyms: features.antonyms,
    hedges: features.hedges,
    numbers: features.numbersInPlace,
    ...(features.negation ? {} : { scope: 0 }),
  };
  // With every polarity feature off this finds nothing (scope 0, no antonyms, hedges, numbers or ellipsis).
  const conflicts = text === null ? [] : polarityConflicts(text, options.evidence.texts, polarity);
  if (text !== null && features.figureLabels) conflicts.push(...exchangedFigures(text, options.evidence.texts));
  if (text !== null && features.ranges) conflicts.push(...movedRanges(text, options.evidence.texts));
  const total = terms.words.length;
  const wordSupport = total === 0 ? 1 : (total - missingWords.length) / total;
  return {
    supported:
      missingNumbers.length === 0 &&
      missingNames.length === 0 &&
      missingQuantities.length === 0 &&
      conflicts.length === 0 &&
      wordSupport >= options.minWordSupport,
    word_support: wordSupport,
    content_words: total,
    missing_words: missingWords,
    missing_numbers: missingNumbers,
    missing_names: missingNames,
    missing_quantities: missingQuantities,
    polarity_conflicts: conflicts,
  };
}

/** The longest acronym read as one: beyond five letters a run of initials is a coincidence, not a name's spelling. */
export const MAX_ACRONYM_LETTERS = 5;

/**
 * Whether `text` spells out `name`, an acronym of two to MAX_ACRONYM_LETTERS capitals (a plural "s" aside): as that
 * many consecutive words, each starting with the next letter ("VM": "virtual machine", "WAL": "write-ahead log").
 */
export function spellsOut(name: string, text: string): boolean {
  const letters = name.replace(/s$/, '');
  if (!/^\p{Lu}+$/u.test(letters) || letters.length < 2 || letters.length > MAX_ACRONYM_LETTERS) return false;
  const words = [...letters].map((l) => `${l}\\p{L}*`).join(String.raw`[\s-]+`);
  return new RegExp(String.raw`(?<!\p{L})${words}(?!\p{L})`, 'iu').test(text);
}

/**
 * Whether the evidence holds a content word of a claim: its stem, its base form's (irregularForms), a synonym's
 * (synonyms), for an acronym its words spelled out ("VM": "virtual machine", acronyms), or for a month another of
 * its forms (monthNames).
 */
export function holdsWord(
  evidence: EvidenceTerms,
  word: ClaimTerms['words'][number],
  features: SupportFeatures = ALL_SUPPORT_FEATURES,
): boolean {
  return (
    evidence.stems.has(word.stem) ||
    (features.irregularForms && evidence.bases.has(word.base)) ||
    (features.synonyms && [...synonymStems(word.stem)].some((s) => evidence.stems.has(s))) ||
    (features.acronyms && evidence.texts.some((t) => spellsOut(word.word, t))) ||
    (features.monthNames && evidence.texts.some((t) => namesMonth(word.word, t)))
  );
}

const NO_COUNTS: ReadonlySet<string> = new Set();

/** The word just before a number that makes it a label, not a count: a capitalised word, or one that numbers things. */
const NUMBERED_BY =
  /(?:\p{Lu}[\p{L}\p{N}]*|\b(?:version|release|v|module|chapter|section|step|part|phase|stage|level|page|figure|table|issue|number|no|rule|item|option))\s*$/u;

/** The longest head a counted list may have between its number and its colon ("four optional TypeScript keys:"). */
export const MAX_COUNTED_HEAD_WORDS = 4;

/** After a number: its head of one to MAX_COUNTED_HEAD_WORDS words, a colon, and the list to the end of the clause. */
const COUNTED_LIST = new RegExp(
  String.raw`^(?:\s+[\p{L}\p{N}@/._'’-]+){1,${MAX_COUNTED_HEAD_WORDS}}\s*:\s*([^:;.!?]*(?:\.(?!\s|$)[^:;.!?]*)*)`,
  'u',
);

/**
 * The numbers of a claim that count the items it lists itself: a number, a head of one to MAX_COUNTED_HEAD_WORDS
 * words, a colon, and a list to the end of the clause whose items (split at commas, "and", "or") are that many:
 * "three error codes: 6059, 18002 and 18003" gives "3". A list that splits otherwise ("two routes: an ES value,
 * ideally ES2022 or ESNext, or ...") gives nothing: the number is then looked up as any other. Nor does a number that
 * names rather than counts, after a name or a word that numbers things ("ROS 2 packages: rclpy and rclcpp",
 * "version 2 features: ..."): that number is a fact of the text to find.
 */
export function listCounts(text: string): ReadonlySet<string> {
  const counts = new Set<string>();
  for (const span of numberSpans(text)) {
    if (NUMBERED_BY.test(text.slice(0, span.index))) continue;
    const head = COUNTED_LIST.exec(text.slice(span.end));
    const list = head?.[1];
    if (list === undefined) continue;
    // ", and" splits twice: the empty piece between is no item.
    const items = list.split(/,|\s(?:and|or)\s/u).filter((item) => item.trim() !== '');
    if (items.length >= 2 && String(items.length) === span.key) counts.add(span.key);
  }
  return counts;
}

/** Months and the short forms a text writes them in ("Sept." and "Sep" for September). */
const MONTHS: readonly (readonly string[])[] = [
  ['January', 'Jan'],
  ['February', 'Feb'],
  ['March', 'Mar'],
  ['April', 'Apr'],
  ['June', 'Jun'],
  ['July', 'Jul'],
  ['August', 'Aug'],
  ['September', 'Sept', 'Sep'],
  ['October', 'Oct'],
  ['November', 'Nov'],
  ['December', 'Dec'],
];
/** Each month's forms with the pattern that finds any of them as a whole word, built once. */
const MONTH_FORMS = MONTHS.map((forms) => ({
  forms,
  pattern: new RegExp(String.raw`(?<!\p{L})(?:${forms.join('|')})(?!\p{L})`, 'u'),
}));

/**
 * Whether `word` (a token, without a full stop) is a month (in full or short, capitalised as a month is) that `text` names in another of its forms:
 * "September" in "In Sept. 2018", "Nov" in "November 2024". Case-sensitive, so "mar" and "may" stay verbs. May has no
 * short form, so it is not listed: the word itself is found as any other.
 */
export function namesMonth(word: string, text: string): boolean {
  const month = MONTH_FORMS.find((m) => m.forms.includes(word));
  return month !== undefined && month.pattern.test(text);
}

/** True when a sentence states a fact a reader could check: a number or a proper name. Connectives state none. */
export function carriesFacts(terms: ClaimTerms): boolean {
  return terms.numbers.length > 0 || terms.names.length > 0;
}
