import { describe, expect, it } from 'vitest';
import { computeCoverage, coverageErrors } from '../../../functions/core/coverage/coverage.ts';
import { CoverageReport } from '../../../functions/core/report/coverage-report.ts';

const BOOK = 'https://book.example.com';
const SITEMAP = `${BOOK}/sitemap.xml`;
const AT = '2026-01-01T02:00:00.000Z';

function cover(sitemapUrls: string[], indexedUrls: string[], pathPrefix = '/docs/'): CoverageReport {
  return computeCoverage({ sitemapUrls, indexedUrls, pathPrefix, sitemapUrl: SITEMAP, source: 'facet', timestamp: AT });
}

function ids(): () => string {
  let n = 0;
  return () => `e${++n}`;
}

describe('computeCoverage', () => {
  it('compares sitemap pages under the prefix with indexed URLs, normalising both', () => {
    // Prepare: three pages under /docs/ (one listed twice), a blog page outside the prefix;
    // the index has intro with a trailing slash and ch1 with a fragment.
    const sitemap = [
      `${BOOK}/docs/intro`,
      `${BOOK}/docs/ch2`,
      `${BOOK}/docs/ch1`,
      `${BOOK}/docs/ch1/`,
      `${BOOK}/blog/news`,
    ];
    const indexed = [`${BOOK}/docs/intro/`, `${BOOK}/docs/ch1#setup`, `${BOOK}/docs/ch1`];

    // Act
    const report = cover(sitemap, indexed);

    // Assess: 2 of 3 pages indexed = 66.666... -> 66.67.
    expect(report).toEqual({
      sitemap_url: SITEMAP,
      path_prefix: '/docs/',
      outside_prefix_urls: 1,
      suggested_prefix: null,
      total_sitemap_urls: 3,
      indexed_urls: [`${BOOK}/docs/ch1`, `${BOOK}/docs/intro`],
      missing_urls: [`${BOOK}/docs/ch2`],
      extra_urls: [],
      indexed_count: 2,
      missing_count: 1,
      extra_count: 0,
      urls_listed_max: 100,
      full_url_lists: null,
      distinct_indexed_urls: 2,
      coverage_percentage: 66.67,
      matched_by: 'url',
      source: 'facet',
      notes: [],
      timestamp: AT,
    });
    expect(CoverageReport.parse(report)).toEqual(report);
  });

  it('matches by path and says so when the book has moved host', () => {
    // Prepare: the sitemap is the public book; the index was built from a local copy.
    const sitemap = [`${BOOK}/docs/intro`, `${BOOK}/docs/ch1`];
    const indexed = ['http://localhost:3000/docs/intro/'];

    // Act
    const report = cover(sitemap, indexed);

    // Assess: 1 of 2 = 50%.
    expect(report).toMatchObject({
      matched_by: 'path',
      indexed_urls: [`${BOOK}/docs/intro`],
      missing_urls: [`${BOOK}/docs/ch1`],
      extra_urls: [],
      coverage_percentage: 50,
      notes: [
        'No indexed URL matched a sitemap URL exactly, so pages were matched by path alone (sitemap hosts: book.example.com; indexed hosts: localhost:3000)',
      ],
    });
  });

  it('keeps matching by URL when the hosts differ and no path matches either', () => {
    // Act
    const report = cover([`${BOOK}/docs/intro`], ['http://localhost:3000/docs/other']);

    // Assess
    expect(report).toMatchObject({ matched_by: 'url', coverage_percentage: 0, notes: [] });
  });

  it('lists indexed URLs with no sitemap page as orphans, sorted, but not indexed pages outside the prefix', () => {
    // Prepare: /blog/news is in the sitemap (outside the prefix); the two /docs/old-* pages are in no sitemap.
    const sitemap = [`${BOOK}/docs/intro`, `${BOOK}/blog/news`];
    const indexed = [`${BOOK}/docs/intro`, `${BOOK}/docs/old-b`, `${BOOK}/blog/news`, `${BOOK}/docs/old-a/`];

    // Act
    const report = cover(sitemap, indexed);

    // Assess
    expect(report).toMatchObject({
      total_sitemap_urls: 1,
      coverage_percentage: 100,
      extra_urls: [`${BOOK}/docs/old-a`, `${BOOK}/docs/old-b`],
      distinct_indexed_urls: 4,
    });
  });

  it('reports 0% with a note when no sitemap URL is under the prefix', () => {
    // Act
    const report = cover([`${BOOK}/blog/news`, `${BOOK}/docsearch`], [`${BOOK}/blog/news`]);

    // Assess: /docsearch is not under /docs/; the indexed page's folder /blog/ is where the sitemap's pages are.
    expect(report).toMatchObject({
      total_sitemap_urls: 0,
      coverage_percentage: 0,
      missing_urls: [],
      notes: [
        "None of the sitemap's 2 URLs is under /docs/: coverage is 0%; set COVERAGE_PATH_PREFIX=/blog/ to count the pages under it",
      ],
    });
  });

  it('reports 0% with notes when the sitemap and the index are empty', () => {
    // Act
    const report = cover([], []);

    // Assess
    expect(report).toMatchObject({
      total_sitemap_urls: 0,
      coverage_percentage: 0,
      notes: ['The sitemap lists no URL: coverage is 0%', 'The index holds no source_url'],
    });
  });

  it('lists missing pages sorted and ignores blank URLs on either side', () => {
    // Act
    const report = cover([`${BOOK}/docs/c`, '  ', `${BOOK}/docs/a`, `${BOOK}/docs/b`], [`${BOOK}/docs/b`, ' ']);

    // Assess
    expect(report).toMatchObject({
      total_sitemap_urls: 3,
      missing_urls: [`${BOOK}/docs/a`, `${BOOK}/docs/c`],
      distinct_indexed_urls: 1,
    });
  });

  it('counts every page under the root prefix, and takes a prefix with or without its trailing slashes', () => {
    // Prepare
    const sitemap = [`${BOOK}/docs/intro`, `${BOOK}/blog/news`];

    // Act
    const totals = ['/', '/docs', '/docs//'].map((prefix) => cover(sitemap, [], prefix).total_sitemap_urls);

    // Assess
    expect(totals).toEqual([2, 1, 1]);
  });

  it('names every host, sorted, and a path without one, when it falls back to matching by path', () => {
    // Prepare
    const sitemap = [`${BOOK}/docs/intro`, 'https://a.example.com/docs/ch1'];
    const indexed = ['http://localhost:3000/docs/intro', '/docs/ch1'];

    // Act
    const report = cover(sitemap, indexed);

    // Assess
    expect(report.notes).toEqual([
      'No indexed URL matched a sitemap URL exactly, so pages were matched by path alone (sitemap hosts: a.example.com, book.example.com; indexed hosts: (no host), localhost:3000)',
    ]);
  });

  it('suggests the folder the indexed pages share when no sitemap URL is under the prefix', () => {
    // Prepare: a project site publishes under /repo/docs/, the run looked under /docs/.
    const sitemap = [`${BOOK}/repo/docs/intro`, `${BOOK}/repo/docs/module1-ros2/ch1`, `${BOOK}/repo/blog`];
    const indexed = [`${BOOK}/repo/docs/intro`, `${BOOK}/repo/docs/module1-ros2/ch1`];

    // Act
    const report = cover(sitemap, indexed);

    // Assess
    expect(report).toMatchObject({
      total_sitemap_urls: 0,
      outside_prefix_urls: 3,
      suggested_prefix: '/repo/docs/',
      notes: [
        "None of the sitemap's 3 URLs is under /docs/: coverage is 0%; set COVERAGE_PATH_PREFIX=/repo/docs/ to count the pages under it",
      ],
    });
  });

  it('suggests the sitemap’s own docs folder when the index shares no folder with it', () => {
    // Act
    const report = cover([`${BOOK}/repo/blog`, `${BOOK}/repo/docs/intro`], []);

    // Assess
    expect(report.suggested_prefix).toBe('/repo/docs/');
  });

  it('suggests nothing when the sitemap has no docs folder and the index none in common', () => {
    // Act
    const report = cover([`${BOOK}/blog/news`], [`${BOOK}/other/page`]);

    // Assess
    expect(report).toMatchObject({ outside_prefix_urls: 1, suggested_prefix: null });
  });

  it('suggests nothing when some sitemap URL is under the prefix', () => {
    // Act
    const report = cover([`${BOOK}/docs/intro`, `${BOOK}/repo/docs/x`], [`${BOOK}/repo/docs/x`]);

    // Assess
    expect(report).toMatchObject({ total_sitemap_urls: 1, outside_prefix_urls: 1, suggested_prefix: null });
  });

  it('suggests the deepest folder every indexed page shares, across subfolders', () => {
    // Prepare
    const docs = [
      `${BOOK}/repo/docs/module1/ch1`,
      `${BOOK}/repo/docs/module2/ch1`,
      `${BOOK}/repo/docs/intro`,
      `${BOOK}/repo/docs/module1/ch2`,
    ];

    // Act
    const report = cover([...docs, `${BOOK}/repo/blog`], docs);

    // Assess
    expect(report.suggested_prefix).toBe('/repo/docs/');
  });

  it('suggests the sitemap’s docs folder, not the root, when the indexed pages share only the root', () => {
    // Act
    const report = cover([`${BOOK}/repo/docs/x`, `${BOOK}/other`], [`${BOOK}/intro`, `${BOOK}/faq`]);

    // Assess
    expect(report.suggested_prefix).toBe('/repo/docs/');
  });

  it('suggests a docs folder from the sitemap’s docs index page itself', () => {
    // Act
    const report = cover([`${BOOK}/repo/docs`], []);

    // Assess
    expect(report.suggested_prefix).toBe('/repo/docs/');
  });

  it('says nothing about a prefix to set when there is none to suggest', () => {
    // Act
    const report = cover([`${BOOK}/blog/news`], [`${BOOK}/other/page`]);

    // Assess
    expect(report.notes).toEqual(["None of the sitemap's 1 URLs is under /docs/: coverage is 0%"]);
  });

  it('counts the prefix page itself as under the prefix', () => {
    // Act
    const report = cover([`${BOOK}/docs/`, `${BOOK}/docs/intro`], [`${BOOK}/docs`]);

    // Assess: 1 of 2.
    expect(report).toMatchObject({ total_sitemap_urls: 2, indexed_urls: [`${BOOK}/docs`], coverage_percentage: 50 });
  });
});

describe('coverageErrors', () => {
  it('raises a HIGH coverage gap under 90% with the first 20 missing URLs', () => {
    // Prepare: 25 pages, 5 indexed: 5 / 25 = 20%.
    const pages = Array.from({ length: 25 }, (_, i) => `${BOOK}/docs/p${String(i).padStart(2, '0')}`);
    const report = cover(pages, pages.slice(0, 5));

    // Act
    const errors = coverageErrors(report, 'run-1', ids());

    // Assess
    expect(errors).toEqual([
      {
        id: 'e1',
        validation_id: 'run-1',
        error_type: 'COVERAGE_GAP',
        message: `20 of 25 sitemap pages under /docs/ are not indexed (coverage 20%); first missing: ${BOOK}/docs/p05`,
        severity: 'HIGH',
        details: {
          coverage_percentage: 20,
          total_sitemap_urls: 25,
          missing_count: 20,
          missing_urls: pages.slice(5, 25),
          matched_by: 'url',
          path_prefix: '/docs/',
          outside_prefix_urls: 0,
          suggested_prefix: null,
        },
      },
    ]);
  });

  it('lists only the first 20 missing URLs in the details, and counts them all', () => {
    // Prepare: 30 pages, none indexed.
    const pages = Array.from({ length: 30 }, (_, i) => `${BOOK}/docs/p${String(i).padStart(2, '0')}`);

    // Act
    const [gap] = coverageErrors(cover(pages, []), 'run-1', ids());

    // Assess
    expect(gap?.details).toMatchObject({ missing_count: 30, missing_urls: pages.slice(0, 20) });
  });

  it('raises a MEDIUM coverage gap at 90% or more', () => {
    // Prepare: 9 of 10 = 90%.
    const pages = Array.from({ length: 10 }, (_, i) => `${BOOK}/docs/p${i}`);
    const report = cover(pages, pages.slice(1));

    // Act
    const [gap] = coverageErrors(report, 'run-1', ids());

    // Assess
    expect(gap).toMatchObject({
      error_type: 'COVERAGE_GAP',
      severity: 'MEDIUM',
      message: `1 of 10 sitemap pages under /docs/ is not indexed (coverage 90%); first missing: ${BOOK}/docs/p0`,
      details: { missing_count: 1 },
    });
  });

  it('raises a HIGH coverage gap when no sitemap URL is under the prefix', () => {
    // Act
    const errors = coverageErrors(cover([], []), 'run-1', ids());

    // Assess
    expect(errors).toMatchObject([
      {
        error_type: 'COVERAGE_GAP',
        severity: 'HIGH',
        message: `No sitemap URL under /docs/ in ${SITEMAP} (coverage 0%)`,
      },
    ]);
  });

  it('names the prefix that would have matched in the coverage gap', () => {
    // Act
    const [gap] = coverageErrors(cover([`${BOOK}/repo/docs/intro`], [`${BOOK}/repo/docs/intro`]), 'run-1', ids());

    // Assess
    expect(gap?.message).toBe(
      `No sitemap URL under /docs/ in ${SITEMAP} (1 outside it; COVERAGE_PATH_PREFIX=/repo/docs/ would match) (coverage 0%)`,
    );
  });

  it('raises a LOW orphan error for indexed URLs with no sitemap page', () => {
    // Prepare
    const report = cover([`${BOOK}/docs/intro`], [`${BOOK}/docs/intro`, `${BOOK}/docs/old`]);

    // Act
    const errors = coverageErrors(report, 'run-1', ids());

    // Assess
    expect(errors).toEqual([
      {
        id: 'e1',
        validation_id: 'run-1',
        error_type: 'ORPHAN_URLS',
        message: `1 indexed URL has no page in the sitemap; first: ${BOOK}/docs/old`,
        severity: 'LOW',
        details: { extra_count: 1, extra_urls: [`${BOOK}/docs/old`] },
      },
    ]);
  });

  it('counts every orphan and lists the first 20', () => {
    // Prepare
    const orphans = Array.from({ length: 25 }, (_, i) => `${BOOK}/docs/old${String(i).padStart(2, '0')}`);
    const report = cover([`${BOOK}/docs/intro`], [`${BOOK}/docs/intro`, ...orphans]);

    // Act
    const [orphan] = coverageErrors(report, 'run-1', ids());

    // Assess
    expect(orphan).toMatchObject({
      message: `25 indexed URLs have no page in the sitemap; first: ${BOOK}/docs/old00`,
      details: { extra_count: 25, extra_urls: orphans.slice(0, 20) },
    });
  });

  it('raises nothing for full coverage without orphans', () => {
    // Act
    const errors = coverageErrors(cover([`${BOOK}/docs/intro`], [`${BOOK}/docs/intro/`]), 'run-1', ids());

    // Assess
    expect(errors).toEqual([]);
  });
});

describe('computeCoverage: listings Docusaurus generates (issue 23)', () => {
  it('leaves the tags pages and generated-index categories out of the count, and says so', () => {
    // Prepare: two docs, the tags index, a tag page, a category index; a doc merely named like them stays counted.
    const sitemap = [
      `${BOOK}/docs/intro`,
      `${BOOK}/docs/ch1`,
      `${BOOK}/docs/tags`,
      `${BOOK}/docs/tags/agents`,
      `${BOOK}/docs/category/basics/`,
      `${BOOK}/docs/tags/agents/deeper`,
      `${BOOK}/docs/category`,
      `${BOOK}/blog/tags`,
    ];
    const indexed = [`${BOOK}/docs/intro`, `${BOOK}/docs/ch1`, `${BOOK}/docs/tags/agents/deeper`];

    // Act
    const report = cover(sitemap, indexed);

    // Assess
    expect(report.total_sitemap_urls).toBe(4);
    expect(report.missing_urls).toEqual([`${BOOK}/docs/category`]);
    expect(report.outside_prefix_urls).toBe(1);
    expect(report.extra_urls).toEqual([]);
    expect(report.notes).toContain(
      `3 generated listing page(s) under /docs/ not counted (tags, generated-index categories: no docs file makes them), e.g. ${BOOK}/docs/tags`,
    );
  });

  it('finds them under a root-served docs route and a base path too', () => {
    expect(cover([`${BOOK}/tags/x`, `${BOOK}/a`], [`${BOOK}/a`], '/').coverage_percentage).toBe(100);
    expect(
      cover([`${BOOK}/repo/docs/tags`, `${BOOK}/repo/docs/a`], [`${BOOK}/repo/docs/a`], '/repo/docs/')
        .coverage_percentage,
    ).toBe(100);
  });

  it('leaves out the site pages COVERAGE_EXCLUDE names under a root-served docs route, and says how many', () => {
    // Prepare: docs at the root beside the site's home, its markdown page and a blog; one doc really missing.
    const sitemap = [
      `${BOOK}/`,
      `${BOOK}/markdown-page/`,
      `${BOOK}/news`,
      `${BOOK}/news/2026/welcome`,
      `${BOOK}/faq/retention/`,
      `${BOOK}/cli/install/`,
      `${BOOK}/markdown-page-two/`,
    ];
    const indexed = [`${BOOK}/faq/retention/`];
    const exclude = ['/', '/markdown-page', '/news/**'];

    // Act
    const report = computeCoverage({
      sitemapUrls: sitemap,
      indexedUrls: indexed,
      pathPrefix: '/',
      exclude,
      sitemapUrl: SITEMAP,
      source: 'facet',
      timestamp: AT,
    });

    // Assess: '/' is the home page alone (not every page under it), '/markdown-page' not '/markdown-page-two'.
    expect(report.total_sitemap_urls).toBe(3);
    expect(report.missing_urls).toEqual([`${BOOK}/cli/install`, `${BOOK}/markdown-page-two`]);
    expect(report.outside_prefix_urls).toBe(0);
    expect(report.notes).toContain(`4 sitemap page(s) left out by COVERAGE_EXCLUDE (not docs), e.g. ${BOOK}/`);
    expect(cover(sitemap, indexed, '/').total_sitemap_urls).toBe(7);
  });
});
