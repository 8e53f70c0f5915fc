/** The report as stored: URL lists cut to their first URLs, the counts whole, every list in the streamed attachment. */
import { describe, expect, it } from 'vitest';
import { cutUrlLists } from '../../../functions/core/render/url-lists.ts';
import { FULL_URL_LISTS_SUFFIX, URL_LIST_LIMIT } from '../../../functions/core/report/coverage-report.ts';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import { buildFailedReport } from '../../nightly/fixtures/reports.ts';

const urls = (n: number, tag = 'p') =>
  Array.from({ length: n }, (_, i) => `https://b.example/docs/${tag}-${String(i).padStart(6, '0')}`);

function withLists(missing: string[], extra: string[] = [], indexed: string[] = []): ValidationReport {
  const report = buildFailedReport();
  if (report.coverage_report === null) throw new Error('the fixture has coverage');
  return {
    ...report,
    coverage_report: {
      ...report.coverage_report,
      indexed_urls: indexed,
      missing_urls: missing,
      extra_urls: extra,
      indexed_count: indexed.length,
      missing_count: missing.length,
      extra_count: extra.length,
    },
  };
}

function textOf(pieces: Iterable<string>): string {
  return [...pieces].join('');
}

describe('cutUrlLists', () => {
  it('returns the very report when nothing is cut and its fields already say so', () => {
    const report = withLists(urls(3));
    expect(cutUrlLists(report).report).toBe(report);
  });

  it('says no list was cut, at this limit, when none is over it', () => {
    const report = withLists(urls(3));
    const stale = {
      ...report,
      coverage_report: {
        ...(report.coverage_report as NonNullable<ValidationReport['coverage_report']>),
        urls_listed_max: 7,
        full_url_lists: '.urls.json.gz',
      },
    };
    expect(cutUrlLists(stale, 5).report.coverage_report).toMatchObject({
      urls_listed_max: 5,
      full_url_lists: null,
      missing_urls: urls(3),
    });
  });

  it('cuts the orphans too, and writes empty lists as [] in the full lists', () => {
    const { report, fullLists } = cutUrlLists(withLists([], urls(3, 'x')), 2);
    expect(report.coverage_report?.extra_urls).toEqual(urls(2, 'x'));
    expect(fullLists?.contentType).toBe('application/gzip');
    expect(textOf(fullLists?.pieces() ?? [])).toBe(
      '{\n"indexed_urls": [],\n"missing_urls": [],\n"extra_urls": [\n  "https://b.example/docs/x-000000",\n  "https://b.example/docs/x-000001",\n  "https://b.example/docs/x-000002"\n]\n}\n',
    );
  });

  it('keeps a list of exactly the limit whole, with no attachment', () => {
    const report = withLists(urls(URL_LIST_LIMIT));
    const { report: stored, fullLists } = cutUrlLists(report);
    expect(fullLists).toBeNull();
    expect(stored.coverage_report?.missing_urls).toEqual(urls(URL_LIST_LIMIT));
    expect(stored.coverage_report?.full_url_lists).toBeNull();
  });

  it('cuts every list to its first URLs at one past the limit, keeps the counts whole, and names the attachment', () => {
    const report = withLists(urls(URL_LIST_LIMIT + 1), urls(3, 'x'), urls(250, 'i'));
    const { report: stored, fullLists } = cutUrlLists(report);
    expect(stored.coverage_report).toMatchObject({
      missing_urls: urls(URL_LIST_LIMIT),
      extra_urls: urls(3, 'x'),
      indexed_urls: urls(URL_LIST_LIMIT, 'i'),
      missing_count: URL_LIST_LIMIT + 1,
      extra_count: 3,
      indexed_count: 250,
      urls_listed_max: URL_LIST_LIMIT,
      full_url_lists: FULL_URL_LISTS_SUFFIX,
    });
    expect(fullLists?.suffix).toBe('.urls.json.gz');
    expect(JSON.parse(textOf(fullLists?.pieces() ?? []))).toEqual({
      indexed_urls: urls(250, 'i'),
      missing_urls: urls(URL_LIST_LIMIT + 1),
      extra_urls: urls(3, 'x'),
    });
    // The engine's report is left as it was (a copy is cut, not the report the caller holds).
    expect(report.coverage_report?.missing_urls).toHaveLength(URL_LIST_LIMIT + 1);
  });

  it('writes 50,000 URLs of 2 KB in pieces of about 64 KB, never one string of the whole, each call afresh', () => {
    const long = Array.from(
      { length: 50_000 },
      (_, i) => `https://b.example/docs/${String(i).padStart(6, '0')}/${'s'.repeat(2_000)}`,
    );
    const { fullLists } = cutUrlLists(withLists(long, [], ['https://b.example/docs/"quoted"']));
    const pieces = [...(fullLists?.pieces() ?? [])];
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(64 * 1024 + 2_100);
    // 100 MB in pieces of at least 64 KB: about 1,560 of them, not one per URL
    expect(pieces.length).toBeGreaterThan(1_500);
    expect(pieces.length).toBeLessThan(1_650);
    const parsed = JSON.parse(pieces.join('')) as Record<string, string[]>;
    expect(parsed.missing_urls).toHaveLength(50_000);
    expect(parsed.missing_urls?.[49_999]).toBe(long[49_999]);
    expect(parsed.indexed_urls).toEqual(['https://b.example/docs/"quoted"']);
    expect(textOf(fullLists?.pieces() ?? [])).toBe(pieces.join(''));
    // 100 MB of strings built and parsed: 1-2 s alone, past vitest's 5 s default on a shared 2-core machine.
  }, 30_000);

  it('leaves a report without coverage as it is', () => {
    const report = { ...buildFailedReport(), coverage_report: null };
    expect(cutUrlLists(report)).toEqual({ report, fullLists: null });
  });
});
