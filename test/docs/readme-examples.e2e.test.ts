/**
 * README's command examples, run as written (issue 25: "README's examples are run by a test"), so README cannot
 * drift from the CLI. Each ```sh block is either executed here or listed in NOT_EXECUTED with the reason; a new
 * block that is neither fails the first test.
 *
 * The Day-one block runs under bash exactly as README prints it, in a scratch folder that links to the project's
 * files (so its sandbox.env and my-suite.json do not land in the checkout), with one substitution: its /tmp/my-book
 * becomes a private folder, since /tmp is shared with other runs on the machine. A DEBUG trap, put before the block
 * and not into it, records each `npx ragwatch` command's exit code.
 *
 * The block for real services runs against the stand-ins: its two `export` lines (a Cohere key, a Qdrant cluster)
 * are replaced by the stand-ins' variables, and the files its commands name (my-suite.json, ../book/docs,
 * my-suite.yaml) are the sample suite, the sample book and a seed-004 suite; its commands run as printed.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_BOOK_DIR } from '../../sandbox/book-server.ts';
import { indexSampleBook, SAMPLE_SUITE_PATH, type Sandbox, startSandbox } from '../../sandbox/start-sandbox.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** README's ```sh blocks, each with the heading it sits under. */
const SH_BLOCKS = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => {
  const before = README.slice(0, m.index);
  const heading = [...before.matchAll(/^#+ (.+)$/gm)].at(-1)?.[1] ?? '';
  return { heading, text: m[1] ?? '' };
});

/** Blocks this file runs, by the heading they sit under. */
const EXECUTED = ['Day one: your own book', 'Running it against real services'];
/** Blocks not run, by heading, and why; what of them is run elsewhere is named. */
const NOT_EXECUTED: Record<string, string> = {
  'The two commands':
    '`npm ci` installs and `npm test` is this suite itself; `npm start` is the demo, run by test/cli/main.test.ts ("ragwatch demo") and by the CI job',
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

/** A scratch folder standing for the project's root (links to its files), and the file the trap writes to. */
function scratchProject(): { scratch: string; cwd: string; steps: string; trap: string } {
  const scratch = mkdtempSync(path.join(tmpdir(), 'ragwatch-readme-'));
  const cwd = path.join(scratch, 'project');
  mkdirSync(cwd);
  for (const entry of ['node_modules', 'functions', 'sandbox', 'test', 'package.json', 'tsconfig.json'])
    symlinkSync(path.join(ROOT, entry), path.join(cwd, entry));
  const steps = path.join(scratch, 'steps.tsv');
  const trap = `trap 'rc=$?; case "$PREV" in *"npx ragwatch"*) printf "%s\\t%s\\n" "$rc" "$PREV" >> "${steps}";; esac; PREV=$BASH_COMMAND' DEBUG`;
  return { scratch, cwd, steps, trap };
}

/** Each `npx ragwatch` command the trap saw, with its exit code. */
const stepsRun = (steps: string) =>
  readFileSync(steps, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => line.split('\t'));

/** The environment without any of ragwatch's own variables: a block sets what it needs. */
const cleanEnv = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(QDRANT|COHERE|DOCUSAURUS|SITEMAP|COVERAGE|SUITE_PATH|REPORT_DIR)/.test(k),
    ),
  );

describe('the Day-one block', () => {
  it('runs as written, each command exiting as README says', { timeout: 300_000 }, async () => {
    // Prepare
    const { scratch, cwd, steps, trap } = scratchProject();
    const block = SH_BLOCKS.find((b) => b.heading === 'Day one: your own book')?.text ?? '';
    const book = path.join(scratch, 'my-book');

    // Act
    const { output } = await bash(`${trap}\n${block.replaceAll('/tmp/my-book', book)}\n:`, cwd, cleanEnv());

    // Assess: the six commands, with README's exit codes (step 5 finds the edited page stale and exits 1)
    expect(stepsRun(steps), output).toEqual([
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

describe('the block for real services', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
    await indexSampleBook(sandbox);
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  it('runs against the stand-ins, its two export lines replaced by their variables', { timeout: 300_000 }, async () => {
    // Prepare: the files its commands name (my-suite.json, ../book/docs, my-suite.yaml), in the scratch project
    const { scratch, cwd, steps, trap } = scratchProject();
    copyFileSync(SAMPLE_SUITE_PATH, path.join(cwd, 'my-suite.json'));
    mkdirSync(path.join(scratch, 'book'));
    symlinkSync(path.join(SAMPLE_BOOK_DIR, 'docs'), path.join(scratch, 'book', 'docs'));
    writeFileSync(
      path.join(cwd, 'my-suite.yaml'),
      'benchmark_name: nightly\nquestion_set:\n  - What is ROS 2?\nground_truth_mappings:\n  What is ROS 2?: [/docs/module-1-ros2/ch1-ros2-basics]\n',
    );
    const block = SH_BLOCKS.find((b) => b.heading === 'Running it against real services')?.text ?? '';
    const commands = block.split('\n').filter((line) => !line.startsWith('export '));
    expect(block.split('\n').filter((line) => line.startsWith('export '))).toHaveLength(2);

    // Act
    const { output } = await bash(`${trap}\n${commands.join('\n')}\n:`, cwd, { ...cleanEnv(), ...sandbox.env });

    // Assess: the sample suite breaches on purpose (1); the rest succeed, and what they write is there
    expect(
      stepsRun(steps).map(([code, command]) => [code, command?.split(/\s+#/)[0]?.trim()]),
      output,
    ).toEqual([
      ['1', 'npx ragwatch run --suite my-suite.json'],
      ['0', 'npx ragwatch index --docs ../book/docs --base-url https://your-book.example.com'],
      ['0', 'npx ragwatch schema -o report.schema.json'],
      ['0', 'npx ragwatch suite normalize my-suite.yaml'],
    ]);
    expect(existsSync(path.join(cwd, 'report.schema.json'))).toBe(true);
    expect(output).toContain('"query_text": "What is ROS 2?"');
  });
});
