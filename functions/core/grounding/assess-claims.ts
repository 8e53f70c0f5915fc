/**
 * The claims of one answer and their support (seed 002, "only information present in the retrieved context"):
 * every sentence that carries a valid citation, checked whole against the chunks its citations name (so an uncited
 * tail, "... and it needs 64 GB of RAM", is checked too), and every uncited sentence that states a fact (a number or
 * a proper name), which has no evidence at all. Uncited connective sentences ("Here is how it works:") claim nothing.
 */

import type { ClaimSupport } from '../report/grounding-report.ts';
import { extractClaimTerms } from './claim-terms.ts';
import { describeJudgement } from './judge.ts';
import { ALL_SUPPORT_FEATURES, assessClaim, carriesFacts, collectEvidence, type SupportFeatures } from './support.ts';

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
  const evidenceOf = (ids: readonly string[]) =>
    collectEvidence(
      ids.map((id) => options.chunkTexts[id] ?? ''),
      features,
    );
  // The claim is the sentence a citation sits in (its uncited rest included), or, with wholeSentence off, the span.
  const cited: ClaimSupport[] = features.wholeSentence
    ? options.sentences.flatMap((s) => {
        const its = citations.filter((c) => overlaps(c, s));
        if (its.length === 0) return [];
        const ids = [...new Set(its.flatMap((c) => c.document_ids))];
        const sentence = text.slice(s.start, s.end);
        const assessed = assessClaim({ claim: sentence, evidence: evidenceOf(ids), minWordSupport, features });
        return [{ kind: 'cited_sentence' as const, ...s, text: sentence, chunk_ids: ids, ...assessed }];
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

/** One line a person reads to see why a claim is unsupported: what was not found, and what it says against. */
export function describeUnsupported(claim: ClaimSupport): string {
  if (claim.judge) return describeJudgement(claim, claim.judge);
  const quoted = JSON.stringify(claim.text.length > 80 ? `${claim.text.slice(0, 80)}…` : claim.text);
  const facts = [...claim.missing_numbers, ...claim.missing_names];
  if (claim.kind === 'uncited_sentence')
    return `uncited sentence ${quoted} states ${facts.join(', ')} without a citation`;
  const against = claim.polarity_conflicts.map((c) => `says ${c}`);
  const unique = [...new Set([...claim.missing_quantities, ...facts, ...claim.missing_words])];
  const parts = [...against, ...(unique.length > 0 ? [`not found: ${unique.join(', ')}`] : [])];
  return `claim ${quoted} cites ${claim.chunk_ids.join(', ')}, which does not hold: ${parts.join('; ')} (${Math.round(claim.word_support * 100)}% of its words found)`;
}
