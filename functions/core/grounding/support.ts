/**
 * Seed 002: an answer "must only contain information present in the retrieved context". A claim is supported when
 * the chunks it cites hold what it asserts: every number (spelled out or in digits), every quantity with its unit,
 * every proper name, at least MIN_WORD_SUPPORT of its content words (stemmed), and none of its words under the
 * opposite polarity (polarity.ts). Deterministic and explainable: a claim that fails says what was not found.
 */
import { type ClaimTerms, extractClaimTerms, type NumberReading, stemWord } from './claim-terms.ts';
import { polarityConflicts } from './polarity.ts';
import { type Quantity, sameQuantity, statedQuantities } from './quantities.ts';

/**
 * The share of a claim's content words that the cited text must hold. Set from the sample book with
 * `npm run bench:support` (docs/GROUNDING.md has the figures): every sentence scores 1 against its own chunk; the
 * stand-in's faithful paraphrase (a synonym, singulars, an opening marker) scores at least 2/3, so 0.65 lets every
 * one of them pass (0.7 would fail 4 of 614); a sentence checked against another chunk scores under 0.57 in 99 cases
 * of 100, and 336 of 54,646 such pairs (0.6 %) reach 0.65 with their numbers and names found.
 */
export const DEFAULT_MIN_WORD_SUPPORT = 0.65;

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
}
export const ALL_SUPPORT_FEATURES: Readonly<SupportFeatures> = {
  wholeSentence: true,
  negation: true,
  antonyms: true,
  hedges: true,
  numberWords: true,
  numbersInPlace: true,
  units: true,
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
  const terms = texts.map((t) => extractClaimTerms(t, { ...readingOf(features), lenient: true }));
  return {
    stems: new Set(terms.flatMap((t) => t.words.map((w) => w.stem))),
    numbers: new Set(terms.flatMap((t) => t.numbers)),
    quantities: features.units ? texts.flatMap((t) => statedQuantities(t, { lenient: true })) : [],
    texts,
  };
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
  const missingWords = terms.words.filter((w) => !stems.has(w.stem)).map((w) => w.word);
  const quantities = text !== null && features.units ? statedQuantities(text) : [];
  const foundQuantities = quantities.filter((q) => options.evidence.quantities.some((e) => sameQuantity(q, e)));
  const missingQuantities = quantities.filter((q) => !foundQuantities.includes(q)).map((q) => `${q.raw} ${q.unit}`);
  // A number converted exactly to another unit ("1000 ms" for "a second") is found as its quantity.
  const convertedNumbers = new Set(foundQuantities.map((q) => q.number));
  const missingNumbers = terms.numbers.filter((n) => !numbers.has(n) && !convertedNumbers.has(n));
  const missingNames = terms.names.filter((name) => !stems.has(stemWord(name.toLowerCase())));
  const polarity = {
    antonyms: features.antonyms,
    hedges: features.hedges,
    numbers: features.numbersInPlace,
    ...(features.negation ? {} : { scope: 0 }),
  };
  const conflicts =
    text !== null && (features.negation || features.antonyms || features.hedges || features.numbersInPlace)
      ? polarityConflicts(text, options.evidence.texts, polarity)
      : [];
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

/** True when a sentence states a fact a reader could check: a number or a proper name. Connectives state none. */
export function carriesFacts(terms: ClaimTerms): boolean {
  return terms.numbers.length > 0 || terms.names.length > 0;
}
