/**
 * A command's inputs (its flags, the environment, the files it reads) checked together, so that every problem is
 * listed in one go: a person fixing a flag should not then meet the environment's problems, then the suite's.
 */
import { errnoOf } from '../adapters/files/errors.ts';
import { InputError } from '../core/shared/errors.ts';

/** Several inputs' problems at once; main prints each InputError's lines, then exits 2. */
export class InputErrors extends Error {
  readonly errors: InputError[];
  constructor(errors: InputError[]) {
    super(errors.map((e) => e.message).join('\n'));
    this.name = 'InputErrors';
    this.errors = errors;
  }
}

type Steps = readonly (() => unknown)[];

/**
 * Runs every step, and returns their values in order; when any throws an InputError, throws all of them at once
 * (one InputError alone as itself). Anything else thrown is not bad input and passes through unchanged.
 */
export async function gatherInputs<const T extends Steps>(
  steps: T,
): Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  const settled = await Promise.allSettled(steps.map(async (step) => step()));
  const problems: InputError[] = [];
  for (const s of settled) {
    if (s.status === 'fulfilled') continue;
    if (s.reason instanceof InputErrors) problems.push(...s.reason.errors);
    else if (s.reason instanceof InputError) problems.push(s.reason);
    else throw s.reason;
  }
  if (problems.length === 1 && problems[0]) throw problems[0];
  if (problems.length > 1) throw new InputErrors(problems);
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof T]: Awaited<ReturnType<T[K]>>;
  };
}

/**
 * A flag that must be a whole number in [min, max]: its value, or a problem naming the flag, the type expected and
 * what was given ("--per-page: expects a whole number from 1 to 20, got "abc""), never "got NaN".
 */
export function wholeNumberFlag(
  flag: string,
  given: string | number,
  range: { min: number; max: number },
): { value: number } | { problem: string } {
  const text = String(given).trim();
  const value = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(value) && value >= range.min && value <= range.max
    ? { value }
    : { problem: `${flag}: expects a whole number from ${range.min} to ${range.max}, got "${String(given)}"` };
}

/** A suite file that does not exist: say how to name one and how to make one, not just "file not found". */
export function withSuiteHint(error: unknown, file: string, how: 'flag' | 'flag or env'): unknown {
  if (!(error instanceof InputError) || error.problems.join() !== 'file not found') return error;
  const name = how === 'flag' ? '--suite <file>' : '--suite <file> or SUITE_PATH';
  return new InputError(file, [
    `file not found: name the suite with ${name}, or write one from the index with \`ragwatch suite generate --out ${file}\``,
  ]);
}

/** A file the command was asked to write (-o, --out) that cannot be: what is wrong with the path, as bad input. */
export function unwritableOutput(flag: string, file: string, error: unknown): InputError {
  const code = errnoOf(error);
  const why =
    code === 'ENOENT'
      ? 'its folder does not exist'
      : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? `no permission to write it (${code})`
        : code === 'EISDIR'
          ? 'it is a folder'
          : code === 'ENOTDIR'
            ? 'a part of its path is a file, not a folder'
            : `it cannot be written (${code ?? (error instanceof Error ? error.message : String(error))})`;
  return new InputError(`${flag} ${file}`, [`${why}; name a file in a folder that exists`]);
}
