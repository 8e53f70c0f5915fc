/**
 * Seed 002: an answer "must only contain information present in the retrieved context". A claim is supported when
 * the chunks it cites hold what it asserts: every number, every proper name, and at least MIN_WORD_SUPPORT of its
 * content words (stemmed). Deterministic and explainable: a claim that fails says which words were not found.
 */
import { type ClaimTerms, extractClaimTerms, stemWord } from './claim-terms.ts';

/**
 * The share of a claim's content words that the cited text must hold. Set from the sample book with
 * `npm run bench:support` (docs/GROUNDING.md has the figures): every sentence scores 1 against its own chunk; the
 * stand-in's faithful paraphrase (a synonym, singulars, an opening marker) scores at least 2/3, so 0.65 lets every
 * one of them pass (0.7 would fail 4 of 614); a sentence checked against another chunk scores under 0.57 in 99 cases
 * of 100, and 336 of 54,646 such pairs (0.6 %) reach 0.65 with their numbers and names found.
 */
export const DEFAULT_MIN_WORD_SUPPORT = 0.65;

/** How one claim fares against the text it cites. */
export interface ClaimAssessment {
  supported: boolean;
  /** Share of the claim's content words found in the cited text; 1 when it has none (numbers and names decide). */
  word_support: number;
  content_words: number;
  missing_words: string[];
  missing_numbers: string[];
  missing_names: string[];
}

/** The terms of the cited text that a claim's terms are looked up in. */
export interface EvidenceTerms {
  stems: ReadonlySet<string>;
  numbers: ReadonlySet<string>;
}

/** Reduces cited chunk texts to the stems and numbers a claim is checked against. */
export function collectEvidence(texts: readonly string[]): EvidenceTerms {
  const terms = texts.map(extractClaimTerms);
  return {
    stems: new Set(terms.flatMap((t) => t.words.map((w) => w.stem))),
    numbers: new Set(terms.flatMap((t) => t.numbers)),
  };
}

/** Checks one claim (a cited span, or an uncited sentence against no evidence) against its evidence. */
export function assessClaim(options: {
  claim: string | ClaimTerms;
  evidence: EvidenceTerms;
  minWordSupport: number;
}): ClaimAssessment {
  const terms = typeof options.claim === 'string' ? extractClaimTerms(options.claim) : options.claim;
  const { stems, numbers } = options.evidence;
  const missingWords = terms.words.filter((w) => !stems.has(w.stem)).map((w) => w.word);
  const missingNumbers = terms.numbers.filter((n) => !numbers.has(n));
  const missingNames = terms.names.filter((name) => !stems.has(stemWord(name.toLowerCase())));
  const total = terms.words.length;
  const wordSupport = total === 0 ? 1 : (total - missingWords.length) / total;
  return {
    supported: missingNumbers.length === 0 && missingNames.length === 0 && wordSupport >= options.minWordSupport,
    word_support: wordSupport,
    content_words: total,
    missing_words: missingWords,
    missing_numbers: missingNumbers,
    missing_names: missingNames,
  };
}

/** True when a sentence states a fact a reader could check: a number or a proper name. Connectives state none. */
export function carriesFacts(terms: ClaimTerms): boolean {
  return terms.numbers.length > 0 || terms.names.length > 0;
}
