/**
 * A page's last update time as Docusaurus dates its sitemap <lastmod> (functions/indexer/last-update.ts): front
 * matter `last_update.date`, else the file's last git commit, else its file time; read through readBook.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitCommitTimes, lastUpdateOf, parseGitLog } from '../../functions/indexer/last-update.ts';
import { readBook } from '../../functions/indexer/read-docs.ts';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ragwatch-last-update-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), text);
}

function git(args: string[], date?: string): void {
  const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd: dir,
    env,
    stdio: 'ignore',
  });
}

describe('parseGitLog', () => {
  it('keeps each file’s newest commit (the first listed), in milliseconds', () => {
    const log = '\u0000200\n\na.md\nb/c.md\n\u0000100\n\na.md\nd.md\n';
    expect(parseGitLog(log)).toEqual(
      new Map([
        ['a.md', 200_000],
        ['b/c.md', 200_000],
        ['d.md', 100_000],
      ]),
    );
  });

  it('reads nothing from output that is not a log', () => {
    expect(parseGitLog('')).toEqual(new Map());
    expect(parseGitLog('\u0000not a time\na.md\n')).toEqual(new Map());
  });
});

describe('a page’s last update time', () => {
  it('is its last commit inside a git work tree, its file time outside one', async () => {
    await write('docs/a.md', '# A\n\nText.\n');
    await write('docs/b.md', '# B\n\nText.\n');
    await utimes(join(dir, 'docs/b.md'), new Date('2024-01-02T03:04:05Z'), new Date('2024-01-02T03:04:05Z'));
    expect(await gitCommitTimes(join(dir, 'docs'))).toEqual(new Map());
    const outside = await readBook({ docsDir: join(dir, 'docs'), baseUrl: 'https://book.example.com' });
    expect(outside.pages.find((p) => p.file === 'b.md')?.updatedAt).toBe('2024-01-02T03:04:05.000Z');

    git(['init', '-q']);
    git(['add', '.']);
    git(['commit', '-q', '-m', 'first'], '2025-03-01T10:00:00Z');
    await write('docs/a.md', '# A\n\nText, edited.\n');
    git(['commit', '-q', '-am', 'second'], '2025-03-05T23:30:00Z');
    await write('docs/new.md', '# New\n\nNot committed.\n');
    const inside = await readBook({ docsDir: join(dir, 'docs'), baseUrl: 'https://book.example.com' });
    const at = Object.fromEntries(inside.pages.map((p) => [p.file, p.updatedAt]));
    expect(at['a.md']).toBe('2025-03-05T23:30:00.000Z');
    expect(at['b.md']).toBe('2025-03-01T10:00:00.000Z');
    // Git does not know it: its file time, as for a folder outside git.
    expect(Date.parse(at['new.md'] ?? '')).toBeGreaterThan(Date.parse('2025-03-06T00:00:00Z'));
  });

  it('is the front matter’s last_update.date when it is readable, before any commit or file time', async () => {
    await write('a.md', '# A\n');
    const commits = new Map([['a.md', Date.parse('2025-03-05T00:00:00Z')]]);
    expect(await lastUpdateOf(dir, 'a.md', { last_update: { date: '2024-07-01' } }, commits)).toBe(
      '2024-07-01T00:00:00.000Z',
    );
    expect(await lastUpdateOf(dir, 'a.md', { last_update: { date: new Date('2024-07-02T00:00:00Z') } }, commits)).toBe(
      '2024-07-02T00:00:00.000Z',
    );
    expect(await lastUpdateOf(dir, 'a.md', { last_update: { date: 'soon' } }, commits)).toBe(
      '2025-03-05T00:00:00.000Z',
    );
    expect(await lastUpdateOf(dir, 'a.md', { last_update: null }, commits)).toBe('2025-03-05T00:00:00.000Z');
    expect(await lastUpdateOf(dir, 'gone.md', {}, new Map())).toBeUndefined();
  });
});
