/**
 * `--json` on the commands that report something other than a run (issue 25 §8): suite generate, calibrate, index
 * and schema -o each print one JSON object on stdout and nothing else there, whose figures are those of what the
 * command did (the file written, the thresholds put into the suite, the points in the collection).
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../functions/cli/main.ts';
import { REPORT_SCHEMA_VERSION } from '../../functions/core/report/report.ts';
import { parseSuite } from '../../functions/core/suite/suite.ts';
import {
  PROJECT_SITE_BASE_URL as BASE_URL,
  PROJECT_SITE_BOOK_DIR as BOOK_DIR,
  type IndexedProjectSiteBook,
  startIndexedProjectSiteBook,
} from '../helpers/project-site-book.ts';

let book: IndexedProjectSiteBook;
let dir: string;

beforeAll(async () => {
  book = await startIndexedProjectSiteBook();
  dir = mkdtempSync(path.join(tmpdir(), 'ragwatch-json-'));
});
afterAll(async () => {
  await book?.stop();
});
afterEach(() => vi.restoreAllMocks());

const file = (name: string) => path.join(dir, name);

/** main() with stdout captured: the exit code and stdout parsed as one JSON document (it must be exactly one). */
async function json(args: string[]): Promise<{ code: number; value: Record<string, unknown> }> {
  const out: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((c) => out.push(String(c)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const code = await main(args, book.env);
  vi.restoreAllMocks();
  return { code, value: JSON.parse(out.join('')) as Record<string, unknown> };
}

describe('--json', () => {
  it('suite generate: the absolute path written and the count of each kind of query in it', async () => {
    // Act
    const { code, value } = await json(['suite', 'generate', '--out', file('suite.json'), '--per-page', '2', '--json']);

    // Assess: the counts are the file's own
    expect(code).toBe(0);
    const suite = parseSuite(readFileSync(file('suite.json'), 'utf8'), 'suite.json');
    expect(value).toEqual({
      out: file('suite.json'),
      pages: 5,
      known_item_queries: suite.queries.filter((q) => q.expect_match).length,
      probe_queries: suite.queries.filter((q) => !q.expect_match).length,
      next: `ragwatch calibrate --suite ${file('suite.json')} --write`,
    });
    expect(value.known_item_queries).toBe(10);
  });

  it('calibrate: the thresholds proposed are the ones --write puts into the suite, with the evidence and the prediction', async () => {
    // Prepare
    await main(['suite', 'generate', '--out', file('calibrate.json')], book.env);

    // Act
    const { code, value } = await json(['calibrate', '--suite', file('calibrate.json'), '--write', '--json']);

    // Assess
    expect(code).toBe(0);
    const suite = parseSuite(readFileSync(file('calibrate.json'), 'utf8'), 'calibrate.json');
    const categories = value.categories as { category: string; proposed_min_similarity: number; queries: number }[];
    expect(value).toMatchObject({
      suite: file('calibrate.json'),
      collection: book.env.QDRANT_COLLECTION,
      written: true,
    });
    for (const c of categories) {
      const written = suite.queries.filter((q) => q.category === c.category).map((q) => q.min_similarity);
      expect(written).toHaveLength(c.queries);
      expect(new Set(written)).toEqual(new Set([c.proposed_min_similarity]));
    }
    expect((value.latency as { proposed_max_p95_latency_ms: number }).proposed_max_p95_latency_ms).toBe(
      suite.success_criteria.max_p95_latency_ms,
    );
    expect(value.prediction).toMatchObject({ total_queries: suite.queries.length, status: expect.any(String) });
    expect(value.probes).toMatchObject({ queries: suite.queries.filter((q) => !q.expect_match).length });
  });

  it('index: what was written, kept and deleted in which collection', async () => {
    // Act: a collection of its own, indexed twice: the second time nothing changes
    const args = ['index', '--docs', path.join(BOOK_DIR, 'docs'), '--base-url', BASE_URL, '-c', 'json-book', '--json'];
    const first = await json(args);
    const again = await json(args);

    // Assess
    expect([first.code, again.code]).toEqual([0, 0]);
    expect(first.value).toMatchObject({
      collection: 'json-book',
      embedding_model: 'embed-english-v3.0',
      vector_size: 1024,
      documents: 5,
      unchanged: 0,
      deleted: 0,
      kept_gone_pages: [],
    });
    expect(first.value.written).toBe(first.value.chunks);
    expect(again.value).toMatchObject({ written: 0, unchanged: first.value.chunks, vector_size: null });
  });

  it('schema -o: the absolute path, the schema version and the bytes written', async () => {
    // Act
    const { code, value } = await json(['schema', '-o', file('schema.json'), '--json']);

    // Assess
    expect(code).toBe(0);
    expect(value).toEqual({
      out: file('schema.json'),
      schema_version: REPORT_SCHEMA_VERSION,
      bytes: statSync(file('schema.json')).size,
    });
  });
});
