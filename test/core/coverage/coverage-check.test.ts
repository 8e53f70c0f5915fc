import { describe, expect, it } from 'vitest';
import { coverageCheck } from '../../../functions/core/coverage/coverage-check.ts';
import { IndexError, SitemapError } from '../../../functions/core/shared/errors.ts';
import { buildRunContext } from '../../fakes/run-context.ts';

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
    const result = await coverageCheck.run(ctx);
    expect(result.criteria).toEqual({ coverage: 50 });
    expect(result.sections?.coverage_report).toMatchObject({
      sitemap_url: `${BOOK}/sitemap.xml`,
      total_sitemap_urls: 4,
      missing_urls: [`${BOOK}/docs/c`, `${BOOK}/docs/d`],
      coverage_percentage: 50,
      timestamp: '2026-03-14T02:00:00.000Z',
    });
    expect(result.errors.map((e) => [e.error_type, e.validation_id])).toEqual([['COVERAGE_GAP', 'run-1']]);
    expect(result.failures).toBeUndefined();
  });

  it('computes coverage under the configured path prefix only', async () => {
    const { ctx } = buildRunContext({
      points,
      sitemap: { entries: [...entries, { url: `${BOOK}/blog/x` }], issues: [] },
      options: { coveragePathPrefix: '/blog' },
    });
    expect((await coverageCheck.run(ctx)).criteria).toEqual({ coverage: 0 });
  });

  it('reports what the sitemap source refused, as a finding and a note on the coverage section', async () => {
    const { ctx } = buildRunContext({ points, sitemap: { entries: entries.slice(0, 2), issues: [refused] } });
    const result = await coverageCheck.run(ctx);
    expect(result.criteria).toEqual({ coverage: 100 });
    expect(result.errors).toEqual([
      expect.objectContaining({
        error_type: 'SITEMAP_URL_REFUSED',
        message: '1 sitemap URL(s) refused: another origin: https://evil.example/x',
      }),
    ]);
    expect(result.sections?.coverage_report?.notes).toContain('another origin: https://evil.example/x');
  });

  it('makes an unreadable sitemap a HIGH finding naming the sitemap, a failure of the run, and coverage unknown', async () => {
    const { ctx } = buildRunContext({ points, sitemap: new SitemapError('HTTP 503 from the host', 'unavailable') });
    expect(await coverageCheck.run(ctx)).toEqual({
      sections: { coverage_report: null },
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
      criteria: { coverage: null },
    });
  });

  it('reports a sitemap that timed out as TIMEOUT', async () => {
    const { ctx } = buildRunContext({ points, sitemap: new SitemapError('timed out after 10000 ms', 'timeout') });
    expect((await coverageCheck.run(ctx)).errors.map((e) => e.error_type)).toEqual(['TIMEOUT']);
  });

  it('leaves an unreadable collection to the collection check, keeping the sitemap’s own findings', async () => {
    const run = buildRunContext({ points, sitemap: { entries, issues: [refused] } });
    run.index.failWith.describe = new IndexError('connection refused', 'unavailable');
    const result = await coverageCheck.run(run.ctx);
    expect(result).toEqual({
      sections: { coverage_report: null },
      errors: [expect.objectContaining({ error_type: 'SITEMAP_URL_REFUSED' })],
      criteria: { coverage: null },
    });
  });
});
