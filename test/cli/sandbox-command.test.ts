/**
 * `ragwatch sandbox` as a user runs it: a child process on the fixture project-site book, read through the env file
 * it writes, validated through the real clients, and stopped by a signal.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngineAdapters, runOptionsFromConfig } from '../../functions/adapters/engine-adapters.ts';
import { main } from '../../functions/cli/main.ts';
import { parseEngineConfig } from '../../functions/core/config.ts';
import { runValidation } from '../../functions/core/run/run-validation.ts';
import { parseSuite } from '../../functions/core/suite/suite.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const BOOK = path.join(ROOT, 'test', 'fixtures', 'project-site-book');
const BASE_URL = 'https://user.github.io/repo/';
/** `npm run ragwatch`'s own command line (package.json), with this Node: `node functions/cli/main.ts --`. */
const RAGWATCH = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { ragwatch: string } }
).scripts.ragwatch
  .split(' ')
  .slice(1);

interface Started {
  child: ChildProcess;
  envFile: string;
  printed: string;
}
const children: ChildProcess[] = [];
// Two sandboxes, started once and together: one serving the book's own sitemap, one a generated sitemap. The
// signal tests stop them, one per signal.
let given: Started;
let generated: Started;

beforeAll(async () => {
  [given, generated] = await Promise.all([
    startSandboxCommand(['--sitemap', path.join(BOOK, 'sitemap.xml')]),
    startSandboxCommand([]),
  ]);
});

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Starts `ragwatch sandbox` and resolves once it has printed its environment. */
async function startSandboxCommand(extra: string[]): Promise<Started> {
  const envFile = path.join(mkdtempSync(path.join(tmpdir(), 'ragwatch-sandbox-')), 'sandbox.env');
  const args = [...RAGWATCH, 'sandbox', '--docs', path.join(BOOK, 'docs'), '--base-url', BASE_URL];
  const child = spawn(process.execPath, [...args, '--write-env', envFile, ...extra], { cwd: ROOT });
  children.push(child);
  let printed = '';
  let errors = '';
  child.stderr?.on('data', (data) => {
    errors += String(data);
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (data) => {
      printed += String(data);
      if (printed.includes('SITEMAP_URL=')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`ragwatch sandbox exited ${code}: ${errors}`)));
  });
  return { child, envFile, printed };
}

function exitOf(process: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => process.on('exit', (code) => resolve(code)));
}

function readEnvFile(file: string): Record<string, string> {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  return Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

describe('ragwatch sandbox', () => {
  it('writes and prints the six variables, and a run with them covers the book under its base path', async () => {
    // Prepare
    const { envFile, printed } = given;
    const env = readEnvFile(envFile);
    const suite = parseSuite(
      JSON.stringify({ queries: [{ query_text: 'What is a ROS 2 node?', expected_module: 'module1-ros2' }] }),
      'suite.json',
    );

    // Act
    const config = parseEngineConfig(env);
    const report = await runValidation(createEngineAdapters(config), {
      ...runOptionsFromConfig(config),
      suite,
      suiteSource: 'suite.json',
    });

    // Assess
    expect(Object.keys(env)).toEqual([
      'QDRANT_URL',
      'QDRANT_COLLECTION',
      'COHERE_BASE_URL',
      'COHERE_API_KEY',
      'DOCUSAURUS_BASE_URL',
      'SITEMAP_URL',
      'COVERAGE_PATH_PREFIX',
    ]);
    expect(env.COVERAGE_PATH_PREFIX).toBe('/repo/docs/');
    expect(printed.trim()).toBe(readFileSync(envFile, 'utf8').trim());
    expect(env.DOCUSAURUS_BASE_URL).toBe(BASE_URL);
    expect(report.coverage_report).toMatchObject({
      path_prefix: '/repo/docs/',
      total_sitemap_urls: 5,
      outside_prefix_urls: 2,
      coverage_percentage: 100,
    });
    expect(report.query_results[0]?.module_match).toBe(true);
  });

  it('serves a sitemap generated from the docs when none is given', async () => {
    // Act
    const xml = await (await fetch(readEnvFile(generated.envFile).SITEMAP_URL ?? '')).text();

    // Assess
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([
      BASE_URL,
      'https://user.github.io/repo/docs/intro',
      'https://user.github.io/repo/docs/module1-ros2/ch1-ros2-basics',
      'https://user.github.io/repo/docs/module1-ros2/ch2-services-and-actions',
      'https://user.github.io/repo/docs/module2-simulation/ch1-gazebo',
      'https://user.github.io/repo/docs/quick-reference',
    ]);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('stops its servers and exits 0 on %s', async (signal) => {
    // Prepare
    const sandbox = signal === 'SIGINT' ? given : generated;
    const { QDRANT_URL } = readEnvFile(sandbox.envFile);
    const running = sandbox.child;
    const exited = exitOf(running);

    // Act
    running.kill(signal);

    // Assess
    expect(await exited).toBe(0);
    await expect(fetch(`${QDRANT_URL}/collections`)).rejects.toThrow();
  });

  it('exits 2 naming the file when the given sitemap cannot be read, before starting anything', async () => {
    // Prepare
    const stderr = vi.spyOn(process.stderr, 'write').mockReturnValue(true);
    const args = ['--docs', path.join(BOOK, 'docs'), '--base-url', BASE_URL, '--sitemap', 'nope.xml'];

    // Act
    const code = await main(['sandbox', ...args, '--write-env', path.join(tmpdir(), 'x.env')]);

    // Assess
    expect(code).toBe(2);
    expect(stderr.mock.calls.map(([text]) => String(text)).join('')).toContain('nope.xml: cannot be read (ENOENT)');
    stderr.mockRestore();
  });
});
