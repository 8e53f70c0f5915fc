/**
 * The claims of one answer: each cited sentence, whole, against the chunks its citations name, each uncited sentence
 * that states a fact.
 */
import { describe, expect, it } from 'vitest';
import { assessAnswerClaims, describeUnsupported } from '../../../functions/core/grounding/assess-claims.ts';
import { splitSentences } from '../../../functions/core/grounding/grounding.ts';
import { ALL_SUPPORT_FEATURES, type SupportFeatures } from '../../../functions/core/grounding/support.ts';
import type { ClaimSupport } from '../../../functions/core/report/grounding-report.ts';

const CHUNKS = {
  'c-1': 'ROS 2 Humble runs on Ubuntu 22.04 and uses DDS for transport.',
  'c-2': 'Gazebo simulates physics for robots.',
};

/** The spans of each sentence of `text`, as the grounding check finds them. */
const sentencesOf = splitSentences;

function assess(
  text: string,
  citations: { start: number; end: number; document_ids: string[] }[],
  claimed: { start: number; end: number }[] = citations,
  features: Partial<SupportFeatures> = {},
) {
  return assessAnswerClaims({
    text,
    sentences: sentencesOf(text),
    citations: citations.map((c) => ({ ...c, text: text.slice(c.start, c.end) })),
    claimedRanges: claimed,
    chunkTexts: CHUNKS,
    minWordSupport: 0.65,
    features: { ...ALL_SUPPORT_FEATURES, ...features },
  });
}

describe('assessAnswerClaims', () => {
  it('checks a cited sentence against the text of the chunks it cites', () => {
    const text = 'ROS 2 Humble runs on Ubuntu 22.04.';
    expect(assess(text, [{ start: 0, end: 34, document_ids: ['c-1'] }])).toEqual([
      {
        kind: 'cited_sentence',
        start: 0,
        end: 34,
        text,
        chunk_ids: ['c-1'],
        supported: true,
        word_support: 1,
        content_words: 4,
        missing_words: [],
        missing_numbers: [],
        missing_names: [],
        missing_quantities: [],
        polarity_conflicts: [],
      },
    ]);
  });

  it('checks the whole sentence a citation sits in: its uncited tail too', () => {
    const text = 'ROS 2 Humble runs on Ubuntu 22.04, and it needs 64 GB of RAM.';
    const [claim] = assess(text, [{ start: 0, end: 33, document_ids: ['c-1'] }]);
    expect(claim).toMatchObject({ kind: 'cited_sentence', start: 0, end: text.length, supported: false });
    expect(claim?.missing_numbers).toEqual(['64']);
  });

  it('checks only the cited span when the whole-sentence feature is off', () => {
    const text = 'ROS 2 Humble runs on Ubuntu 22.04, and it needs 64 GB of RAM.';
    const [claim] = assess(text, [{ start: 0, end: 33, document_ids: ['c-1'] }], undefined, { wholeSentence: false });
    expect(claim).toMatchObject({ kind: 'cited_span', start: 0, end: 33, supported: true });
  });

  it('finds a claim unsupported by a chunk it does not cite, or by a chunk it names that was not given', () => {
    const text = 'Robots simulate physics in Gazebo.';
    const [byOther] = assess(text, [{ start: 0, end: 34, document_ids: ['c-1'] }]);
    const [byUnknown] = assess(text, [{ start: 0, end: 34, document_ids: ['c-9'] }]);
    expect(byOther).toMatchObject({ supported: false, chunk_ids: ['c-1'], missing_names: ['Gazebo'] });
    expect(byUnknown).toMatchObject({ supported: false, word_support: 0, chunk_ids: ['c-9'] });
  });

  it('pools the text of every chunk a span cites', () => {
    const text = 'Gazebo simulates robots on Ubuntu 22.04.';
    const [claim] = assess(text, [{ start: 0, end: 40, document_ids: ['c-1', 'c-2'] }]);
    expect(claim).toMatchObject({ supported: true, chunk_ids: ['c-1', 'c-2'] });
  });

  it('finds an uncited sentence that states a number or a name unsupported, with no chunk', () => {
    const text = 'ROS 2 runs on Ubuntu. It needs 8 GB of memory. We like Gazebo.';
    const claims = assess(text, [{ start: 0, end: 20, document_ids: ['c-1'] }]);
    expect(claims.map((c) => [c.kind, c.text, c.chunk_ids, c.supported])).toEqual([
      ['cited_sentence', 'ROS 2 runs on Ubuntu.', ['c-1'], true],
      ['uncited_sentence', 'It needs 8 GB of memory.', [], false],
      ['uncited_sentence', 'We like Gazebo.', [], false],
    ]);
    // "GB" is the number's unit, not a name: a quantity, checked with its number.
    expect(claims[1]).toMatchObject({ start: 22, end: 46, missing_numbers: ['8'], missing_names: [] });
  });

  it('lets an uncited sentence that states no fact pass unremarked', () => {
    const text = 'Here is how it works: nodes talk. ROS 2 runs on Ubuntu.';
    expect(assess(text, [{ start: 34, end: 55, document_ids: ['c-1'] }]).map((c) => c.kind)).toEqual([
      'cited_sentence',
    ]);
  });

  it('does not count a sentence under a broken citation as uncited: it already fails as such', () => {
    const text = 'It needs 8 GB of memory.';
    expect(assess(text, [], [{ start: 3, end: 8 }])).toEqual([]);
  });

  it('counts a sentence as uncited when a citation ends where it starts or starts where it ends', () => {
    const text = 'ROS 2 runs. It needs 8 GB. Gazebo simulates physics for robots.';
    const claims = assess(text, [
      { start: 0, end: 12, document_ids: ['c-1'] },
      { start: 26, end: 63, document_ids: ['c-2'] },
    ]);
    expect(claims.map((c) => `${c.kind} ${c.start}-${c.end}`)).toEqual([
      'cited_sentence 0-11',
      'uncited_sentence 12-26',
      'cited_sentence 27-63',
    ]);
  });

  it('does not count a sentence as uncited when a citation overlaps it by one character at either end', () => {
    const text = 'ROS 2 runs. It needs 8 GB. Gazebo simulates physics for robots.';
    const claims = assess(text, [
      { start: 0, end: 13, document_ids: ['c-1'] },
      { start: 25, end: 63, document_ids: ['c-2'] },
    ]);
    expect(claims.map((c) => `${c.kind} ${c.start}-${c.end}`)).toEqual([
      'cited_sentence 0-11',
      'cited_sentence 12-26',
      'cited_sentence 27-63',
    ]);
  });

  it('makes one claim of a sentence with several citations, against the chunks of all of them', () => {
    const text = 'Gazebo simulates physics for robots on Ubuntu 22.04.';
    const claims = assess(text, [
      { start: 0, end: 24, document_ids: ['c-2'] },
      { start: 39, end: 51, document_ids: ['c-1'] },
    ]);
    expect(claims.map((c) => [c.start, c.end, c.chunk_ids, c.supported])).toEqual([[0, 52, ['c-2', 'c-1'], true]]);
  });

  it('orders the claims by where they start, then where they end (with spans)', () => {
    const text = 'Gazebo simulates physics for robots.';
    const claims = assess(
      text,
      [
        { start: 7, end: 36, document_ids: ['c-2'] },
        { start: 0, end: 36, document_ids: ['c-2'] },
        { start: 0, end: 16, document_ids: ['c-2'] },
      ],
      undefined,
      { wholeSentence: false },
    );
    expect(claims.map((c) => `${c.start}-${c.end}`)).toEqual(['0-16', '0-36', '7-36']);
  });
});

describe('describeUnsupported', () => {
  const claim = (overrides: Partial<ClaimSupport>): ClaimSupport => ({
    kind: 'cited_span',
    start: 0,
    end: 10,
    text: 'Ubuntu 24.04 runs Debian tools.',
    chunk_ids: ['c-1', 'c-2'],
    supported: false,
    word_support: 0.666,
    content_words: 3,
    missing_words: ['Debian', 'tools'],
    missing_numbers: ['24.04'],
    missing_names: ['Debian'],
    missing_quantities: [],
    polarity_conflicts: [],
    ...overrides,
  });

  it('names the chunks a cited claim cites and each number, name and word they lack, once, with its support', () => {
    expect(describeUnsupported(claim({}))).toBe(
      'claim "Ubuntu 24.04 runs Debian tools." cites c-1, c-2, which does not hold: not found: 24.04, Debian, tools (67% of its words found)',
    );
  });

  it('names what a claim says against its chunks before what they lack', () => {
    expect(
      describeUnsupported(claim({ polarity_conflicts: ['not support / support'], missing_quantities: ['16 MB'] })),
    ).toBe(
      'claim "Ubuntu 24.04 runs Debian tools." cites c-1, c-2, which does not hold: says not support / support; not found: 16 MB, 24.04, Debian, tools (67% of its words found)',
    );
  });

  it('names the facts an uncited sentence states without a citation', () => {
    expect(describeUnsupported(claim({ kind: 'uncited_sentence', chunk_ids: [] }))).toBe(
      'uncited sentence "Ubuntu 24.04 runs Debian tools." states 24.04, Debian without a citation',
    );
  });

  it('quotes a claim of 80 characters whole and cuts a longer one', () => {
    const exact = 'x'.repeat(80);
    expect(describeUnsupported(claim({ text: exact }))).toContain(`claim "${exact}" cites`);
    expect(describeUnsupported(claim({ text: `${exact}yz` }))).toContain(`claim "${exact}…" cites`);
  });
});
