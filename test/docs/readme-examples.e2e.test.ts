/**
 * README's command examples, run as written (issue 25: "README's examples are run by a test"), so README cannot
 * drift from the CLI. Each ```sh block is either executed here or listed in NOT_EXECUTED with the reason; a new
 * block that is neither fails the first test.
 *
 * The Day-one block runs under bash exactly as README prints it, in a scratch folder that links to the project's
 * files (so its sandbox.env and my-suite.json do not land in the checkout), with one substitution: its /tmp/my-book
 * becomes a private folder, since /tmp is shared with other runs on the machine. A DEBUG trap, put before the block
 * and not into it, records each `npx ragwatch` command's exit code.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '..', '..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** README's ```sh blocks, each with the heading it sits under. */
const SH_BLOCKS = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => {
  const before = README.slice(0, m.index);
  const heading = [...before.matchAll(/^#+ (.+)$/gm)].at(-1)?.[1] ?? '';
  return { heading, text: m[1] ?? '' };
});

/** Blocks this file runs, by the heading they sit under. */
const EXECUTED = ['Day one: your own book'];
/** Blocks not run, by heading, and why; what of them is run elsewhere is named. */
const NOT_EXECUTED: Record<string, string> = {
  'The two commands':
    '`npm ci` installs and `npm test` is this suite itself; `npm start` is the demo, run by test/cli/main.test.ts ("ragwatch demo") and by the CI job',
  'Running it against real services':
    'needs a Cohere key and a Qdrant cluster; each command in it is run against the stand-ins by test/cli/main.test.ts (run, index, schema) and test/cli/suite-command.test.ts (suite normalize)',
  'Indexing, and what each point carries':
    'a curl call to a real Qdrant cluster (creating a payload index); the indexer sends the same request through the client (test/indexer/qdrant-writer.test.ts)',
};

describe('README’s sh blocks', () => {
  it('are each run by this file or listed as not run, with the reason', () => {
    const unaccounted = SH_BLOCKS.filter((b) => !EXECUTED.includes(b.heading) && !(b.heading in NOT_EXECUTED));
    expect(unaccounted.map((b) => `${b.heading}: ${b.text.split('\n')[0]}`)).toEqual([]);
    const headings = SH_BLOCKS.map((b) => b.heading);
    for (const heading of [...EXECUTED, ...Object.keys(NOT_EXECUTED)]) expect(headings).toContain(heading);
  });
});

/** Runs a bash script in `cwd`, in a process group of its own (killed afterwards, a background sandbox included). */
function bash(script: string, cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn('bash', ['-c', script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => {
    output += String(d);
  });
  child.stderr.on('data', (d) => {
    output += String(d);
  });
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      } catch {
        // the group is gone already
      }
      resolve({ code, output });
    });
  });
}

describe('the Day-one block', () => {
  it('runs as written, each command exiting as README says', { timeout: 300_000 }, async () => {
    // Prepare: a scratch folder standing for the project's root
    const scratch = mkdtempSync(path.join(tmpdir(), 'ragwatch-readme-'));
    const cwd = path.join(scratch, 'project');
    mkdirSync(cwd);
    for (const entry of ['node_modules', 'functions', 'sandbox', 'test', 'package.json', 'tsconfig.json'])
      symlinkSync(path.join(ROOT, entry), path.join(cwd, entry));
    const block = SH_BLOCKS.find((b) => b.heading === 'Day one: your own book')?.text ?? '';
    const book = path.join(scratch, 'my-book');
    const steps = path.join(scratch, 'steps.tsv');
    const trap = `trap 'rc=$?; case "$PREV" in *"npx ragwatch"*) printf "%s\\t%s\\n" "$rc" "$PREV" >> "${steps}";; esac; PREV=$BASH_COMMAND' DEBUG`;
    const env = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) => !/^(QDRANT|COHERE|DOCUSAURUS|SITEMAP|COVERAGE|SUITE_PATH|REPORT_DIR)/.test(k),
      ),
    );

    // Act
    const { output } = await bash(`${trap}\n${block.replaceAll('/tmp/my-book', book)}\n:`, cwd, env);

    // Assess: the six commands, with README's exit codes (step 5 finds the edited page stale and exits 1)
    const ran = readFileSync(steps, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(ran, output).toEqual([
      ['0', 'npx ragwatch suite generate --out my-suite.json'],
      ['0', 'npx ragwatch calibrate --suite my-suite.json --write'],
      ['0', 'npx ragwatch run --suite my-suite.json'],
      ['1', 'npx ragwatch run --suite my-suite.json'],
      ['0', 'npx ragwatch index --docs /tmp/my-book/docs'.replace('/tmp/my-book', book)],
      ['0', 'npx ragwatch run --suite my-suite.json'],
    ]);
    expect(output).toContain('STALE_PAGES');
  });
});
