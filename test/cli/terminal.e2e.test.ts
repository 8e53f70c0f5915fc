/**
 * What the CLI does to a terminal, seen from outside the process (issue 25 §8): -q and -v on what it prints, and,
 * through a real pseudo-terminal (util-linux `script`), the progress bar: Ctrl-C gives the cursor back and exits 130,
 * and the count reaches the total when a query is never searched. An in-process test of main() has no TTY, so no bar.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexSampleBook, SAMPLE_SUITE_PATH, type Sandbox, startSandbox } from '../../sandbox/start-sandbox.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const MAIN = path.join(ROOT, 'functions', 'cli', 'main.ts');
const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';

let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ragwatch-terminal-'));
  sandbox = await startSandbox();
  await indexSampleBook(sandbox);
});
afterAll(async () => {
  await sandbox?.stop();
});

const env = () => ({ PATH: process.env.PATH ?? '', ...sandbox.env });
const out = (name: string) => path.join(dir, name);

/**
 * The CLI run with pipes for stdout and stderr (no TTY): its exit code and both streams. Asynchronous: the stand-ins
 * answer from this process, so a synchronous spawn would leave the CLI's requests hanging.
 */
function runPiped(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env: env() });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (data) => {
    stdout += String(data);
  });
  child.stderr.on('data', (data) => {
    stderr += String(data);
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The CLI run on a pseudo-terminal, as a person runs it: `script` gives it a TTY and forwards what we type. */
function runOnTerminal(args: string[]): { child: ChildProcessWithoutNullStreams; screen: () => string } {
  const command = [process.execPath, MAIN, ...args].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    env: { ...env(), TERM: 'xterm', COLUMNS: '200' },
  });
  let screen = '';
  child.stdout.on('data', (data) => {
    screen += String(data);
  });
  return { child, screen: () => screen };
}

const exited = (child: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 50) {
    if (waited > 60_000) throw new Error(`never saw ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Each test spawns a whole Node process doing a full run (about 3 s alone on this machine): the bound is for a hang.
const SPAWNED = { timeout: 60_000 };

describe('-q and -v', SPAWNED, () => {
  it('-q prints the three-line footer alone on stdout: verdict, counts, the report link', async () => {
    // Act: -q before the command, as a global flag
    const { code, stdout } = await runPiped(['-q', 'run', '--suite', SAMPLE_SUITE_PATH, '--out', out('quiet')]);

    // Assess
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^(PASSED|FAILED|ERROR) +\d+ /);
    expect(lines[1]).toMatch(/^Counts +\d+ queries: /);
    expect(lines[2]).toMatch(new RegExp(`^Report +file://${out('quiet')}/`));
    expect(code).toBe(lines[0]?.startsWith('PASSED') ? 0 : 1);
  });

  it('-v adds each stage with its status and time; without it there is none', async () => {
    // Act: -v after the command
    const verbose = await runPiped(['run', '-v', '--suite', SAMPLE_SUITE_PATH, '--out', out('verbose')]);
    const normal = await runPiped(['run', '--suite', SAMPLE_SUITE_PATH, '--out', out('normal')]);

    // Assess
    const lines = verbose.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('Stages '));
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ {2}describe +ok +\d+ ms$/),
        expect.stringMatching(/^ {2}queries +ok +\d+ ms$/),
      ]),
    );
    expect(normal.stdout).not.toMatch(/^Stages /m);
    expect(verbose.code).toBe(normal.code);
  });

  it('refuses -q with -v, exit 2, naming both', async () => {
    const { code, stderr } = await runPiped(['-q', 'run', '-v', '--suite', SAMPLE_SUITE_PATH, '--out', out('both')]);
    expect(code).toBe(2);
    expect(stderr).toContain("option '-q, --quiet' cannot be used with option '-v, --verbose'");
  });
});

describe('the progress bar on a terminal', SPAWNED, () => {
  it('gives the cursor back and exits 130 when Ctrl-C stops the run mid-bar', async () => {
    // Prepare: every Qdrant answer takes 3 s, so the bar is up long enough to interrupt
    sandbox.qdrant.setLatency(3_000);
    try {
      const { child, screen } = runOnTerminal(['run', '--suite', SAMPLE_SUITE_PATH, '--out', out('interrupted')]);

      // Act: Ctrl-C typed on the terminal once the bar has hidden the cursor
      await until(() => screen().includes(HIDE_CURSOR), 'the bar start');
      child.stdin.write('\x03');
      const code = await exited(child);

      // Assess: the cursor is shown after it was last hidden, the user is told, and the shell sees 130
      const text = screen();
      expect(text.lastIndexOf(SHOW_CURSOR)).toBeGreaterThan(text.lastIndexOf(HIDE_CURSOR));
      expect(text).toContain('ragwatch: interrupted; no report was written');
      expect(code).toBe(130);
    } finally {
      sandbox.qdrant.setLatency(0);
    }
  });

  it('counts a query that is never searched as done, so the bar reaches the total', async () => {
    // Prepare: three queries, one filtered on a module the index does not have (never searched)
    const suite = out('unsearched.json');
    writeFileSync(
      suite,
      JSON.stringify({
        name: 'unsearched',
        queries: [
          { id: 'a', query_text: 'What is a ROS 2 node?' },
          { id: 'b', query_text: 'How does Gazebo simulate physics?' },
          { id: 'c', query_text: 'What is a ROS 2 topic?', filters: { module: 'No Such Module' } },
        ],
      }),
    );
    const { child, screen } = runOnTerminal(['run', '--suite', suite, '--out', out('count')]);

    // Act
    await exited(child);

    // Assess: the last count the bar drew is 3/3, never stuck at 2/3
    const counts = [...screen().matchAll(/(\d+)\/(\d+) queries/g)].map((m) => `${m[1]}/${m[2]}`);
    expect(counts.at(-1)).toBe('3/3');
  });
});
