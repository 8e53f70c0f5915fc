/** The claims of one answer: each cited span against the chunks it cites, each uncited sentence that states a fact. */
import { describe, expect, it } from 'vitest';
import { assessAnswerClaims, describeUnsupported } from '../../../functions/core/grounding/assess-claims.ts';
import type { ClaimSupport } from '../../../functions/core/report/grounding-report.ts';

const CHUNKS = {
  'c-1': 'ROS 2 Humble runs on Ubuntu 22.04 and uses DDS for transport.',
  'c-2': 'Gazebo simulates physics for robots.',
};

/** The spans of each sentence of `text` (split after . ! ?), as the grounding check finds them. */
function sentencesOf(text: string): { start: number; end: number }[] {
  return [...text.matchAll(/[^.!?]+[.!?]*/g)].map((m) => {
    const lead = (m[0].match(/^\s*/)?.[0] ?? '').length;
    return { start: (m.index ?? 0) + lead, end: (m.index ?? 0) + m[0].length };
  });
}

function assess(
  text: string,
  citations: { start: number; end: number; document_ids: string[] }[],
  claimed: { start: number; end: number }[] = citations,
) {
  return assessAnswerClaims({
    text,
    sentences: sentencesOf(text),
    citations: citations.map((c) => ({ ...c, text: text.slice(c.start, c.end) })),
    claimedRanges: claimed,
    chunkTexts: CHUNKS,
    minWordSupport: 0.65,
  });
}

describe('assessAnswerClaims', () => {
  it('checks a cited span against the text of the chunks it cites', () => {
    const text = 'ROS 2 Humble runs on Ubuntu 22.04.';
    expect(assess(text, [{ start: 0, end: 34, document_ids: ['c-1'] }])).toEqual([
      {
        kind: 'cited_span',
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
      },
    ]);
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
      ['cited_span', 'ROS 2 runs on Ubuntu', ['c-1'], true],
      ['uncited_sentence', 'It needs 8 GB of memory.', [], false],
      ['uncited_sentence', 'We like Gazebo.', [], false],
    ]);
    expect(claims[1]).toMatchObject({ start: 22, end: 46, missing_numbers: ['8'], missing_names: ['GB'] });
  });

  it('lets an uncited sentence that states no fact pass unremarked', () => {
    const text = 'Here is how it works: nodes talk. ROS 2 runs on Ubuntu.';
    expect(assess(text, [{ start: 34, end: 55, document_ids: ['c-1'] }]).map((c) => c.kind)).toEqual(['cited_span']);
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
      'cited_span 0-12',
      'uncited_sentence 12-26',
      'cited_span 26-63',
    ]);
  });

  it('does not count a sentence as uncited when a citation overlaps it by one character at either end', () => {
    const text = 'ROS 2 runs. It needs 8 GB. Gazebo simulates physics for robots.';
    const claims = assess(text, [
      { start: 0, end: 13, document_ids: ['c-1'] },
      { start: 25, end: 63, document_ids: ['c-2'] },
    ]);
    expect(claims.map((c) => c.kind)).toEqual(['cited_span', 'cited_span']);
  });

  it('orders the claims by where they start, then where they end', () => {
    const text = 'Gazebo simulates physics for robots.';
    const claims = assess(text, [
      { start: 7, end: 36, document_ids: ['c-2'] },
      { start: 0, end: 36, document_ids: ['c-2'] },
      { start: 0, end: 16, document_ids: ['c-2'] },
    ]);
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
    ...overrides,
  });

  it('names the chunks a cited claim cites and each number, name and word they lack, once, with its support', () => {
    expect(describeUnsupported(claim({}))).toBe(
      'claim "Ubuntu 24.04 runs Debian tools." cites c-1, c-2, which does not hold: 24.04, Debian, tools (67% of its words found)',
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
