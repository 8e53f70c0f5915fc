import { describe, expect, it } from 'vitest';
import { SitemapError } from '../../../functions/core/shared/errors.ts';
import { sitemapCheck } from '../../../functions/core/sitemap/sitemap-check.ts';
import { buildRunContext, runCheck } from '../../fakes/run-context.ts';

const entries = [{ url: 'https://book.example.org/docs/a' }];
const refused = {
  kind: 'refused' as const,
  url: 'https://evil.example/x',
  message: 'another origin: https://evil.example/x',
};

describe('sitemapCheck', () => {
  it('reports what the sitemap source refused as a finding', async () => {
    const { ctx } = buildRunContext({ sitemap: { entries, issues: [refused] } });
    const result = await runCheck(sitemapCheck, ctx);
    expect(result.status).toBe('fail');
    expect(result.errors).toEqual([
      expect.objectContaining({
        error_type: 'SITEMAP_URL_REFUSED',
        message: '1 sitemap URL(s) refused: another origin: https://evil.example/x',
      }),
    ]);
  });

  it('passes a sitemap read whole', async () => {
    const { ctx } = buildRunContext({ sitemap: { entries, issues: [] } });
    expect(await runCheck(sitemapCheck, ctx)).toMatchObject({ status: 'pass', errors: [], failures: [] });
  });

  it('is skipped when the sitemap cannot be read, reported once as the sitemap that failed', async () => {
    const { ctx } = buildRunContext({ sitemap: new SitemapError('HTTP 503 from the host', 'unavailable') });
    expect(await runCheck(sitemapCheck, ctx)).toMatchObject({
      status: null,
      errors: [{ error_type: 'SITEMAP_FAILED' }],
      failures: ['sitemap: HTTP 503 from the host'],
    });
  });
});
