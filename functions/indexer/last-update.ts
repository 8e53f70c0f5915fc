/**
 * When each page was last updated, as Docusaurus dates it for the sitemap's `<lastmod>` (issue 23): the front
 * matter's `last_update.date`, else the time of the last git commit that touched the file, else the file's
 * modification time. The indexer records the day of it in each page's page_version, so freshness can tell a
 * date-only `<lastmod>` (the sitemap plugin's `lastmod: 'date'`) newer than the indexed text from one of the same
 * day: comparing that date with the day of indexed_at cannot tell an edit after the index from one before it, and
 * fired on every night after a re-index made the same day.
 */
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The last commit time (ms) of every file under `docsDir` git knows, by its `/`-separated path inside the folder;
 * empty when the folder is not in a git work tree or git cannot be run (then file times are used). One `git log`
 * for the whole folder, newest commit first, so a file's first appearance is its last commit.
 */
export function gitCommitTimes(docsDir: string): Promise<Map<string, number>> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['log', '--format=%x00%ct', '--name-only', '--relative', '--no-renames', '--', '.'],
      { cwd: docsDir, maxBuffer: 64 * 1024 * 1024, timeout: 30_000 },
      (error, stdout) => resolve(error ? new Map() : parseGitLog(stdout)),
    );
  });
}

/** `git log --format=%x00%ct --name-only` output: the first (newest) commit time of each file. */
export function parseGitLog(output: string): Map<string, number> {
  const times = new Map<string, number>();
  for (const commit of output.split('\0')) {
    const [head, ...files] = commit.split('\n');
    const seconds = Number(head?.trim());
    if (head === undefined || head.trim() === '' || !Number.isFinite(seconds)) continue;
    for (const file of files) {
      const name = file.trim();
      if (name !== '' && !times.has(name)) times.set(name, seconds * 1000);
    }
  }
  return times;
}

/**
 * A page's last update time (ISO 8601): `last_update.date` from its front matter when readable, else its last
 * commit, else its file time; undefined when none can be read.
 */
export async function lastUpdateOf(
  docsDir: string,
  file: string,
  frontmatter: Record<string, unknown>,
  commits: ReadonlyMap<string, number>,
): Promise<string | undefined> {
  const declared = (frontmatter.last_update as { date?: unknown } | null | undefined)?.date;
  const fromFront =
    declared instanceof Date ? declared.getTime() : typeof declared === 'string' ? Date.parse(declared) : Number.NaN;
  if (Number.isFinite(fromFront)) return new Date(fromFront).toISOString();
  const committed = commits.get(file);
  if (committed !== undefined) return new Date(committed).toISOString();
  try {
    return (await stat(join(docsDir, ...file.split('/')))).mtime.toISOString();
  } catch {
    return undefined;
  }
}
