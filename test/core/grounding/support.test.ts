import { describe, expect, it } from 'vitest';
import { extractClaimTerms } from '../../../functions/core/grounding/claim-terms.ts';
import {
  assessClaim,
  carriesFacts,
  collectEvidence,
  DEFAULT_MIN_WORD_SUPPORT,
} from '../../../functions/core/grounding/support.ts';

const CHUNK =
  'To install ROS 2 Humble on Ubuntu 22.04, first add the ROS 2 apt repository. Then install the ' +
  'ros-humble-desktop package. Finally, source the setup script in every new terminal.';
const evidence = collectEvidence([CHUNK]);
// Twenty distinct content words, none in CHUNK: a claim of the first n of CHUNK's and the rest of these has a known
// share of support.
const FOREIGN =
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa'.split(' ');
const KNOWN = 'install humble apt repository desktop package source setup script terminal ros new first then'.split(
  ' ',
);
const claimOf = (found: number, missing: number) => [...KNOWN.slice(0, found), ...FOREIGN.slice(0, missing)].join(' ');

describe('assessClaim', () => {
  it('supports a claim whose every content word, number and name is in the cited text', () => {
    // Act
    const verdict = assessClaim({
      claim: 'Install ROS 2 Humble on Ubuntu 22.04 from the apt repository.',
      evidence,
      minWordSupport: DEFAULT_MIN_WORD_SUPPORT,
    });

    // Assess
    expect(verdict).toEqual({
      supported: true,
      word_support: 1,
      content_words: 6,
      missing_words: [],
      missing_numbers: [],
      missing_names: [],
      missing_quantities: [],
      polarity_conflicts: [],
    });
  });

  it('refuses a claim with one invented number even when every word is found', () => {
    // Act
    const verdict = assessClaim({ claim: 'Install ROS 2 Humble on Ubuntu 24.04.', evidence, minWordSupport: 0.65 });

    // Assess
    expect(verdict).toMatchObject({ supported: false, word_support: 1, missing_numbers: ['24.04'] });
  });

  it('refuses "tens of hertz" where the cited text says "hundreds of hertz", and passes it against "hundreds"', () => {
    const hundreds = collectEvidence(['Topics stream joint states at hundreds of hertz.']);
    const tens = assessClaim({
      claim: 'Topics stream joint states at tens of hertz.',
      evidence: hundreds,
      minWordSupport: 0.25,
    });
    expect(tens).toMatchObject({ supported: false, missing_numbers: ['10'] });
    const same = assessClaim({
      claim: 'Joint states stream at hundreds of hertz.',
      evidence: hundreds,
      minWordSupport: 0.25,
    });
    expect(same.supported).toBe(true);
  });

  it('refuses a claim with a proper name the cited text does not hold', () => {
    // Act
    const verdict = assessClaim({ claim: 'Install ROS 2 Humble on Debian.', evidence, minWordSupport: 0.65 });

    // Assess
    expect(verdict).toMatchObject({ supported: false, missing_names: ['Debian'], missing_words: ['Debian'] });
  });

  it('supports a claim whose share of found content words equals the threshold', () => {
    // Act: 13 of 20 words found is 0.65
    const verdict = assessClaim({ claim: claimOf(13, 7), evidence, minWordSupport: 0.65 });

    // Assess
    expect(verdict).toMatchObject({ supported: true, word_support: 0.65, content_words: 20 });
  });

  it('refuses a claim whose share of found content words is just under the threshold', () => {
    // Act: 12 of 19 words found is 0.6316
    const verdict = assessClaim({ claim: claimOf(12, 7), evidence, minWordSupport: 0.65 });

    // Assess
    expect(verdict).toMatchObject({ supported: false, content_words: 19 });
    expect(verdict.missing_words).toEqual(FOREIGN.slice(0, 7));
  });

  it('judges a claim without content words on its numbers and names alone', () => {
    // Act
    const verdict = assessClaim({ claim: '22.04', evidence, minWordSupport: 0.65 });

    // Assess
    expect(verdict).toMatchObject({ supported: true, word_support: 1, content_words: 0 });
  });
});

describe('collectEvidence and carriesFacts', () => {
  it('finds a claim’s numbers and stemmed words in the cited texts together', () => {
    const pooled = collectEvidence(['Humble needs 8 GB.', 'Jazzy releases in 2024.']);
    expect(assessClaim({ claim: 'Releasing in 2024, it needs 8 GB', evidence: pooled, minWordSupport: 1 })).toEqual({
      supported: true,
      word_support: 1,
      // "GB" is the unit of 8, checked as the quantity 8 GB, not as a word.
      content_words: 2,
      missing_words: [],
      missing_numbers: [],
      missing_names: [],
      missing_quantities: [],
      polarity_conflicts: [],
    });
  });

  it('does not take a version glued to letters ("0.1pl2") as the number a claim states, and takes a glued unit', () => {
    const release = collectEvidence(['Version 0.1pl2 cannot do this; 1.0.8 needs 64GB.']);
    expect(
      assessClaim({ claim: 'Version 0.1 cannot do this.', evidence: release, minWordSupport: 0.25 }),
    ).toMatchObject({ supported: false, missing_numbers: ['0.1'] });
    expect(assessClaim({ claim: 'Version 1.0.8 needs 64 GB.', evidence: release, minWordSupport: 0.25 })).toMatchObject(
      { supported: true, missing_numbers: [], missing_quantities: [] },
    );
  });

  it('says a sentence carries a fact when it has a number or a name, alone or together', () => {
    expect(carriesFacts(extractClaimTerms('It takes 5 minutes.'))).toBe(true);
    expect(carriesFacts(extractClaimTerms('It runs on Ubuntu.'))).toBe(true);
    expect(carriesFacts(extractClaimTerms('It runs on Ubuntu in 5 minutes.'))).toBe(true);
    expect(carriesFacts(extractClaimTerms('Here is how it works.'))).toBe(false);
  });
});
