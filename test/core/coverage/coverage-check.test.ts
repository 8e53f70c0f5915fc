import { describe, expect, it } from 'vitest';
import { coverageCheck } from '../../../functions/core/coverage/coverage-check.ts';
import { IndexError, SitemapError } from '../../../functions/core/shared/errors.ts';
import { buildRunContext, runCheck } from '../../fakes/run-context.ts';

const BOOK = 'https://book.example.org';
const point = (id: string, path: string) => ({
  id,
  vector: [1, 0, 0],
  payload: { chunk_text: id, source_url: `${BOOK}${path}` },
});
const points = [point('p1', '/docs/a'), point('p2', '/docs/b')];
const entries = ['/docs/a', '/docs/b', '/docs/c', '/docs/d'].map((p) => ({ url: `${BOOK}${p}` }));
const refused = {
  kind: 'refused' as const,
  url: 'https://evil.example/x',
  message: 'another origin: https://evil.example/x',
};

describe('coverageCheck', () => {
  it('gives the share of the sitemap’s pages the collection holds, with the missing pages as a finding', async () => {
    const { ctx } = buildRunContext({ points, sitemap: { entries, issues: [] } });
    const result = await runCheck(coverageCheck, ctx);
    expect(result.criteria).toEqual({ coverage: 50, orphanUrls: 0 });
    expect(result.sections?.coverage_report).toMatchObject({
      sitemap_url: `${BOOK}/sitemap.xml`,
      total_sitemap_urls: 4,
      missing_urls: [`${BOOK}/docs/c`, `${BOOK}/docs/d`],
      coverage_percentage: 50,
      timestamp: '2026-03-14T02:00:00.000Z',
    });
    expect(result.errors.map((e) => [e.error_type, e.validation_id])).toEqual([['COVERAGE_GAP', 'run-1']]);
    expect(result.failures).toEqual([]);
  });

  it('computes coverage under the configured path prefix only', async () => {
    const { ctx } = buildRunContext({
      points,
      sitemap: { entries: [...entries, { url: `${BOOK}/blog/x` }], issues: [] },
      options: { coveragePathPrefix: '/blog' },
    });
    expect((await runCheck(coverageCheck, ctx)).criteria).toEqual({ coverage: 0, orphanUrls: 0 });
  });

  it('notes what the sitemap source refused on the coverage section (the finding is the sitemap check’s)', async () => {
    const { ctx } = buildRunContext({ points, sitemap: { entries: entries.slice(0, 2), issues: [refused] } });
    const result = await runCheck(coverageCheck, ctx);
    expect(result.criteria).toEqual({ coverage: 100, orphanUrls: 0 });
    expect(result.errors).toEqual([]);
    expect(result.sections?.coverage_report?.notes).toContain('another origin: https://evil.example/x');
  });

  it('makes an unreadable sitemap a HIGH finding naming the sitemap, a failure of the run, and coverage unknown', async () => {
    const { ctx } = buildRunContext({ points, sitemap: new SitemapError('HTTP 503 from the host', 'unavailable') });
    expect(await runCheck(coverageCheck, ctx)).toEqual({
      status: null,
      sections: {},
      errors: [
        {
          id: 'id-1',
          validation_id: 'run-1',
          error_type: 'SITEMAP_FAILED',
          severity: 'HIGH',
          message: `could not read the sitemap ${BOOK}/sitemap.xml: HTTP 503 from the host`,
          details: { sitemap_url: `${BOOK}/sitemap.xml` },
        },
      ],
      failures: ['sitemap: HTTP 503 from the host'],
      verdicts: [
        {
          name: 'coverage',
          description: 'Sitemap pages under the path prefix that are indexed (%)',
          value: null,
          threshold: 100,
          comparator: '>=',
          passed: false,
          severity: 'HIGH',
        },
      ],
      criteria: { coverage: null },
    });
  });

  it('reports a sitemap that timed out as TIMEOUT', async () => {
    const { ctx } = buildRunContext({ points, sitemap: new SitemapError('timed out after 10000 ms', 'timeout') });
    expect((await runCheck(coverageCheck, ctx)).errors.map((e) => e.error_type)).toEqual(['TIMEOUT']);
  });

  it('is skipped when the collection cannot be read, which is reported once, as the profile that failed', async () => {
    const run = buildRunContext({ points, sitemap: { entries, issues: [refused] } });
    run.index.failWith.describe = new IndexError('connection refused', 'unavailable');
    const result = await runCheck(coverageCheck, run.ctx);
    expect(result).toMatchObject({
      status: null,
      sections: {},
      errors: [
        {
          error_type: 'RETRIEVAL_FAILED',
          severity: 'CRITICAL',
          message: 'could not read the collection: connection refused',
        },
      ],
      failures: ['index profile: connection refused'],
      criteria: { coverage: null },
    });
  });

  it('fails the run on a page deleted from the site but still indexed, at max_orphan_urls 0, and not at 1', async () => {
    // Prepare: /docs/b was deleted from the site; its chunks are still in the collection.
    const deleted = { entries: entries.slice(0, 1), issues: [] };
    const suite = (max: number) => ({ queries: [{ query_text: 'q' }], success_criteria: { max_orphan_urls: max } });

    // Act
    const strict = await runCheck(coverageCheck, buildRunContext({ points, sitemap: deleted, suite: suite(0) }).ctx);
    const allowed = await runCheck(coverageCheck, buildRunContext({ points, sitemap: deleted, suite: suite(1) }).ctx);

    // Assess
    expect(strict.verdicts.find((c) => c.name === 'orphan_urls')).toEqual({
      name: 'orphan_urls',
      description: 'Indexed URLs with no page in the sitemap (deleted or moved pages still served)',
      value: 1,
      threshold: 0,
      comparator: '<=',
      passed: false,
      severity: 'MEDIUM',
    });
    expect(strict.status).toBe('fail');
    expect(strict.errors.map((e) => [e.error_type, e.message])).toEqual([
      ['ORPHAN_URLS', `1 indexed URL has no page in the sitemap; first: ${BOOK}/docs/b`],
    ]);
    expect(allowed.verdicts.find((c) => c.name === 'orphan_urls')).toMatchObject({ value: 1, passed: true });
  });

  it('judges no orphan criterion when the sitemap lists nothing (coverage fails instead)', async () => {
    const { ctx } = buildRunContext({ points, sitemap: { entries: [], issues: [] } });
    expect((await runCheck(coverageCheck, ctx)).criteria).toEqual({ coverage: 0 });
  });
});
