/**
 * Three readings that keep the gate from flagging faithful rewordings (docs/GROUNDING.md): the words that attribute a
 * claim to its source in the uncited part ("The book recommends ..."), counts of times on the evidence side ("twice
 * per second"), and a verb with a particle, which is not held to the plain verb's antonyms ("keeps microbes out").
 * Each on a claim it must pass and a wrong one beside it, with its switch, and the particle's reach on both sides.
 */
import { describe, expect, it } from 'vitest';
import { assessAnswerClaims } from '../../../functions/core/grounding/assess-claims.ts';
import { splitSentences } from '../../../functions/core/grounding/grounding.ts';
import { polarityConflicts } from '../../../functions/core/grounding/polarity.ts';
import { statedNumbers } from '../../../functions/core/grounding/quantities.ts';
import {
  ALL_SUPPORT_FEATURES,
  assessClaim,
  collectEvidence,
  DEFAULT_MIN_WORD_SUPPORT,
  type SupportFeatures,
} from '../../../functions/core/grounding/support.ts';

function assess(text: string, span: string, chunk: string, features: Partial<SupportFeatures> = {}) {
  const start = text.indexOf(span);
  const citations = [{ start, end: start + span.length, text: span, document_ids: ['a'] }];
  return assessAnswerClaims({
    text,
    sentences: splitSentences(text),
    citations,
    claimedRanges: citations,
    chunkTexts: { a: chunk },
    minWordSupport: DEFAULT_MIN_WORD_SUPPORT,
    features: { ...ALL_SUPPORT_FEATURES, ...features },
  });
}

describe('attribution in the uncited part', () => {
  const chunk =
    'Synthetic data rarely replaces real data entirely. The reliable recipe is to pre-train on a large synthetic set and fine-tune on a small real set.';
  const span = 'pre-train on a large synthetic set and fine-tune on a small real set';

  it('leaves out the words that name or report the source', () => {
    for (const frame of ['The book recommends', 'According to the manual, you should', 'The author suggests you'])
      expect(assess(`${frame} ${span}.`, span, chunk)[0]?.supported, frame).toBe(true);
    expect(assess(`The book recommends ${span}.`, span, chunk, { attribution: false })[0]?.supported).toBe(false);
  });

  it('still holds what the uncited part adds besides the attribution', () => {
    const [claim] = assess(`The book recommends ${span}, using eight GPUs and a cloud cluster.`, span, chunk);
    expect(claim?.supported).toBe(false);
    expect(claim?.uncited_part?.missing_words).toEqual(expect.arrayContaining(['GPUs', 'cloud', 'cluster']));
    // The report keeps the uncited part as written.
    expect(claim?.uncited_part?.text).toContain('The book recommends');
  });
});

describe('counts of times', () => {
  it('are numbers on the evidence side only', () => {
    expect(statedNumbers('It publishes twice per second, once per run, thrice daily.', { lenient: true })).toEqual([
      '2',
      '1',
      '3',
    ]);
    expect(statedNumbers('It is twice as fast once the node starts.')).toEqual([]);
  });

  it('vouch for a claim’s count, and no other', () => {
    const evidence = collectEvidence(['The node below publishes a heartbeat message twice per second.']);
    const check = (claim: string) =>
      assessClaim({ claim, evidence, minWordSupport: DEFAULT_MIN_WORD_SUPPORT }).supported;
    expect(check('The node publishes a heartbeat two times every second.')).toBe(true);
    expect(check('The node publishes a heartbeat three times every second.')).toBe(false);
  });
});

describe('a verb with a particle', () => {
  const text = 'They tolerate an acidity that would stop most other microbes.';
  const on = { particles: true };

  it('is not held to the plain verb’s antonyms', () => {
    expect(polarityConflicts('They tolerate an acidity that keeps most other microbes out.', [text], on)).toEqual([]);
    expect(polarityConflicts('They tolerate an acidity that keeps most other microbes out.', [text], {})).toEqual([
      'keep / stop',
    ]);
    expect(polarityConflicts('They tolerate an acidity that keeps most other microbes alive.', [text], on)).toEqual([
      'keep / stop',
    ]);
  });

  it('reaches five words after the verb, not six', () => {
    // keeps(0) most(1) other(2) tiny(3) soil(4) microbes(5) out(6): the particle is the sixth word after "keeps".
    expect(polarityConflicts('They tolerate an acidity that keeps most other tiny microbes out.', [text], on)).toEqual(
      [],
    );
    expect(
      polarityConflicts('They tolerate an acidity that keeps most other tiny soil microbes out.', [text], on),
    ).toEqual(['keep / stop']);
  });

  it('is switched by its feature in the support check', () => {
    const evidence = collectEvidence([text]);
    const check = (features: Partial<SupportFeatures>) =>
      assessClaim({
        claim: 'They tolerate an acidity that keeps most other microbes out.',
        evidence,
        minWordSupport: DEFAULT_MIN_WORD_SUPPORT,
        features: { ...ALL_SUPPORT_FEATURES, ...features },
      }).supported;
    expect(check({})).toBe(true);
    expect(check({ particles: false })).toBe(false);
  });
});
