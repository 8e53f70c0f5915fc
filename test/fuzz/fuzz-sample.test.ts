/** A small seeded sample of `npm run fuzz` (which runs 10,000 suites and 2,000 configurations). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEngineConfig } from '../../functions/core/config.ts';
import { InputError } from '../../functions/core/shared/errors.ts';
import { parseSuiteBytes } from '../../functions/core/suite/suite.ts';
import { fuzzConfig } from '../../fuzz/config-fuzz.ts';
import { README, readDocumentedBounds } from '../../fuzz/documented-bounds.ts';
import { seededRng } from '../../fuzz/rng.ts';
import { fuzzSuites } from '../../fuzz/suite-fuzz.ts';
import { newTally } from '../../fuzz/tally.ts';

const SAMPLE_SUITE = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../sandbox/suite.json'), 'utf8'));
const counts = (tally: ReturnType<typeof newTally>) => ({
  invalid: tally.acceptedButInvalid,
  validRefused: tally.validRefused,
  crashes: tally.crashes,
  unnamed: tally.unnamedMessages,
});

describe('fuzzing, a seeded sample', () => {
  it('accepts no invalid suite, refuses no valid one, never crashes, and names the field in every refusal over 400 mutations', () => {
    const tally = newTally();

    fuzzSuites(SAMPLE_SUITE, 400, seededRng(7), tally);

    expect(counts(tally)).toEqual({ invalid: [], validRefused: [], crashes: [], unnamed: [] });
    expect(tally.refused).toBeGreaterThan(250);
    expect(tally.accepted).toBeGreaterThan(40);
  });

  it('accepts no invalid configuration, refuses no valid one, never crashes, and names the variable in every refusal over 300 sets', () => {
    const tally = newTally();

    fuzzConfig(300, seededRng(11), tally);

    expect(counts(tally)).toEqual({ invalid: [], validRefused: [], crashes: [], unnamed: [] });
    expect(tally.accepted).toBeGreaterThan(0);
  });
});

describe('fuzzing counts valid input refused (the bounds are the README’s, not the code’s)', () => {
  it('counts the configurations a TOP_K_RESULTS capped at 3 refuses', () => {
    // Prepare: the product's parser with one bound tightened, as a regression would
    const capped = (env: Record<string, string>) => {
      const config = parseEngineConfig(env);
      if (config.topK !== null && config.topK > 3)
        throw new InputError('configuration', [
          `TOP_K_RESULTS: must be a whole number from 1 to 3, got "${config.topK}"`,
        ]);
      return config;
    };
    const tally = newTally();

    // Act
    fuzzConfig(300, seededRng(11), tally, capped);

    // Assess
    expect(tally.validRefused.length).toBeGreaterThan(0);
    expect(tally.validRefused.every((c) => c.includes('TOP_K_RESULTS'))).toBe(true);
  });

  it('counts the suites a query_text capped at 100 characters refuses', () => {
    const capped = (bytes: Uint8Array, name: string) => {
      const suite = parseSuiteBytes(bytes, name);
      const long = suite.queries.findIndex((q) => [...q.query_text].length > 100);
      if (long !== -1) throw new InputError(name, [`queries[${long}].query_text: must be at most 100 characters`]);
      return suite;
    };
    const tally = newTally();

    fuzzSuites(SAMPLE_SUITE, 400, seededRng(7), tally, capped);

    expect(tally.validRefused.length).toBeGreaterThan(0);
    expect(tally.validRefused.every((c) => c.includes('query_text') || c.includes('as YAML'))).toBe(true);
  });

  it('reads its oracle from the README: a README saying top_k is 1–3 makes the real parser accept invalid suites', () => {
    const readme = readFileSync(README, 'utf8');
    const docs = readDocumentedBounds(
      readme.replace('| `top_k` | 1–50, a whole number |', '| `top_k` | 1–3, a whole number |'),
    );
    const tally = newTally();

    fuzzSuites(SAMPLE_SUITE, 400, seededRng(7), tally, parseSuiteBytes, docs);

    expect(tally.acceptedButInvalid.some((c) => c.includes('top_k'))).toBe(true);
  });

  it('stops when the README no longer documents a fuzzed bound', () => {
    const readme = readFileSync(README, 'utf8');
    expect(() =>
      readDocumentedBounds(readme.replace('| `top_k` | 1–50, a whole number |', '| `top_k` | any |')),
    ).toThrow(/no range for top_k/);
    const noRange = readme.replace('run at once (1–32, a whole number)', 'run at once');
    expect(() => fuzzConfig(1, seededRng(1), newTally(), parseEngineConfig, readDocumentedBounds(noRange))).toThrow(
      /no range for SEARCH_CONCURRENCY/,
    );
  });
});
