/**
 * `ragwatch sandbox` serves the book's sitemap as a deployed site would: read again at every request, and, when it
 * generates one, each page's lastmod is its file's modification time. So README's walk can edit a page, see
 * STALE_PAGES, re-index and see it clear, offline (issue 23).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ServedBook, serveBook } from '../../sandbox/serve-book.ts';

const BOOK = path.join(import.meta.dirname, '..', 'fixtures', 'project-site-book');
const BASE_URL = 'https://user.github.io/repo/';
const served: ServedBook[] = [];
let dir = '';

afterEach(async () => {
  await Promise.all(served.splice(0).map((book) => book.stop()));
  rmSync(dir, { recursive: true, force: true });
});

function copyBook(): string {
  dir = mkdtempSync(path.join(tmpdir(), 'ragwatch-live-sitemap-'));
  cpSync(BOOK, dir, { recursive: true });
  return dir;
}

async function sitemapOf(book: ServedBook): Promise<string> {
  const response = await fetch(book.env.SITEMAP_URL ?? '');
  expect(response.status).toBe(200);
  return response.text();
}

function lastmodOf(xml: string, loc: string): string | undefined {
  return xml.match(new RegExp(`<loc>${loc}</loc>\\s*<lastmod>([^<]+)</lastmod>`))?.[1];
}

describe('the sandbox sitemap', () => {
  it("generated: carries each page's file time as lastmod, and an edit moves it at the next request", async () => {
    // Prepare
    const root = copyBook();
    const intro = path.join(root, 'docs', 'intro.md');
    utimesSync(intro, new Date('2026-01-02T03:04:05Z'), new Date('2026-01-02T03:04:05Z'));
    const book = await serveBook({ docsDir: path.join(root, 'docs'), baseUrl: BASE_URL });
    served.push(book);
    const before = await sitemapOf(book);

    // Act: the author edits the page, as the README walk does.
    writeFileSync(intro, `${readFileSync(intro, 'utf8')}\n## Added Later\n\nWritten after the index was built.\n`);
    utimesSync(intro, new Date('2026-03-04T05:06:07Z'), new Date('2026-03-04T05:06:07Z'));
    const after = await sitemapOf(book);

    // Assess
    expect(lastmodOf(before, `${BASE_URL}docs/intro`)).toBe('2026-01-02T03:04:05.000Z');
    expect(lastmodOf(after, `${BASE_URL}docs/intro`)).toBe('2026-03-04T05:06:07.000Z');
    expect(lastmodOf(after, `${BASE_URL}docs/quick-reference`)).toBe(
      lastmodOf(before, `${BASE_URL}docs/quick-reference`),
    );
  });

  it('given: re-read from its file at every request, and a 500 naming the problem when it is gone', async () => {
    // Prepare
    const root = copyBook();
    const file = path.join(root, 'sitemap.xml');
    const book = await serveBook({ docsDir: path.join(root, 'docs'), baseUrl: BASE_URL, sitemapFile: file });
    served.push(book);
    const before = await sitemapOf(book);

    // Act
    const rebuilt = before.replace('</urlset>', `<url><loc>${BASE_URL}docs/new-page</loc></url></urlset>`);
    writeFileSync(file, rebuilt);
    const after = await sitemapOf(book);
    rmSync(file);
    const gone = await fetch(book.env.SITEMAP_URL ?? '');

    // Assess
    expect(before).toBe(readFileSync(path.join(BOOK, 'sitemap.xml'), 'utf8'));
    expect(after).toBe(rebuilt);
    expect(gone.status).toBe(500);
    expect(await gone.text()).toContain(`${file}: cannot be read (ENOENT)`);
  });
});
