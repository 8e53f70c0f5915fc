/** Small conventions a Unix tool keeps (issue 25 §8): --version and shell completion. */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../functions/cli/main.ts';
import { REPORT_SCHEMA_VERSION } from '../../functions/core/report/report.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const PKG = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };

/** main() with stdout and stderr captured. */
async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((c) => out.push(String(c)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation((c) => err.push(String(c)) > 0);
  const code = await main(args, {});
  vi.restoreAllMocks();
  return { code, out: out.join(''), err: err.join('') };
}
afterEach(() => vi.restoreAllMocks());

describe('--version', () => {
  it('prints the package’s version and the report schema’s, and exits 0', async () => {
    for (const flag of ['--version', '-V'])
      expect(await run([flag])).toEqual({
        code: 0,
        out: `ragwatch ${PKG.version} (report schema_version ${REPORT_SCHEMA_VERSION})\n`,
        err: '',
      });
  });
});

describe('completion', () => {
  /** What bash completes after `ragwatch <typed>`, through the script `completion bash` prints. */
  function complete(script: string, typed: string): string[] {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'ragwatch-completion-')), 'c.bash');
    writeFileSync(file, script);
    const words = typed.split(' ');
    const program = `source "$1"; COMP_WORDS=(ragwatch ${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length}; _ragwatch_complete; echo "\${COMPREPLY[*]}"`;
    return execFileSync('bash', ['-c', program, 'bash', file], { encoding: 'utf8' }).trim().split(' ');
  }

  it('completes commands, sub-commands and each command’s own flags in bash', async () => {
    const { code, out } = await run(['completion', 'bash']);
    expect(code).toBe(0);
    expect(complete(out, 'su')).toEqual(['suite']);
    expect(complete(out, 'suite gen')).toEqual(['generate']);
    expect(complete(out, 'suite generate --fo')).toEqual(['--force']);
    expect(complete(out, 'run --su')).toEqual(['--suite']);
    // A flag's value is not a command: the flags of run are still offered after it.
    expect(complete(out, 'run --suite my.json --js')).toEqual(['--json']);
    expect(complete(out, 'calibrate --js')).toEqual(['--json']);
    expect(complete(out, 'calibrate --wr')).toEqual(['--write']);
  });

  it('prints a zsh script that registers the same candidates', async () => {
    const { code, out } = await run(['completion', 'zsh']);
    expect(code).toBe(0);
    expect(out).toMatch(/^#compdef ragwatch\n/);
    expect(out).toContain('compdef _ragwatch ragwatch');
    expect(out).toContain('"suite generate") echo "');
    // No zsh on this machine to run it: its shared part is the bash one above; the syntax is checked where zsh is.
    const zsh = spawnSync('zsh', ['-n'], { input: out });
    if (zsh.error === undefined) expect(zsh.status).toBe(0);
  });

  it('names the shells it knows when asked for another', async () => {
    const { code, err } = await run(['completion', 'fish']);
    expect(code).toBe(2);
    expect(err).toContain('expects bash or zsh, got "fish"');
  });
});
