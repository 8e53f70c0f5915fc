/**
 * The grounding check: deterministic (the claim judge's verdicts, when the agent has one, come in as `judgements`
 * and are final for the claims they cover: judge.ts). An answer is grounded when it cites, every citation
 * names a chunk retrieved for that query, every cited span is where the citation says it is, enough of the answer's
 * sentences carry a citation, and every claim is supported by what it cites (assess-claims.ts). A question the book
 * cannot answer must get an abstention, and an answerable one must not.
 */

import type { AgentCitation, CheckVerdict, ClaimJudgement, GroundingVerdict } from '../report/grounding-report.ts';
import { assessAnswerClaims, type CheckableCitation, describeUnsupported } from './assess-claims.ts';
import { applyJudgements } from './judge.ts';
import { ALL_SUPPORT_FEATURES, DEFAULT_MIN_WORD_SUPPORT, type SupportFeatures } from './support.ts';

/**
 * Half the sentences: Cohere cites the fact-bearing spans, so a fully grounded answer still leaves connective
 * sentences ("Here is how it works:") and short wrap-ups uncited; requiring all of them would flag good answers,
 * while an answer with most of its sentences uncited is mostly claims without evidence.
 */
export const DEFAULT_MIN_COVERAGE = 0.5;

/**
 * How an abstention reads, matched on lowercased text with straight apostrophes. Refusal wording only: a phrase
 * such as "does not contain" alone is common in real answers, so the document-subject forms are spelled out.
 */
const ABSTENTION_PATTERNS: readonly RegExp[] = [
  /\bi (?:do not|don't) know\b/,
  /\bi (?:could not|couldn't|cannot|can't|was unable to|am unable to|did not|didn't) find\b/,
  /\b(?:cannot|can't|unable to|not able to) answer\b/,
  /\bno (?:relevant )?information (?:about|on|regarding|for|in|was)\b/,
  /\bno relevant (?:information|documents?|context)\b/,
  /\b(?:not enough|insufficient) information\b/,
  /\b(?:documents?|context|book|sources?|passages?) (?:do|does|did) ?(?:not|n't) (?:contain|include|provide|mention|cover|say|discuss|address|answer)\b/,
  /\bis not (?:mentioned|covered|discussed|addressed) in the (?:provided )?(?:documents?|context|book|sources?)\b/,
];

/** A half-open range of UTF-16 offsets into the response text. */
export interface Span {
  start: number;
  end: number;
}

/** Sentence spans of a text: split after . ! ? followed by a space or the end, and at line breaks; spans without a letter or digit are dropped. */
export function splitSentences(text: string): Span[] {
  const spans: Span[] = [];
  const push = (from: number, to: number) => {
    let s = from;
    let e = to;
    while (s < e && /\s/.test(text[s] ?? '')) s++;
    while (e > s && /\s/.test(text[e - 1] ?? '')) e--;
    if (/[\p{L}\p{N}]/u.test(text.slice(s, e))) spans.push({ start: s, end: e });
  };
  let start = 0;
  for (const match of text.matchAll(/[.!?]+(?=\s|$)|\n+/g)) {
    const end = match.index + match[0].length;
    push(start, end);
    start = end;
  }
  push(start, text.length);
  return spans;
}

/** True when the response reads as a refusal: in its first sentence, or anywhere when it cites nothing. */
export function detectAbstention(text: string, citationCount: number): boolean {
  const normalise = (s: string) =>
    s
      .toLowerCase()
      .replace(/[\u2018\u2019\u02bc]/g, "'")
      .replace(/\s+/g, ' ');
  const first = splitSentences(text)[0];
  const scope = citationCount === 0 ? text : first ? text.slice(first.start, first.end) : '';
  const haystack = normalise(scope);
  return ABSTENTION_PATTERNS.some((pattern) => pattern.test(haystack));
}

/**
 * Where a citation's text sits in the response, as UTF-16 offsets; null when its offsets do not hold its text.
 * Offsets counted in code points (as a Python service may count) are accepted too, so an emoji does not fail a
 * correct citation.
 */
export function locateCitation(text: string, citation: AgentCitation): Span | null {
  const { start, end } = citation;
  if (citation.text.length === 0 || start < 0 || end <= start) return null;
  if (text.slice(start, end) === citation.text) return { start, end };
  const points = Array.from(text);
  if (end <= points.length && points.slice(start, end).join('') === citation.text) {
    const utf16Start = points.slice(0, start).join('').length;
    return { start: utf16Start, end: utf16Start + citation.text.length };
  }
  return null;
}

/** What checkGrounding judges: a response, what was retrieved for it, and what the suite expects. */
export interface CheckGroundingOptions {
  response: { response_text: string; citations: AgentCitation[] };
  /** The chunks retrieved for this query and given to the model: it cannot honestly cite any other. */
  retrievedChunkIds: readonly string[];
  /** The text of each retrieved chunk, by id: what a cited span is checked against. */
  chunkTexts: Readonly<Record<string, string>>;
  expectAnswer: boolean;
  minCoverage?: number;
  minWordSupport?: number;
  /** What the support check reads beyond a word count (support.ts); all on unless switched off, as the bench's ablation does. */
  features?: Partial<SupportFeatures>;
  /** The claim judge's verdicts by claim span (judge.ts): a judged claim is supported exactly when the judge says so. */
  judgements?: ReadonlyMap<string, ClaimJudgement>;
  /**
   * The relevance gate abstained for the agent (no chunk reached min_relevance) and chat was never asked: on a
   * question the book cannot answer the abstention is NOT_APPLICABLE, since the model's own judgment was not tested.
   */
  gated?: boolean;
}

const verdict = (pass: boolean): CheckVerdict => (pass ? 'PASS' : 'FAIL');
const quote = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

/** Checks one response against what was retrieved for its query and what the suite expects of it. */
export function checkGrounding(options: CheckGroundingOptions): GroundingVerdict {
  const { response_text: text, citations } = options.response;
  const minCoverage = options.minCoverage ?? DEFAULT_MIN_COVERAGE;
  const minWordSupport = options.minWordSupport ?? DEFAULT_MIN_WORD_SUPPORT;
  const retrieved = new Set(options.retrievedChunkIds);
  const reasons: string[] = [];

  const unknown = new Set<string>();
  const validSpans: CheckableCitation[] = [];
  let spansOk = true;
  citations.forEach((citation, i) => {
    const label = `citation ${i + 1} (${citation.start}..${citation.end})`;
    if (citation.document_ids.length === 0) reasons.push(`${label} names no document`);
    const strangers = citation.document_ids.filter((id) => !retrieved.has(id));
    for (const id of strangers) unknown.add(id);
    if (strangers.length > 0) reasons.push(`${label} cites ${strangers.join(', ')}, not retrieved for this query`);
    const span = locateCitation(text, citation);
    if (span === null) {
      spansOk = false;
      const elsewhere = citation.text.length > 0 ? text.indexOf(citation.text) : -1;
      reasons.push(
        elsewhere >= 0
          ? `${label}: its text ${quote(citation.text)} is in the response at ${elsewhere}, not at its offsets`
          : `${label}: its text ${quote(citation.text)} does not appear in the response`,
      );
    } else if (citation.document_ids.length > 0 && strangers.length === 0) {
      validSpans.push({ ...span, text: text.slice(span.start, span.end), document_ids: citation.document_ids });
    }
  });
  const citationsRetrieved = unknown.size === 0 && citations.every((c) => c.document_ids.length > 0);

  const sentences = splitSentences(text);
  const covered = sentences.filter((s) => validSpans.some((c) => c.start < s.end && c.end > s.start)).length;
  const coverage = sentences.length === 0 ? 0 : covered / sentences.length;
  const gated = options.gated === true;
  const abstained = gated || detectAbstention(text, citations.length);
  const claims = abstained
    ? []
    : applyJudgements(
        assessAnswerClaims({
          text,
          sentences,
          citations: validSpans,
          claimedRanges: citations,
          chunkTexts: options.chunkTexts,
          minWordSupport,
          features: { ...ALL_SUPPORT_FEATURES, ...options.features },
        }),
        options.judgements,
      );
  const supportedClaims = claims.filter((c) => c.supported).length;

  const checks = {
    citations_present: abstained ? 'NOT_APPLICABLE' : verdict(citations.length > 0),
    citations_retrieved: verdict(citationsRetrieved),
    spans_match: verdict(spansOk),
    sentence_coverage: abstained ? 'NOT_APPLICABLE' : verdict(coverage >= minCoverage),
    claims_supported: abstained ? 'NOT_APPLICABLE' : verdict(supportedClaims === claims.length),
    abstention: gated && !options.expectAnswer ? 'NOT_APPLICABLE' : verdict(abstained !== options.expectAnswer),
  } satisfies GroundingVerdict['checks'];

  if (!abstained && text.trim().length === 0) reasons.push('the response is empty');
  else if (checks.citations_present === 'FAIL') reasons.push('the answer cites no retrieved chunk');
  if (checks.sentence_coverage === 'FAIL' && sentences.length > 0)
    reasons.push(`${covered} of ${sentences.length} sentences carry a valid citation (coverage under ${minCoverage})`);
  for (const claim of claims) if (!claim.supported) reasons.push(describeUnsupported(claim));
  if (abstained && options.expectAnswer) reasons.push('the agent abstained on a question the book can answer');
  if (!abstained && !options.expectAnswer) reasons.push('the agent answered a question the book cannot answer');

  const grounded = Object.entries(checks).every(([name, v]) => name === 'abstention' || v !== 'FAIL');
  const passed = grounded && checks.abstention !== 'FAIL';
  // Claims only: the citations themselves hold, so the finding is what they were made to support.
  const claimsOnly = Object.entries(checks).every(([name, v]) => name === 'claims_supported' || v !== 'FAIL');
  return {
    passed,
    grounded,
    abstained,
    gated,
    abstention_correct: checks.abstention === 'PASS',
    expect_answer: options.expectAnswer,
    citation_coverage: coverage,
    min_citation_coverage: minCoverage,
    sentences: sentences.length,
    covered_sentences: covered,
    unknown_chunk_ids: [...unknown],
    min_word_support: minWordSupport,
    support_ratio: claims.length === 0 ? null : supportedClaims / claims.length,
    claims,
    checks,
    reasons,
    // A broken citation outranks the abstention decision: it is the more serious finding.
    error_type: passed
      ? null
      : grounded && abstained
        ? 'NO_RELEVANT_DOCUMENTS'
        : claimsOnly && checks.claims_supported === 'FAIL'
          ? 'UNSUPPORTED_CLAIM'
          : 'GROUNDING_FAILED',
  };
}
