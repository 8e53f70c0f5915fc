import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT, exitCodeOfRun } from '../../functions/cli/exit-codes.ts';

const README = readFileSync(path.join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

/** The codes README's "Exit codes" table lists, in order. */
function documentedCodes(): number[] {
  const section = README.slice(README.indexOf('### Exit codes'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| code |')));
  return [...table.matchAll(/^\| (\d+) \|/gm)].map((m) => Number(m[1]));
}

describe('the exit codes', () => {
  it('are the ones README’s table documents, each once', () => {
    expect(documentedCodes()).toEqual(Object.values(EXIT));
  });
});

describe('exitCodeOfRun', () => {
  it('is 0 for a PASSED run whose report was written', () => {
    expect(exitCodeOfRun({ stored: true, status: 'PASSED' })).toBe(0);
  });

  it('is 1 for a FAILED run and 4 for an ERROR run whose report was written', () => {
    expect([
      exitCodeOfRun({ stored: true, status: 'FAILED' }),
      exitCodeOfRun({ stored: true, status: 'ERROR' }),
    ]).toEqual([1, 4]);
  });

  it('is 3 whenever the report could not be written, whatever the status', () => {
    expect((['PASSED', 'FAILED', 'ERROR'] as const).map((status) => exitCodeOfRun({ stored: false, status }))).toEqual([
      3, 3, 3,
    ]);
  });
});
