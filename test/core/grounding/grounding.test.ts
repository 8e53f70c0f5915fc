import { describe, expect, it } from 'vitest';
import {
  type CheckGroundingOptions,
  checkGrounding,
  detectAbstention,
  locateCitation,
  splitSentences,
} from '../../../functions/core/grounding/grounding.ts';
import { DEFAULT_MIN_WORD_SUPPORT } from '../../../functions/core/grounding/support.ts';
import type { AgentCitation } from '../../../functions/core/report/grounding-report.ts';

const ANSWER =
  'A ROS 2 node publishes messages on a topic. Subscribers receive every message published on that topic. ' +
  'Quality of service settings decide what happens when a subscriber falls behind.';

/** Every chunk holds the whole answer, so each test's citations are supported unless it says otherwise. */
const TEXTS = { c1: ANSWER, c2: ANSWER, c3: ANSWER };

/** A citation of `fragment`, at its first occurrence in `text`. */
/**
 * checkGrounding of `response_text` with its citations: TEXTS as the chunks, c1 retrieved and an answer expected
 * unless `more` says otherwise.
 */
function judge(response_text: string, citations: AgentCitation[], more: Partial<CheckGroundingOptions> = {}) {
  return checkGrounding({
    response: { response_text, citations },
    retrievedChunkIds: ['c1'],
    chunkTexts: TEXTS,
    expectAnswer: true,
    ...more,
  });
}

function cite(text: string, fragment: string, ...ids: string[]): AgentCitation {
  const start = text.indexOf(fragment);
  if (start < 0) throw new Error(`"${fragment}" is not in the text`);
  return { start, end: start + fragment.length, text: fragment, document_ids: ids };
}

const GROUNDED_CITATIONS = [
  cite(ANSWER, 'publishes messages on a topic', 'c1'),
  cite(ANSWER, 'receive every message published', 'c2'),
  cite(ANSWER, 'Quality of service settings', 'c1', 'c3'),
];

describe('checkGrounding', () => {
  it('passes an answer whose citations all name retrieved chunks, hold their text and cover every sentence', () => {
    // Act
    const verdict = judge(ANSWER, GROUNDED_CITATIONS, { retrievedChunkIds: ['c1', 'c2', 'c3'] });

    // Assess
    expect(verdict).toEqual({
      passed: true,
      grounded: true,
      abstained: false,
      gated: false,
      abstention_correct: true,
      expect_answer: true,
      citation_coverage: 1,
      min_citation_coverage: 0.5,
      sentences: 3,
      covered_sentences: 3,
      unknown_chunk_ids: [],
      min_word_support: DEFAULT_MIN_WORD_SUPPORT,
      support_ratio: 1,
      // Each citation sits in a sentence of its own: the claim is that whole sentence, against the chunks it cites.
      claims: splitSentences(ANSWER).map((s, i) => ({
        kind: 'cited_sentence',
        start: s.start,
        end: s.end,
        text: ANSWER.slice(s.start, s.end),
        chunk_ids: GROUNDED_CITATIONS[i]?.document_ids,
        supported: true,
        word_support: 1,
        content_words: [5, 5, 8][i],
        missing_words: [],
        missing_numbers: [],
        missing_names: [],
        missing_quantities: [],
        polarity_conflicts: [],
      })),
      checks: {
        citations_present: 'PASS',
        citations_retrieved: 'PASS',
        spans_match: 'PASS',
        sentence_coverage: 'PASS',
        claims_supported: 'PASS',
        abstention: 'PASS',
      },
      reasons: [],
      error_type: null,
    });
  });

  it('does not grade the gate’s abstention on a question the book cannot answer, and fails it on one the book can', () => {
    // Prepare: the relevance gate abstained; chat never saw the question.
    const text = 'I could not find anything in the book that answers this question.';

    // Act
    const unanswerable = judge(text, [], { expectAnswer: false, gated: true });
    const answerable = judge(text, [], { expectAnswer: true, gated: true });
    const byTheModel = judge(text, [], { expectAnswer: false });

    // Assess
    const pick = (v: typeof unanswerable) => [
      v.gated,
      v.abstained,
      v.checks.abstention,
      v.abstention_correct,
      v.passed,
    ];
    expect([pick(unanswerable), pick(answerable), pick(byTheModel)]).toEqual([
      [true, true, 'NOT_APPLICABLE', false, true],
      [true, true, 'FAIL', false, false],
      [false, true, 'PASS', true, true],
    ]);
    expect(answerable.error_type).toBe('NO_RELEVANT_DOCUMENTS');
  });

  it('fails an answer with no citation as GROUNDING_FAILED', () => {
    // Act
    const verdict = judge(ANSWER, []);

    // Assess
    expect(verdict).toMatchObject({
      passed: false,
      grounded: false,
      abstained: false,
      citation_coverage: 0,
      checks: { citations_present: 'FAIL', sentence_coverage: 'FAIL' },
      error_type: 'GROUNDING_FAILED',
    });
    expect(verdict.reasons).toContain('the answer cites no retrieved chunk');
  });

  it('fails a citation of a chunk that was not retrieved for the query and names that chunk', () => {
    // Prepare
    const citations = [...GROUNDED_CITATIONS.slice(0, 2), cite(ANSWER, 'Quality of service settings', 'c9')];

    // Act
    const verdict = checkGrounding({
      response: { response_text: ANSWER, citations },
      retrievedChunkIds: ['c1', 'c2'],
      chunkTexts: TEXTS,
      expectAnswer: true,
    });

    // Assess
    expect(verdict).toMatchObject({
      passed: false,
      grounded: false,
      unknown_chunk_ids: ['c9'],
      checks: { citations_retrieved: 'FAIL' },
      error_type: 'GROUNDING_FAILED',
    });
    expect(verdict.reasons[0]).toMatch(/citation 3 .* cites c9, not retrieved for this query/);
  });

  it('fails a citation that names no document at all', () => {
    // Act
    const verdict = judge(ANSWER, [cite(ANSWER, 'publishes messages on a topic')]);

    // Assess
    expect(verdict.checks.citations_retrieved).toBe('FAIL');
    expect(verdict.reasons[0]).toMatch(/citation 1 .* names no document/);
  });

  it('fails a citation whose offsets do not hold its text and says where the text really is', () => {
    // Prepare
    const honest = cite(ANSWER, 'publishes messages on a topic', 'c1');
    const shifted = { ...honest, start: honest.start + 1, end: honest.end + 1 };

    // Act
    const verdict = judge(ANSWER, [shifted, ...GROUNDED_CITATIONS.slice(1)], { retrievedChunkIds: ['c1', 'c2', 'c3'] });

    // Assess
    expect(verdict).toMatchObject({ passed: false, checks: { spans_match: 'FAIL' }, error_type: 'GROUNDING_FAILED' });
    expect(verdict.reasons).toEqual([
      `citation 1 (${shifted.start}..${shifted.end}): its text "publishes messages on a topic" is in the response at ${honest.start}, not at its offsets`,
    ]);
  });

  it('fails a citation whose text does not appear in the response at all', () => {
    // Prepare
    const invented = { start: 0, end: 10, text: 'DDS vendors', document_ids: ['c1'] };

    // Act
    const verdict = judge(ANSWER, [invented, ...GROUNDED_CITATIONS], { retrievedChunkIds: ['c1', 'c2', 'c3'] });

    // Assess
    expect(verdict.checks.spans_match).toBe('FAIL');
    expect(verdict.reasons).toEqual(['citation 1 (0..10): its text "DDS vendors" does not appear in the response']);
  });

  it('with whole sentences off (the ablation), judges the cited span itself', () => {
    const citation = cite(ANSWER, 'publishes messages on a topic', 'c1');
    const verdict = judge(ANSWER, [citation], { features: { wholeSentence: false } });
    expect(verdict.claims.map((c) => [c.kind, c.text])).toContainEqual(['cited_span', 'publishes messages on a topic']);
  });

  it('says a citation with empty text does not appear, rather than finding it at offset 0', () => {
    const empty = { start: 0, end: 5, text: '', document_ids: ['c1'] };
    const verdict = judge(ANSWER, [empty, ...GROUNDED_CITATIONS], { retrievedChunkIds: ['c1', 'c2', 'c3'] });
    expect(verdict.reasons).toEqual(['citation 1 (0..5): its text "" does not appear in the response']);
  });

  it('fails an answer whose citations cover fewer sentences than the minimum coverage', () => {
    // Act
    const verdict = judge(ANSWER, [GROUNDED_CITATIONS[0] as AgentCitation], { minCoverage: 0.5 });

    // Assess
    expect(verdict).toMatchObject({
      passed: false,
      covered_sentences: 1,
      sentences: 3,
      checks: { sentence_coverage: 'FAIL', citations_present: 'PASS', spans_match: 'PASS' },
      error_type: 'GROUNDING_FAILED',
    });
    expect(verdict.citation_coverage).toBeCloseTo(1 / 3);
  });

  it('passes an answer whose citations cover exactly the minimum coverage', () => {
    // Prepare: one of two sentences cited, against a minimum of one half.
    const text = 'Topics carry messages between nodes. That is all.';

    // Act
    const verdict = judge(text, [cite(text, 'Topics carry messages', 'c1')], { minCoverage: 0.5 });

    // Assess
    expect(verdict).toMatchObject({
      passed: true,
      citation_coverage: 0.5,
      covered_sentences: 1,
      sentences: 2,
      checks: { sentence_coverage: 'PASS' },
      reasons: [],
    });
  });

  it('counts a final sentence without end punctuation, so leaving it uncited lowers the coverage', () => {
    // Prepare: the second sentence has no full stop; citing only the first covers one of two.
    const text = 'Topics carry messages between nodes. Services answer requests';

    // Act
    const verdict = judge(text, [cite(text, 'Topics carry messages', 'c1')], { minCoverage: 0.6 });

    // Assess
    expect(verdict).toMatchObject({
      passed: false,
      sentences: 2,
      covered_sentences: 1,
      checks: { sentence_coverage: 'FAIL' },
      reasons: ['1 of 2 sentences carry a valid citation (coverage under 0.6)'],
    });
  });

  it('does not count a citation that starts where a sentence ends as covering that sentence', () => {
    // Prepare: the citation starts at the space right after the first sentence's full stop.
    const text = 'Topics carry messages. Services answer requests.';
    const start = text.indexOf(' Services');
    const citation = { start, end: text.length, text: text.slice(start), document_ids: ['c1'] };

    // Act
    const verdict = judge(text, [citation]);

    // Assess
    expect([verdict.covered_sentences, verdict.sentences]).toEqual([1, 2]);
  });

  it('does not count a citation that ends where a sentence starts as covering that sentence', () => {
    // Prepare: the citation ends right before the second sentence's first letter.
    const text = 'Topics carry messages. Services answer requests.';
    const end = text.indexOf('Services');
    const citation = { start: 0, end, text: text.slice(0, end), document_ids: ['c1'] };

    // Act
    const verdict = judge(text, [citation]);

    // Assess
    expect([verdict.covered_sentences, verdict.sentences]).toEqual([1, 2]);
  });

  it('does not count a sentence as covered by a citation of a chunk that was not retrieved', () => {
    // Act
    const verdict = checkGrounding({
      response: {
        response_text: ANSWER,
        citations: [cite(ANSWER, 'publishes messages', 'c1'), cite(ANSWER, 'Subscribers', 'c9')],
      },
      retrievedChunkIds: ['c1'],
      chunkTexts: TEXTS,
      expectAnswer: true,
    });

    // Assess
    expect(verdict.covered_sentences).toBe(1);
  });

  it('passes a correct abstention on a question the book cannot answer', () => {
    // Act
    const verdict = judge('I could not find information about that in the provided documents.', [], {
      expectAnswer: false,
    });

    // Assess
    expect(verdict).toMatchObject({
      passed: true,
      grounded: true,
      abstained: true,
      abstention_correct: true,
      checks: {
        citations_present: 'NOT_APPLICABLE',
        citations_retrieved: 'PASS',
        spans_match: 'PASS',
        sentence_coverage: 'NOT_APPLICABLE',
        abstention: 'PASS',
      },
      error_type: null,
    });
  });

  it('fails an abstention on a question the book can answer as NO_RELEVANT_DOCUMENTS', () => {
    // Act
    const verdict = judge("I don't know: the documents do not cover it.", []);

    // Assess
    expect(verdict).toMatchObject({
      passed: false,
      grounded: true,
      abstained: true,
      abstention_correct: false,
      checks: { abstention: 'FAIL' },
      reasons: ['the agent abstained on a question the book can answer'],
      error_type: 'NO_RELEVANT_DOCUMENTS',
    });
  });

  it('fails a grounded answer to a question the book cannot answer as GROUNDING_FAILED', () => {
    // Act
    const verdict = judge(ANSWER, GROUNDED_CITATIONS, { retrievedChunkIds: ['c1', 'c2', 'c3'], expectAnswer: false });

    // Assess
    expect(verdict).toMatchObject({
      passed: false,
      grounded: true,
      abstained: false,
      abstention_correct: false,
      checks: { abstention: 'FAIL' },
      reasons: ['the agent answered a question the book cannot answer'],
      error_type: 'GROUNDING_FAILED',
    });
  });

  it('reports a broken citation in an abstention as GROUNDING_FAILED rather than NO_RELEVANT_DOCUMENTS', () => {
    // Prepare
    const text = 'I could not find the answer. The book covers topics.';

    // Act
    const verdict = judge(text, [cite(text, 'covers topics', 'c9')]);

    // Assess
    expect(verdict).toMatchObject({ abstained: true, grounded: false, error_type: 'GROUNDING_FAILED' });
  });

  it('says an answer of whitespace only is empty', () => {
    // Act
    const verdict = judge('  \n ', []);

    // Assess
    expect(verdict.reasons).toEqual(['the response is empty']);
  });

  it('does not count a citation that names no document as covering its sentence', () => {
    // Prepare
    const text = 'Topics carry messages.';

    // Act
    const verdict = judge(text, [cite(text, 'Topics carry messages')]);

    // Assess
    expect([verdict.covered_sentences, verdict.checks.sentence_coverage]).toEqual([0, 'FAIL']);
  });

  it('names the chunks a citation cites that were not retrieved, in the reason', () => {
    // Prepare
    const text = 'Topics carry messages.';

    // Act
    const verdict = judge(text, [cite(text, 'Topics carry messages', 'c1', 'c8', 'c9')]);

    // Assess
    expect(verdict.reasons).toEqual([
      'citation 1 (0..21) cites c8, c9, not retrieved for this query',
      '0 of 1 sentences carry a valid citation (coverage under 0.5)',
    ]);
  });

  it('says a misplaced citation’s text is at offset 0 when it opens the response', () => {
    // Prepare
    const text = 'Topics carry messages. Topics are named.';
    const misplaced = { start: 1, end: 7, text: 'Topics', document_ids: ['c1'] };

    // Act
    const verdict = judge(text, [misplaced]);

    // Assess
    expect(verdict.reasons[0]).toBe('citation 1 (1..7): its text "Topics" is in the response at 0, not at its offsets');
  });

  it('cuts a long citation text to 60 characters in the reason', () => {
    // Prepare
    const long = 'x'.repeat(61);
    const exact = 'y'.repeat(60);

    // Act
    const verdict = checkGrounding({
      response: {
        response_text: 'Topics carry messages.',
        citations: [
          { start: 0, end: 61, text: long, document_ids: ['c1'] },
          { start: 0, end: 60, text: exact, document_ids: ['c1'] },
        ],
      },
      retrievedChunkIds: ['c1'],
      chunkTexts: TEXTS,
      expectAnswer: true,
    });

    // Assess
    expect(verdict.reasons.slice(0, 2)).toEqual([
      `citation 1 (0..61): its text "${'x'.repeat(60)}…" does not appear in the response`,
      `citation 2 (0..60): its text "${exact}" does not appear in the response`,
    ]);
  });

  it('fails an empty answer and says it is empty', () => {
    // Act
    const verdict = judge('', [], { retrievedChunkIds: [] });

    // Assess
    expect(verdict).toMatchObject({
      passed: false,
      sentences: 0,
      citation_coverage: 0,
      reasons: ['the response is empty'],
    });
  });
});

describe('detectAbstention', () => {
  it.each([
    'I could not find information about that in the provided documents.',
    'I could not find anything in the book that answers this question.',
    'I don’t know.',
    'The provided documents do not mention pricing.',
    'I cannot answer that from the book.',
    'There is no relevant information in the documents.',
    'This is not covered in the provided documents.',
    'There is no information about pricing in the book.',
    'I do not know.',
    "I couldn't find that.",
    'I cannot find it in the sources.',
    "I can't find it in the sources.",
    'I was unable to find it.',
    'I am unable to find it.',
    'I did not find it.',
    "I didn't find it.",
    "I can't answer that.",
    'I am unable to answer that.',
    'I am not able to answer that.',
    'There is no information on pricing.',
    'There is no information regarding pricing.',
    'There is no information for that release.',
    'No information was given about pricing.',
    'No relevant information about pricing.',
    'There are no relevant documents.',
    'There is no relevant document.',
    'There is no relevant context.',
    'There is not enough information to say.',
    'There is insufficient information to say.',
    'The document does not include pricing.',
    'The context did not provide pricing.',
    "The book doesn't cover pricing.",
    'The sources do not say.',
    'The passages do not discuss pricing.',
    'The source does not address pricing.',
    'The documents do not answer this.',
    'The documents do not contain pricing.',
    'Pricing is not mentioned in the documents.',
    'Pricing is not discussed in the book.',
    'Pricing is not addressed in the sources.',
    'Pricing is not covered in the context.',
    'Pricing is not covered in the source.',
    'I DO NOT KNOW.',
    'I could not\nfind it.',
    'I could not  find it.',
    'I donʼt know.',
  ])('reads "%s" as an abstention', (text) => {
    // Act
    const abstained = detectAbstention(text, 0);

    // Assess
    expect(abstained).toBe(true);
  });

  it.each([
    [
      'mentions "does not contain" about its subject',
      'A Qdrant point does not contain its vector in a scroll response.',
      0,
    ],
    ['says a search returns no documents', 'With that filter the search returns no documents for the query.', 0],
    [
      'holds a refusal phrase after the first sentence of a cited answer',
      'Topics carry messages. Beyond that, I cannot answer for DDS vendors.',
      1,
    ],
  ])('does not read an answer that %s as an abstention', (_, text, citations) => {
    // Act
    const abstained = detectAbstention(text, citations);

    // Assess
    expect(abstained).toBe(false);
  });

  it('reads a refusal phrase anywhere in an uncited response as an abstention', () => {
    // Act
    const abstained = detectAbstention('Hmm. I cannot answer that from these pages.', 0);

    // Assess
    expect(abstained).toBe(true);
  });
});

describe('splitSentences', () => {
  it('splits after sentence punctuation and at line breaks, not inside numbers, and drops bare punctuation', () => {
    // Prepare
    const text = 'Scores are 0.7 or more. Really?\n- \n## Setup\nRun it!';

    // Act
    const sentences = splitSentences(text).map((s) => text.slice(s.start, s.end));

    // Assess
    expect(sentences).toEqual(['Scores are 0.7 or more.', 'Really?', '## Setup', 'Run it!']);
  });
});

describe('locateCitation', () => {
  it('accepts offsets counted in code points when the text holds characters outside the BMP', () => {
    // Prepare
    const text = 'Robots 🤖 publish on topics.';
    const points = Array.from(text);
    const start = points.indexOf('p');
    const citation = { start, end: start + 'publish'.length, text: 'publish', document_ids: ['c1'] };

    // Act
    const span = locateCitation(text, citation);

    // Assess
    expect(span).toEqual({ start: text.indexOf('publish'), end: text.indexOf('publish') + 7 });
  });

  it('locates a citation counted in UTF-16 offsets after a character outside the BMP', () => {
    // Prepare
    const text = 'Robots 🤖 publish on topics.';
    const start = text.indexOf('publish');

    // Act
    const span = locateCitation(text, { start, end: start + 7, text: 'publish', document_ids: ['c1'] });

    // Assess
    expect(span).toEqual({ start, end: start + 7 });
  });

  it('accepts code point offsets that end at the end of the text', () => {
    // Prepare
    const text = 'Robots 🤖 publish';
    const points = Array.from(text);

    // Act
    const span = locateCitation(text, {
      start: points.length - 7,
      end: points.length,
      text: 'publish',
      document_ids: [],
    });

    // Assess
    expect(span).toEqual({ start: text.length - 7, end: text.length });
  });

  it('refuses a negative start even when the text would match from the end', () => {
    // Act: 'abab'.slice(-2, 4) is 'ab'.
    const span = locateCitation('abab', { start: -2, end: 4, text: 'ab', document_ids: ['c1'] });

    // Assess
    expect(span).toBeNull();
  });

  it('refuses an empty citation text even past the end of the response, where the slice is empty too', () => {
    expect(locateCitation('abc', { start: 5, end: 7, text: '', document_ids: ['c1'] })).toBeNull();
  });

  it('refuses code point offsets that end past the last code point', () => {
    // "😀ab" is 3 code points and 4 UTF-16 units: 1..4 holds half the emoji in UTF-16, and no span in code points.
    expect(locateCitation('😀ab', { start: 1, end: 4, text: 'ab', document_ids: ['c1'] })).toBeNull();
  });

  it('refuses an empty or inverted span', () => {
    // Act
    const spans = [
      locateCitation('abc', { start: 1, end: 1, text: '', document_ids: ['c1'] }),
      locateCitation('abc', { start: 2, end: 1, text: 'b', document_ids: ['c1'] }),
    ];

    // Assess
    expect(spans).toEqual([null, null]);
  });
});

describe('checkGrounding, claims against the chunks they cite', () => {
  const NAV = 'Nav2 plans a path for the humanoid and follows it with a controller.';
  const TOPICS = 'Nodes exchange data by publishing messages on topics.';
  const chunkTexts = { nav: NAV, topics: TOPICS };

  it('fails a cited span with an invented number as UNSUPPORTED_CLAIM and names the number', () => {
    // Prepare
    const text = 'Nav2 plans a path for the humanoid with 64 GB of RAM.';

    // Act
    const verdict = checkGrounding({
      response: { response_text: text, citations: [cite(text, text, 'nav')] },
      retrievedChunkIds: ['nav', 'topics'],
      chunkTexts,
      expectAnswer: true,
    });

    // Assess
    expect(verdict).toMatchObject({
      passed: false,
      grounded: false,
      support_ratio: 0,
      checks: { spans_match: 'PASS', citations_retrieved: 'PASS', claims_supported: 'FAIL' },
      error_type: 'UNSUPPORTED_CLAIM',
    });
    expect(verdict.claims[0]).toMatchObject({
      missing_numbers: ['64'],
      missing_names: ['RAM'],
      missing_quantities: ['64 GB'],
    });
    expect(verdict.reasons).toEqual([
      `claim "${text}" cites nav, which does not hold: not found: 64 GB, 64, RAM (80% of its words found)`,
    ]);
  });

  it('fails a sentence cited to a retrieved chunk that does not say it', () => {
    // Act
    const verdict = checkGrounding({
      response: { response_text: TOPICS, citations: [cite(TOPICS, TOPICS, 'nav')] },
      retrievedChunkIds: ['nav', 'topics'],
      chunkTexts,
      expectAnswer: true,
    });

    // Assess
    expect(verdict.error_type).toBe('UNSUPPORTED_CLAIM');
    expect(verdict.claims[0]).toMatchObject({
      supported: false,
      word_support: 0,
      missing_words: ['Nodes', 'exchange', 'data', 'publishing', 'messages', 'topics'],
    });
  });

  it('passes a faithful paraphrase of the cited chunk', () => {
    // Prepare
    const text = 'In short: a node exchanges data when it publishes a message on a topic.';

    // Act
    const verdict = checkGrounding({
      response: { response_text: text, citations: [cite(text, text, 'topics')] },
      retrievedChunkIds: ['nav', 'topics'],
      chunkTexts,
      expectAnswer: true,
    });

    // Assess
    expect(verdict).toMatchObject({ passed: true, support_ratio: 1, checks: { claims_supported: 'PASS' } });
  });

  it('counts an uncited sentence that states a number or a name against the answer', () => {
    // Prepare
    const text = `${TOPICS} Nav2 needs 64 GB of RAM.`;

    // Act
    const verdict = checkGrounding({
      response: { response_text: text, citations: [cite(text, TOPICS, 'topics')] },
      retrievedChunkIds: ['nav', 'topics'],
      chunkTexts,
      expectAnswer: true,
    });

    // Assess
    expect(verdict).toMatchObject({ passed: false, support_ratio: 0.5, error_type: 'UNSUPPORTED_CLAIM' });
    expect(verdict.reasons).toEqual([
      'uncited sentence "Nav2 needs 64 GB of RAM." states 64, Nav2, RAM without a citation',
    ]);
  });

  it('lets an uncited connective sentence pass: it claims nothing', () => {
    // Prepare
    const text = `Here is how it works: ${TOPICS}`;

    // Act
    const verdict = checkGrounding({
      response: { response_text: text, citations: [cite(text, TOPICS, 'topics')] },
      retrievedChunkIds: ['topics'],
      chunkTexts,
      expectAnswer: true,
    });

    // Assess
    expect(verdict).toMatchObject({ passed: true, support_ratio: 1 });
    expect(verdict.claims.map((c) => c.kind)).toEqual(['cited_sentence']);
  });

  it('leaves an abstention without claims: support does not apply', () => {
    // Act
    const verdict = checkGrounding({
      response: { response_text: 'I could not find information about that in the provided documents.', citations: [] },
      retrievedChunkIds: ['topics'],
      chunkTexts,
      expectAnswer: false,
    });

    // Assess
    expect(verdict).toMatchObject({
      passed: true,
      support_ratio: null,
      claims: [],
      checks: { claims_supported: 'NOT_APPLICABLE' },
    });
  });
});
