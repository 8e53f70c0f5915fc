/**
 * The CLI's output through a real pipe into a slow reader, as `ragwatch run --json | jq` meets it in CI. A pipe on
 * Linux holds 64 KiB: the rest waits in the writing process, and a process that exits before it drains cuts the
 * output there while its exit code says nothing. In-process tests of `main()` cannot see this, so these spawn the
 * real CLI under `sh`, its output piped into `{ sleep 1; cat; }`, and parse all that comes out the far end.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReportJsonSchema } from '../../functions/core/report/report.ts';
import { indexSampleBook, SAMPLE_SUITE_PATH, type Sandbox, startSandbox } from '../../sandbox/start-sandbox.ts';
import { parseValidReport } from '../helpers/valid-report.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const MAIN = path.join(ROOT, 'functions', 'cli', 'main.ts');
/** Past the 64 KiB a Linux pipe holds, so a cut would show. */
const PIPE_CAPACITY = 65_536;

let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ragwatch-pipe-'));
  sandbox = await startSandbox();
  await indexSampleBook(sandbox);
});
afterAll(async () => {
  await sandbox?.stop();
});

interface Piped {
  /** What the slow reader read, in full. */
  read: string;
  /** The CLI's own exit code (not the pipeline's). */
  code: number;
}

/**
 * Runs `ragwatch <args>` with one of its streams piped into a reader that waits a second before it reads; the other
 * stream goes to /dev/null. The CLI's exit code is written to a file, since a pipeline's status is its last command's.
 */
function pipeIntoSlowReader(args: string[], stream: 'stdout' | 'stderr', env: Record<string, string> = {}) {
  const codeFile = path.join(mkdtempSync(path.join(dir, 'code-')), 'code');
  const redirect = stream === 'stdout' ? '2>/dev/null' : '2>&1 >/dev/null';
  const script = `{ "$0" "$@" ${redirect}; echo $? > "${codeFile}"; } | { sleep 1; cat; }`;
  const child = spawn('sh', ['-c', script, process.execPath, MAIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let read = '';
  child.stdout.on('data', (data) => {
    read += String(data);
  });
  return new Promise<Piped>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => resolve({ read, code: Number(readFileSync(codeFile, 'utf8').trim()) }));
  });
}

// Each test spawns a whole Node process (a full run for two of them) and its reader waits 1 s: on a shared machine
// under load that passes vitest's 5 s default without anything being wrong. The bound is for a hang; what is
// asserted is that the output arrives whole, not how fast.
describe('output into a slow pipe reader', { timeout: 60_000 }, () => {
  it('`schema` arrives whole: the same JSON Schema the code builds, past 64 KiB', async () => {
    // Act
    const { read, code } = await pipeIntoSlowReader(['schema'], 'stdout');

    // Assess
    expect(code).toBe(0);
    expect(Buffer.byteLength(read)).toBeGreaterThan(PIPE_CAPACITY);
    expect(JSON.parse(read)).toEqual(buildReportJsonSchema());
  });

  it('`run --json` arrives whole: a valid report past 64 KiB, with exit 0', async () => {
    // Act
    const { read, code } = await pipeIntoSlowReader(
      ['run', '--suite', SAMPLE_SUITE_PATH, '--json', '--no-progress', '--out', path.join(dir, 'reports')],
      'stdout',
      sandbox.env,
    );

    // Assess
    expect(Buffer.byteLength(read)).toBeGreaterThan(PIPE_CAPACITY);
    const report = parseValidReport(JSON.parse(read));
    expect(report.query_results.length).toBeGreaterThan(0);
    expect(code).toBe(report.status === 'PASSED' ? 0 : 1);
  });

  it('the exit-3 fallback arrives whole: the report on stderr parses, past 64 KiB', async () => {
    // Prepare: --out is a file, so no folder can be made under it
    const blocker = path.join(dir, 'not-a-folder');
    writeFileSync(blocker, 'x');

    // Act
    const { read, code } = await pipeIntoSlowReader(
      ['run', '--suite', SAMPLE_SUITE_PATH, '--no-progress', '--out', blocker],
      'stderr',
      sandbox.env,
    );

    // Assess
    expect(code).toBe(3);
    const lines = read.split('\n');
    const at = lines.findIndex((line) => line.startsWith(`ragwatch: could not write the report under ${blocker}`));
    expect(at).toBeGreaterThanOrEqual(0);
    const reportLine = lines[at + 1] ?? '';
    expect(Buffer.byteLength(reportLine)).toBeGreaterThan(PIPE_CAPACITY);
    expect(parseValidReport(JSON.parse(reportLine)).query_results.length).toBeGreaterThan(0);
  });
});
