/**
 * The rules that let the support check pass rewordings at a low word share without letting wrong claims pass with
 * them (docs/GROUNDING.md, "The paraphrase-aware measure"): the uncited part of a cited sentence judged on its own,
 * the better chunk, and a denial read wherever the cited text states it. Each is pinned on both sides of its
 * threshold, and switched off it lets its case through.
 */
import { describe, expect, it } from 'vitest';
import { assessAnswerClaims, describeUnsupported } from '../../../functions/core/grounding/assess-claims.ts';
import { splitSentences } from '../../../functions/core/grounding/grounding.ts';
import { polarityConflicts } from '../../../functions/core/grounding/polarity.ts';
import {
  ALL_SUPPORT_FEATURES,
  assessClaim,
  collectEvidence,
  DEFAULT_MIN_TAIL_SUPPORT,
  DEFAULT_MIN_WORD_SUPPORT,
  MIN_TAIL_WORDS,
  MISATTRIBUTION_MARGIN,
  type SupportFeatures,
} from '../../../functions/core/grounding/support.ts';

function assess(
  text: string,
  cited: { span: string; ids: string[] }[],
  chunkTexts: Record<string, string>,
  features: Partial<SupportFeatures> = {},
) {
  const citations = cited.map(({ span, ids }) => {
    const start = text.indexOf(span);
    if (start < 0) throw new Error(`${span} not in ${text}`);
    return { start, end: start + span.length, text: span, document_ids: ids };
  });
  return assessAnswerClaims({
    text,
    sentences: splitSentences(text),
    citations,
    claimedRanges: citations,
    chunkTexts,
    minWordSupport: DEFAULT_MIN_WORD_SUPPORT,
    features: { ...ALL_SUPPORT_FEATURES, ...features },
  });
}

describe('the thresholds', () => {
  it('are the ones GROUNDING.md gives', () => {
    expect(DEFAULT_MIN_WORD_SUPPORT).toBe(0.25);
    expect(DEFAULT_MIN_TAIL_SUPPORT).toBe(0.75);
    expect(MIN_TAIL_WORDS).toBe(2);
    expect(MISATTRIBUTION_MARGIN).toBe(0.2);
  });

  it('passes a rewording that keeps a quarter of its words, and fails one that keeps less', () => {
    const chunk = { a: 'Labelling real images by hand is slow, expensive and error prone.' };
    // The word count alone: with the synonym table on, "sluggish" is "slow" and "costly" "expensive" (below).
    const countOnly = { synonyms: false };
    // 2 of 7 content words found (real, images): 0.29.
    const [quarter] = assess(
      'Annotating real images manually is sluggish, costly, mistaken.',
      [{ span: 'Annotating real images manually is sluggish, costly, mistaken', ids: ['a'] }],
      chunk,
      countOnly,
    );
    expect(quarter).toMatchObject({ supported: true, content_words: 7 });
    // 2 of 8 (real, images): 0.25 exactly, which passes.
    const [exact] = assess(
      'Annotating real images manually is sluggish, costly, mistaken, tiring.',
      [{ span: 'Annotating real images manually is sluggish, costly, mistaken, tiring', ids: ['a'] }],
      chunk,
      countOnly,
    );
    expect(exact).toMatchObject({ supported: true, word_support: 0.25 });
    // 1 of 5: 0.2.
    const [fifth] = assess(
      'Annotating real photos manually is sluggish.',
      [{ span: 'Annotating real photos manually is sluggish', ids: ['a'] }],
      chunk,
      countOnly,
    );
    expect(fifth).toMatchObject({ supported: false, word_support: 0.2 });
    // With the synonyms: 2 of 5 (real, sluggish for slow).
    const [withSynonyms] = assess(
      'Annotating real photos manually is sluggish.',
      [{ span: 'Annotating real photos manually is sluggish', ids: ['a'] }],
      chunk,
    );
    expect(withSynonyms).toMatchObject({ supported: true, word_support: 0.4 });
  });
});

describe('the uncited part of a cited sentence', () => {
  const chunks = {
    nav: 'Nav2 is the ROS 2 navigation framework. It plans a path and follows it.',
    mem: 'The block size is read from the header of the compressed file, so the flags are ignored when decompressing.',
  };

  it('fails the claim when it adds what no chunk given says', () => {
    const text = 'Nav2 is the ROS 2 navigation framework, and it needs root privileges on every robot.';
    const [claim] = assess(text, [{ span: 'Nav2 is the ROS 2 navigation framework', ids: ['nav'] }], chunks);
    expect(claim).toMatchObject({
      supported: false,
      uncited_part: { text: ', and it needs root privileges on every robot.', word_support: 0 },
    });
    expect(claim?.uncited_part?.missing_words).toEqual(['needs', 'root', 'privileges', 'robot']);
    expect(describeUnsupported(claim as never)).toContain('its uncited part ", and it needs root privileges');
    // Switched off, only the whole sentence's word share is left, and it passes (4 of 8 words found).
    const [off] = assess(text, [{ span: 'Nav2 is the ROS 2 navigation framework', ids: ['nav'] }], chunks, {
      uncitedTail: false,
    });
    expect(off?.supported).toBe(true);
  });

  it('passes it when a chunk given says it, cited or not', () => {
    const text = 'Nav2 is the ROS 2 navigation framework, so the flags are ignored when decompressing.';
    const [claim] = assess(text, [{ span: 'Nav2 is the ROS 2 navigation framework', ids: ['nav'] }], chunks);
    expect(claim?.uncited_part).toBeUndefined();
  });

  it('holds it to three quarters of its words: 3 of 4 found passes, 2 of 3 fails', () => {
    const cited = [{ span: 'Nav2 is the ROS 2 navigation framework', ids: ['nav'] }];
    const threeOfFour = assess(
      'Nav2 is the ROS 2 navigation framework: it plans paths, follows them, quickly.',
      cited,
      chunks,
    );
    expect(threeOfFour[0]?.supported).toBe(true);
    const twoOfThree = assess('Nav2 is the ROS 2 navigation framework: it plans paths quickly.', cited, chunks);
    expect(twoOfThree[0]).toMatchObject({ supported: false, uncited_part: { word_support: 2 / 3 } });
  });

  it('leaves a connective alone, and holds one that states a number to its number', () => {
    const cited = [{ span: 'Nav2 is the ROS 2 navigation framework', ids: ['nav'] }];
    expect(assess('Briefly: Nav2 is the ROS 2 navigation framework.', cited, chunks)[0]?.supported).toBe(true);
    expect(assess('Yes, Nav2 is the ROS 2 navigation framework.', cited, chunks)[0]?.supported).toBe(true);
    const [three] = assess('Three facts: Nav2 is the ROS 2 navigation framework.', cited, chunks);
    expect(three).toMatchObject({ supported: false, uncited_part: { missing_facts: ['3'] } });
  });
});

describe('the better chunk', () => {
  const chunks = {
    gazebo: 'Gazebo simulates rigid body physics, contacts and sensors for robots in a world file.',
    isaac: 'Isaac Sim runs physics at 240 steps each second to keep contacts between feet and floor stable.',
  };

  it('fails a claim cited to one chunk that another chunk given holds much better', () => {
    const text = 'Physics runs at 240 steps each second to keep contacts stable for robots.';
    const [claim] = assess(text, [{ span: text.slice(0, -1), ids: ['gazebo'] }], chunks, { numbersInPlace: false });
    // Against gazebo: physics, contacts, robots of 7 words (3/7); the 240 is what the check finds missing first.
    expect(claim?.supported).toBe(false);
  });

  it('fails at the margin and passes just under it', () => {
    // 5 content words: cited holds 2 (0.4), the other 3 (0.6): exactly 0.2 more, a wrong citation.
    const at = {
      a: 'Alpha bravo notes.',
      b: 'Alpha bravo charlie notes.',
    };
    const text = 'Alpha bravo charlie delta echo.';
    const [claim] = assess(text, [{ span: 'Alpha bravo charlie delta echo', ids: ['a'] }], at);
    expect(claim).toMatchObject({
      supported: false,
      word_support: 0.4,
      better_chunk: { chunk_id: 'b', word_support: 0.6 },
    });
    expect(describeUnsupported(claim as never)).toContain('b holds 60% of its words, more than what it cites');
    // With six words the other chunk holds 3/6 against 2/6: 0.1667 more, under the margin.
    const [under] = assess(
      'Alpha bravo charlie delta echo foxtrot.',
      [{ span: 'Alpha bravo charlie delta echo foxtrot', ids: ['a'] }],
      at,
    );
    expect(under).toMatchObject({ supported: true });
    expect(under?.better_chunk).toBeUndefined();
    // Switched off, the wrong citation passes on its word share alone.
    const [off] = assess(text, [{ span: 'Alpha bravo charlie delta echo', ids: ['a'] }], at, { misattribution: false });
    expect(off?.supported).toBe(true);
  });

  it('leaves a claim alone that cites every chunk given, or one with no content word', () => {
    const at = { a: 'Alpha bravo notes.', b: 'Alpha bravo charlie notes.' };
    const [both] = assess(
      'Alpha bravo charlie delta echo.',
      [{ span: 'Alpha bravo charlie delta echo', ids: ['a', 'b'] }],
      at,
    );
    expect(both?.supported).toBe(true);
    const [none] = assess('It is 22.', [{ span: 'It is 22', ids: ['a'] }], { a: 'It is 22.', b: 'Nothing here.' });
    expect(none?.supported).toBe(true);
  });
});

describe('a denial read wherever the cited text states it', () => {
  const chunk =
    'Discard a starter that shows pink or orange streaks or fuzzy mould; unlike hooch, those are signs of spoilage, and it cannot be rescued safely.';

  it('finds a claim that states a word the text only denies, in another clause than the one it aligns with', () => {
    const claim = 'A starter with pink streaks can be rescued with a few feeds.';
    expect(polarityConflicts(claim, [chunk], { anywhere: true })).toContain('rescu / not rescu');
    expect(polarityConflicts(claim, [chunk], { anywhere: false })).toEqual([]);
  });

  it('leaves a claim that denies a word the text only states to the alignment: one direction only', () => {
    // The other direction was dropped on dev: a denial read anywhere met the same word in another role ("should
    // never store data" against "a key-value store") and flagged faithful claims, and caught nothing.
    expect(polarityConflicts('Spoilage signs are not pink.', [chunk], { anywhere: true })).toEqual([]);
    // Aligned with the sentence that states it, the denial is still found.
    expect(polarityConflicts('Discard a starter that shows no pink streaks.', [chunk], { anywhere: true })).toContain(
      'not pink / pink',
    );
  });

  it('leaves a word the text states both ways, and a word the text does not state', () => {
    const both = 'The flag is required for compression. The flag is not required for decompression.';
    expect(polarityConflicts('Compression requires the flag.', [both], { anywhere: true })).toEqual([]);
    expect(polarityConflicts('It cannot be frozen.', [chunk], { anywhere: true })).toEqual([]);
  });

  it('leaves a word deeper in a scope than its head, on either side', () => {
    // "safely" is second under "cannot": whether it is denied depends on what the claim shares (isNegated).
    expect(polarityConflicts('It can be used safely after feeding.', [chunk], { anywhere: true })).toEqual([]);
  });
});

describe('the rules, case by case (mutation tests)', () => {
  const nav = { nav: 'Nav2 is the ROS 2 navigation framework. It plans a path and follows it.' };

  it('names the best of several other chunks, the first of two that tie', () => {
    const chunks = {
      a: 'Alpha bravo notes.',
      c: 'Alpha notes.',
      b: 'Alpha bravo charlie notes.',
      d: 'Alpha bravo delta notes.',
    };
    const [claim] = assess(
      'Alpha bravo charlie delta echo.',
      [{ span: 'Alpha bravo charlie delta echo', ids: ['a'] }],
      chunks,
    );
    expect(claim?.better_chunk).toEqual({ chunk_id: 'b', word_support: 0.6 });
  });

  it('leaves the better chunk out of a claim that already fails', () => {
    const chunks = { a: 'Alpha bravo notes.', b: 'Alpha bravo charlie notes 7.' };
    const [claim] = assess(
      'Alpha bravo charlie delta echo 7.',
      [{ span: 'Alpha bravo charlie delta echo 7', ids: ['a'] }],
      chunks,
    );
    expect(claim).toMatchObject({ supported: false, missing_numbers: ['7'] });
    expect(claim?.better_chunk).toBeUndefined();
  });

  it('takes as uncited only what no citation covers, with two citations in one sentence', () => {
    const chunks = { p: 'Alpha bravo charlie delta.', q: 'Echo foxtrot golf hotel.' };
    const text = 'Alpha bravo kilo lima, and echo foxtrot mike november.';
    const [claim] = assess(
      text,
      [
        { span: 'Alpha bravo kilo lima', ids: ['p'] },
        { span: 'echo foxtrot mike november', ids: ['q'] },
      ],
      chunks,
    );
    // Half the words found, above 0.25; the uncited ", and ." is a connective.
    expect(claim).toMatchObject({ supported: true, word_support: 0.5 });
    expect(claim?.uncited_part).toBeUndefined();
  });

  it('gives the uncited part as one line, the words around a citation joined by one space', () => {
    const text = 'Briefly, Nav2 is the ROS 2 navigation framework and it needs root privileges.';
    const [claim] = assess(text, [{ span: 'Nav2 is the ROS 2 navigation framework', ids: ['nav'] }], nav);
    expect(claim?.uncited_part?.text).toBe('Briefly, and it needs root privileges.');
  });

  it('holds an uncited part of exactly two content words as a claim', () => {
    const [claim] = assess(
      'Nav2 is the ROS 2 navigation framework, needing root.',
      [{ span: 'Nav2 is the ROS 2 navigation framework', ids: ['nav'] }],
      nav,
    );
    expect(claim).toMatchObject({ supported: false, uncited_part: { missing_words: ['needing', 'root'] } });
  });

  it('says why, in one line: what the uncited part says against the chunks and what it lacks', () => {
    const chunks = { nav: 'Nav2 is the ROS 2 navigation framework. Nav2 does not need root privileges.' };
    const [claim] = assess(
      'Nav2 is the ROS 2 navigation framework, and it needs root privileges on Jetson.',
      [{ span: 'Nav2 is the ROS 2 navigation framework', ids: ['nav'] }],
      chunks,
    );
    expect(describeUnsupported(claim as never)).toBe(
      `claim "Nav2 is the ROS 2 navigation framework, and it needs root privileges on Jetson." cites nav, which does not hold: says need / not need; says root / not root; not found: Jetson, needs; its uncited part ", and it needs root privileges on Jetson." is not in the chunks given (says need / not need, says root / not root, Jetson, needs) (75% of its words found)`,
    );
  });

  it('reads a deeper word of a scope on neither side', () => {
    // "safe" is second under "cannot" in the claim, "safely" second under "cannot" in the text.
    expect(polarityConflicts('It cannot be done safe.', ['It is never safe.'], { anywhere: true })).toEqual([]);
    expect(polarityConflicts('It is not safely done.', ['You cannot feed it safely.'], { anywhere: true })).toEqual([]);
  });
});

describe('evidence, read leniently', () => {
  it('reads "a second" and a lone "one" in a chunk as numbers, so a claim in digits finds them', () => {
    const evidence = collectEvidence(['The call times out after a second, and one retry follows.']);
    expect(assessClaim({ claim: 'The call times out after 1 s.', evidence, minWordSupport: 0.25 }).supported).toBe(
      true,
    );
    expect(assessClaim({ claim: '1 retry follows.', evidence, minWordSupport: 0.25 }).supported).toBe(true);
  });

  it('reads a chunk again under another reading: number words off, "five" is a word', () => {
    const text = 'It runs five nodes.';
    expect([...collectEvidence([text], { ...ALL_SUPPORT_FEATURES, numberWords: false }).numbers]).toEqual([]);
    expect([...collectEvidence([text]).numbers]).toEqual(['5']);
    expect([...collectEvidence([text], { ...ALL_SUPPORT_FEATURES, numberWords: false }).numbers]).toEqual([]);
  });
});
