/**
 * README's day-one walk on a book, measured (issue 23): sandbox, suite generate, calibrate --write, run; then a page
 * edited, run, re-index, run. Prints, per book, the figures issue 23's targets name, and a table across books.
 * Usage:
 *   node scripts/day-one-walk.ts --book test/fixtures/books/<name> [--book ...] [--lastmod date|datetime] [--json]
 *   node scripts/day-one-walk.ts --docs <dir> --base-url <url> [--sitemap <file>] [--name <label>] [--json]
 * One --docs per call (walk two checkouts with two calls). A fixture book (test/fixtures/books, docs/REAL-BOOKS.md) brings its ground truth (book.json): modules, URLs and the
 * page to edit. `--lastmod date` republishes a fixture's sitemap after the edit as the sitemap plugin's `lastmod: 'date'`
 * writes it (every doc page dated), when the book as shipped has no <lastmod>. Any other docs folder is walked without one: the figures that need it print n/a.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Figures, figuresOf } from './day-one/figures.ts';
import { formatFigures, formatTable } from './day-one/format.ts';
import { type BookJson, type WalkInput, walkDayOne } from './day-one/walk.ts';

/** The walk's input for a fixture book folder (docs/, sitemap.xml, book.json). */
export function bookInput(dir: string): WalkInput {
  const book = JSON.parse(readFileSync(path.join(dir, 'book.json'), 'utf8')) as BookJson;
  const sitemap = path.join(dir, 'sitemap.xml');
  return {
    name: book.name,
    docsDir: path.join(dir, 'docs'),
    baseUrl: book.truth.base_url,
    ...(existsSync(sitemap) ? { sitemapFile: sitemap } : {}),
    book,
  };
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      book: { type: 'string', multiple: true },
      docs: { type: 'string' },
      'base-url': { type: 'string' },
      sitemap: { type: 'string' },
      name: { type: 'string' },
      lastmod: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const form = values.lastmod;
  if (form !== undefined && form !== 'date' && form !== 'datetime') throw new Error('--lastmod is date or datetime');
  const inputs: WalkInput[] = (values.book ?? []).map((dir) => ({
    ...bookInput(dir),
    ...(form === undefined ? {} : { lastmodForm: form }),
  }));
  if (values.docs !== undefined) {
    if (values['base-url'] === undefined) throw new Error('--docs needs --base-url');
    inputs.push({
      name: values.name ?? path.basename(path.resolve(values.docs, '..')),
      docsDir: values.docs,
      baseUrl: values['base-url'],
      ...(values.sitemap ? { sitemapFile: values.sitemap } : {}),
    });
  }
  if (inputs.length === 0) {
    process.stderr.write(
      'usage: node scripts/day-one-walk.ts --book <dir> | --docs <dir> --base-url <url> [--sitemap <file>]\n',
    );
    process.exit(2);
  }
  const all: Figures[] = [];
  for (const input of inputs) {
    const figures = figuresOf(await walkDayOne(input));
    all.push(figures);
    if (!values.json) process.stdout.write(`${formatFigures(figures)}\n\n`);
  }
  process.stdout.write(values.json ? `${JSON.stringify(all, null, 2)}\n` : `${formatTable(all)}\n`);
}
