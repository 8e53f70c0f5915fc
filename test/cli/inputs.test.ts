/** A command's inputs checked together: every problem at once, each naming its flag, variable or file. */
import { describe, expect, it } from 'vitest';
import {
  gatherInputs,
  InputErrors,
  unwritableOutput,
  wholeNumberFlag,
  withSuiteHint,
} from '../../functions/cli/inputs.ts';
import { InputError } from '../../functions/core/shared/errors.ts';

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('gatherInputs', () => {
  it('returns every step’s value in order when none fails', async () => {
    expect(await gatherInputs([() => 1, async () => 'two'])).toEqual([1, 'two']);
  });

  it('throws the problems of every failing step at once, in the steps’ order', async () => {
    const error = await rejection(
      gatherInputs([
        () => {
          throw new InputError('configuration', ['A: bad']);
        },
        () => 'fine',
        async () => {
          throw new InputError('suite.json', ['file not found']);
        },
      ]),
    );
    expect(error).toBeInstanceOf(InputErrors);
    expect((error as InputErrors).errors.map((e) => e.source)).toEqual(['configuration', 'suite.json']);
  });

  it('throws a single problem as the InputError it is', async () => {
    const only = new InputError('configuration', ['A: bad']);
    expect(await rejection(gatherInputs([() => 1, () => Promise.reject(only)]))).toBe(only);
  });

  it('lets through what is not bad input', async () => {
    const defect = new TypeError('boom');
    expect(
      await rejection(
        gatherInputs([
          () => {
            throw new InputError('configuration', ['A: bad']);
          },
          () => Promise.reject(defect),
        ]),
      ),
    ).toBe(defect);
  });
});

describe('wholeNumberFlag', () => {
  const range = { min: 1, max: 20 };
  it('takes a whole number inside the range, both ends included, given as text or as the default number', () => {
    expect(wholeNumberFlag('--per-page', '1', range)).toEqual({ value: 1 });
    expect(wholeNumberFlag('--per-page', '20', range)).toEqual({ value: 20 });
    expect(wholeNumberFlag('--per-page', 2, range)).toEqual({ value: 2 });
  });

  it('names the flag, the type and the range expected, and what was given: never "NaN"', () => {
    for (const given of ['abc', '0', '21', '2.5', '', '0x10', '1e1'])
      expect(wholeNumberFlag('--per-page', given, range)).toEqual({
        problem: `--per-page: expects a whole number from 1 to 20, got "${given}"`,
      });
  });

  it('refuses a negative number', () => {
    expect(wholeNumberFlag('--latency', '-50', { min: 0, max: 60_000 })).toEqual({
      problem: '--latency: expects a whole number from 0 to 60000, got "-50"',
    });
  });
});

describe('withSuiteHint', () => {
  it('says how to name a suite and how to make one when the file is not found', () => {
    const hinted = withSuiteHint(new InputError('suite.json', ['file not found']), 'suite.json', 'flag or env');
    expect((hinted as InputError).message).toBe(
      'suite.json is invalid:\n  - file not found: name the suite with --suite <file> or SUITE_PATH, or write one from the index with `ragwatch suite generate --out suite.json`',
    );
  });

  it('leaves any other problem of the file as it is', () => {
    const invalid = new InputError('suite.json', ['queries[0].query_text: must not be empty']);
    expect(withSuiteHint(invalid, 'suite.json', 'flag')).toBe(invalid);
  });
});

describe('unwritableOutput', () => {
  it('says what is wrong with the path from the errno', () => {
    const errno = (code: string) => Object.assign(new Error(code), { code });
    expect(unwritableOutput('-o', '/nope/x.json', errno('ENOENT')).problems).toEqual([
      'its folder does not exist; name a file in a folder that exists',
    ]);
    expect(unwritableOutput('-o', '/x.json', errno('EACCES')).problems[0]).toMatch(
      /^no permission to write it \(EACCES\)/,
    );
    expect(unwritableOutput('-o', '/tmp', errno('EISDIR')).problems[0]).toMatch(/^it is a folder/);
    expect(unwritableOutput('-o', '/x.json', errno('ENOSPC')).source).toBe('-o /x.json');
  });
});
