/**
 * The claims of one answer and their support (seed 002, "only information present in the retrieved context"):
 * every sentence that carries a valid citation, checked whole against the chunks its citations name (so an uncited
 * tail, "... and it needs 64 GB of RAM", is checked too), and every uncited sentence that states a fact (a number or
 * a proper name), which has no evidence at all. Uncited connective sentences ("Here is how it works:") claim nothing.
 */

import type { ClaimSupport } from '../report/grounding-report.ts';
import { extractClaimTerms } from './claim-terms.ts';
import { describeJudgement } from './judge.ts';
import {
  ALL_SUPPORT_FEATURES,
  assessClaim,
  carriesFacts,
  collectEvidence,
  DEFAULT_MIN_TAIL_SUPPORT,
  type EvidenceTerms,
  holdsWord,
  MIN_TAIL_WORDS,
  MISATTRIBUTION_MARGIN,
  type SupportFeatures,
} from './support.ts';

/** A citation whose span was found in the response and whose every cited chunk was given to the model. */
export interface CheckableCitation {
  start: number;
  end: number;
  text: string;
  document_ids: readonly string[];
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) =>
  a.start < b.end && a.end > b.start;

/** Assesses every claim of an answer; `sentences` are the answer's sentence spans, `chunkTexts` the given chunks. */
export function assessAnswerClaims(options: {
  text: string;
  sentences: readonly { start: number; end: number }[];
  citations: readonly CheckableCitation[];
  /** Every range a citation claims, valid or not: a sentence under a broken citation already fails as such. */
  claimedRanges: readonly { start: number; end: number }[];
  chunkTexts: Readonly<Record<string, string>>;
  minWordSupport: number;
  features?: SupportFeatures;
}): ClaimSupport[] {
  const { text, citations, minWordSupport } = options;
  const features = options.features ?? ALL_SUPPORT_FEATURES;
  const givenIds = Object.keys(options.chunkTexts);
  // Each set of chunks is reduced once per answer: the better-chunk rule reads every given chunk for every claim.
  const reduced = new Map<string, EvidenceTerms>();
  const evidenceOf = (ids: readonly string[]) => {
    const key = ids.join('\n');
    const known = reduced.get(key);
    if (known) return known;
    const evidence = collectEvidence(
      ids.map((id) => options.chunkTexts[id] ?? ''),
      features,
    );
    reduced.set(key, evidence);
    return evidence;
  };
  // The claim is the sentence a citation sits in (its uncited rest included), or, with wholeSentence off, the span.
  const cited: ClaimSupport[] = features.wholeSentence
    ? options.sentences.flatMap((s) => {
        const its = citations.filter((c) => overlaps(c, s));
        if (its.length === 0) return [];
        const ids = [...new Set(its.flatMap((c) => c.document_ids))];
        const sentence = text.slice(s.start, s.end);
        const assessed = assessClaim({ claim: sentence, evidence: evidenceOf(ids), minWordSupport, features });
        const claim: ClaimSupport = { kind: 'cited_sentence', ...s, text: sentence, chunk_ids: ids, ...assessed };
        if (features.misattribution) withBetterChunk(claim, givenIds, evidenceOf, features);
        if (features.uncitedTail) withUncitedPart(claim, uncoveredText(text, s, its), evidenceOf(givenIds), features);
        return [claim];
      })
    : citations.map((citation) => ({
        kind: 'cited_span' as const,
        start: citation.start,
        end: citation.end,
        text: citation.text,
        chunk_ids: [...citation.document_ids],
        ...assessClaim({ claim: citation.text, evidence: evidenceOf(citation.document_ids), minWordSupport, features }),
      }));
  const noEvidence = collectEvidence([], features);
  const uncited: ClaimSupport[] = options.sentences
    .filter((s) => ![...citations, ...options.claimedRanges].some((c) => overlaps(c, s)))
    .flatMap((s) => {
      const sentence = text.slice(s.start, s.end);
      const terms = extractClaimTerms(sentence, features);
      if (!carriesFacts(terms)) return [];
      return [
        {
          kind: 'uncited_sentence' as const,
          start: s.start,
          end: s.end,
          text: sentence,
          chunk_ids: [],
          ...assessClaim({ claim: terms, evidence: noEvidence, minWordSupport, features }),
        },
      ];
    });
  return [...cited, ...uncited].sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * The words of a sentence that no citation covers, each covered character replaced by a space (so the words on either
 * side of a citation do not run together); "" when the citations cover every letter.
 */
function uncoveredText(
  text: string,
  sentence: { start: number; end: number },
  citations: readonly { start: number; end: number }[],
): string {
  let out = '';
  for (let k = sentence.start; k < sentence.end; k++)
    out += citations.some((c) => c.start <= k && k < c.end) ? ' ' : text[k];
  return out.replace(/\s+/g, ' ').trim();
}

/**
 * Checks the uncited part of a cited sentence as a claim of its own against every chunk the model was given, at the
 * stricter DEFAULT_MIN_TAIL_SUPPORT, and fails the claim when it is not supported. A part with fewer than
 * MIN_TAIL_WORDS content words is a connective: left alone, or held to its numbers and names when it states some.
 */
/**
 * Words by which an answer names its source or reports it ("The book recommends ...", "according to the manual"). In
 * the uncited part of a cited sentence they attribute the cited claim to the text; they claim nothing of their own.
 */
const ATTRIBUTION =
  /\b(?:the\s+)?(?:book|chapter|manual|documentation|docs|guide|tutorial|course|author|according|recommends?|recommended|says|said|explains?|explained|suggests?|suggested|advises?|advised|warns?|warned|mentions?|mentioned)\b/giu;

function withUncitedPart(
  claim: ClaimSupport,
  uncovered: string,
  evidence: EvidenceTerms,
  features: SupportFeatures,
): void {
  const part = features.attribution ? uncovered.replace(ATTRIBUTION, ' ') : uncovered;
  const terms = extractClaimTerms(part, features);
  const connective = terms.words.length < MIN_TAIL_WORDS;
  if (connective && !carriesFacts(terms)) return;
  // A connective that states a number or a name ("Three things:") is held to those alone.
  const minWordSupport = connective ? 0 : DEFAULT_MIN_TAIL_SUPPORT;
  const tail = assessClaim({ claim: part, evidence, minWordSupport, features });
  if (tail.supported) return;
  claim.supported = false;
  claim.uncited_part = {
    text: uncovered,
    word_support: tail.word_support,
    missing_words: tail.missing_words,
    missing_facts: [...tail.missing_quantities, ...tail.missing_numbers, ...tail.missing_names],
    polarity_conflicts: tail.polarity_conflicts,
  };
}

/**
 * Fails a claim its cited chunks support, when another chunk the model was given holds MISATTRIBUTION_MARGIN more of
 * its content words: the claim restates that chunk and cites the wrong one (a sentence of another module, the
 * `cite_other_document` misbehaviour). A low word-support threshold lets rewordings pass; this keeps it from letting
 * a wrong citation pass with them.
 */
function withBetterChunk(
  claim: ClaimSupport,
  givenIds: readonly string[],
  evidenceOf: (ids: readonly string[]) => EvidenceTerms,
  features: SupportFeatures,
): void {
  if (!claim.supported) return;
  // Words only: the claim's numbers and names already passed against what it cites.
  const { words } = extractClaimTerms(claim.text, features);
  if (words.length === 0) return;
  let best: { chunk_id: string; word_support: number } | null = null;
  for (const id of givenIds) {
    if (claim.chunk_ids.includes(id)) continue;
    const evidence = evidenceOf([id]);
    const word_support = words.filter((w) => holdsWord(evidence, w, features)).length / words.length;
    if (best === null || word_support > best.word_support) best = { chunk_id: id, word_support };
  }
  // Shares are ratios of small counts: 3/5 - 2/5 must count as the 0.2 it is, not 0.19999999999999996.
  if (best === null || best.word_support - claim.word_support < MISATTRIBUTION_MARGIN - 1e-9) return;
  claim.supported = false;
  claim.better_chunk = best;
}

/** One line a person reads to see why a claim is unsupported: what was not found, and what it says against. */
export function describeUnsupported(claim: ClaimSupport): string {
  if (claim.judge) return describeJudgement(claim, claim.judge);
  const quoted = JSON.stringify(claim.text.length > 80 ? `${claim.text.slice(0, 80)}…` : claim.text);
  const facts = [...claim.missing_numbers, ...claim.missing_names];
  if (claim.kind === 'uncited_sentence')
    return `uncited sentence ${quoted} states ${facts.join(', ')} without a citation`;
  const against = claim.polarity_conflicts.map((c) => `says ${c}`);
  const unique = [...new Set([...claim.missing_quantities, ...facts, ...claim.missing_words])];
  const tail = claim.uncited_part;
  const better = claim.better_chunk;
  const parts = [
    ...against,
    ...(unique.length > 0 ? [`not found: ${unique.join(', ')}`] : []),
    ...(better
      ? [`${better.chunk_id} holds ${Math.round(better.word_support * 100)}% of its words, more than what it cites`]
      : []),
    ...(tail
      ? [
          `its uncited part ${JSON.stringify(tail.text)} is not in the chunks given (${[
            ...tail.polarity_conflicts.map((c) => `says ${c}`),
            ...new Set([...tail.missing_facts, ...tail.missing_words]),
          ].join(', ')})`,
        ]
      : []),
  ];
  return `claim ${quoted} cites ${claim.chunk_ids.join(', ')}, which does not hold: ${parts.join('; ')} (${Math.round(claim.word_support * 100)}% of its words found)`;
}
