/**
 * The claims of one answer and their support (seed 002, "only information present in the retrieved context"):
 * every cited span, checked against the chunks it cites, and every uncited sentence that states a fact (a number or
 * a proper name), which has no evidence at all. Uncited connective sentences ("Here is how it works:") claim nothing.
 */

import type { ClaimSupport } from '../report/grounding-report.ts';
import { extractClaimTerms } from './claim-terms.ts';
import { assessClaim, carriesFacts, collectEvidence } from './support.ts';

/** A citation whose span was found in the response and whose every cited chunk was given to the model. */
export interface CheckableCitation {
  start: number;
  end: number;
  text: string;
  document_ids: readonly string[];
}

/** Assesses every claim of an answer; `sentences` are the answer's sentence spans, `chunkTexts` the given chunks. */
export function assessAnswerClaims(options: {
  text: string;
  sentences: readonly { start: number; end: number }[];
  citations: readonly CheckableCitation[];
  /** Every range a citation claims, valid or not: a sentence under a broken citation already fails as such. */
  claimedRanges: readonly { start: number; end: number }[];
  chunkTexts: Readonly<Record<string, string>>;
  minWordSupport: number;
}): ClaimSupport[] {
  const { text, citations, minWordSupport } = options;
  const cited: ClaimSupport[] = citations.map((citation) => {
    const evidence = collectEvidence(citation.document_ids.map((id) => options.chunkTexts[id] ?? ''));
    return {
      kind: 'cited_span',
      start: citation.start,
      end: citation.end,
      text: citation.text,
      chunk_ids: [...citation.document_ids],
      ...assessClaim({ claim: citation.text, evidence, minWordSupport }),
    };
  });
  const noEvidence = collectEvidence([]);
  const uncited: ClaimSupport[] = options.sentences
    .filter((s) => ![...citations, ...options.claimedRanges].some((c) => c.start < s.end && c.end > s.start))
    .flatMap((s) => {
      const sentence = text.slice(s.start, s.end);
      const terms = extractClaimTerms(sentence);
      if (!carriesFacts(terms)) return [];
      return [
        {
          kind: 'uncited_sentence' as const,
          start: s.start,
          end: s.end,
          text: sentence,
          chunk_ids: [],
          ...assessClaim({ claim: terms, evidence: noEvidence, minWordSupport }),
        },
      ];
    });
  return [...cited, ...uncited].sort((a, b) => a.start - b.start || a.end - b.end);
}

/** One line a person reads to see why a claim is unsupported: the words, numbers and names that were not found. */
export function describeUnsupported(claim: ClaimSupport): string {
  const quoted = JSON.stringify(claim.text.length > 80 ? `${claim.text.slice(0, 80)}…` : claim.text);
  const facts = [...claim.missing_numbers, ...claim.missing_names];
  if (claim.kind === 'uncited_sentence')
    return `uncited sentence ${quoted} states ${facts.join(', ')} without a citation`;
  const unique = [...new Set([...facts, ...claim.missing_words])].join(', ');
  return `claim ${quoted} cites ${claim.chunk_ids.join(', ')}, which does not hold: ${unique} (${Math.round(claim.word_support * 100)}% of its words found)`;
}
