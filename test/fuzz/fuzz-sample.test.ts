/** A small seeded sample of `npm run fuzz` (which runs 10,000 suites and 2,000 configurations). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fuzzConfig } from '../../fuzz/config-fuzz.ts';
import { seededRng } from '../../fuzz/rng.ts';
import { fuzzSuites } from '../../fuzz/suite-fuzz.ts';
import { newTally } from '../../fuzz/tally.ts';

const SAMPLE_SUITE = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../sandbox/suite.json'), 'utf8'));

describe('fuzzing, a seeded sample', () => {
  it('accepts no invalid suite, never crashes, and names the field in every refusal over 400 mutations', () => {
    const tally = newTally();

    fuzzSuites(SAMPLE_SUITE, 400, seededRng(7), tally);

    expect({ invalid: tally.acceptedButInvalid, crashes: tally.crashes, unnamed: tally.unnamedMessages }).toEqual({
      invalid: [],
      crashes: [],
      unnamed: [],
    });
    expect(tally.refused).toBeGreaterThan(300);
  });

  it('accepts no invalid configuration, never crashes, and names the variable in every refusal over 300 sets', () => {
    const tally = newTally();

    fuzzConfig(300, seededRng(11), tally);

    expect({ invalid: tally.acceptedButInvalid, crashes: tally.crashes, unnamed: tally.unnamedMessages }).toEqual({
      invalid: [],
      crashes: [],
      unnamed: [],
    });
    expect(tally.accepted).toBeGreaterThan(0);
  });
});
