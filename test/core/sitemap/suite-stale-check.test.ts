import { describe, expect, it } from 'vitest';
import { SitemapError } from '../../../functions/core/shared/errors.ts';
import { suiteStaleCheck } from '../../../functions/core/sitemap/suite-stale-check.ts';
import { buildRunContext, runCheck } from '../../fakes/run-context.ts';

const BOOK = 'https://book.example.org';
const sitemap = (...paths: string[]) => ({ entries: paths.map((p) => ({ url: `${BOOK}${p}` })), issues: [] });
/** q1 expects a page the book renamed; q2 expects one still there. */
const suite = {
  queries: [
    { id: 'q1', query_text: 'how do I launch?', expected_sources: ['/docs/old-name'] },
    { id: 'q2', query_text: 'what is a node?', expected_sources: ['/docs/intro'] },
  ],
};

describe('the suite-stale check (SUITE_STALE)', () => {
  it('names the expectation no longer in the sitemap, at LOW severity, for the suite maintainer', async () => {
    const { ctx } = buildRunContext({ suite, sitemap: sitemap('/docs/intro', '/docs/new-name') });
    const result = await runCheck(suiteStaleCheck, ctx);
    expect(result.status).toBe('pass');
    expect(result.sections.regression).toEqual({
      compared: false,
      note: 'not compared with the history of earlier runs',
      baseline_runs: [],
      findings: [
        {
          kind: 'SUITE_STALE',
          severity: 'LOW',
          addressed_to: 'suite maintainer',
          message:
            "query q1 expects /docs/old-name, no longer in the book's sitemap: update the suite (the query is not counted as a retrieval failure)",
          query_id: 'q1',
          metric: null,
          value: null,
          baseline: null,
          band: null,
          urls: ['/docs/old-name'],
        },
      ],
      recovered_queries: [],
      stale_queries: ['q1'],
      score_shift: null,
    });
  });

  it('names every expectation gone from the sitemap in its message', async () => {
    const stale = { queries: [{ id: 'q1', query_text: 'x', expected_sources: ['/docs/a', '/docs/b', '/docs/intro'] }] };
    const { ctx } = buildRunContext({ suite: stale, sitemap: sitemap('/docs/intro') });
    const result = await runCheck(suiteStaleCheck, ctx);
    expect(result.sections.regression?.findings[0]?.message).toBe(
      "query q1 expects /docs/a, /docs/b, no longer in the book's sitemap: update the suite (the query is not counted as a retrieval failure)",
    );
  });

  it('compares full URLs by coverage’s key (host case, trailing slash), and by path when the book moved host', async () => {
    // Prepare: generated suites write full URLs; the sitemap writes the host lower-cased, with a trailing slash.
    const full = {
      queries: [
        { id: 'q1', query_text: 'x', expected_sources: ['https://Book.Example.org/docs/intro'] },
        { id: 'q2', query_text: 'y', expected_sources: ['https://Book.Example.org/docs/old-name'] },
      ],
    };
    const moved = (...paths: string[]) => ({
      entries: paths.map((p) => ({ url: `http://127.0.0.1:4000${p}/` })),
      issues: [],
    });

    // Act
    const here = await runCheck(
      suiteStaleCheck,
      buildRunContext({ suite: full, sitemap: sitemap('/docs/intro/') }).ctx,
    );
    const there = await runCheck(suiteStaleCheck, buildRunContext({ suite: full, sitemap: moved('/docs/intro') }).ctx);
    const nowhere = await runCheck(
      suiteStaleCheck,
      buildRunContext({ suite: full, sitemap: moved('/docs/other') }).ctx,
    );

    // Assess: only the renamed page is stale, wherever the book is served; a sitemap sharing no page makes both stale.
    expect(here.sections.regression?.stale_queries).toEqual(['q2']);
    expect(there.sections.regression?.stale_queries).toEqual(['q2']);
    expect(nowhere.sections.regression?.stale_queries).toEqual(['q1', 'q2']);
  });

  it('keeps comparing by URL when some expectation names a sitemap page by URL, and doc ids by their tail always', async () => {
    // Prepare: the book's own host matches q1, so q2's page on a mirror host is not taken by path; q3 is a doc id.
    const suite3 = {
      queries: [
        { id: 'q1', query_text: 'x', expected_sources: ['https://Book.Example.org/docs/intro'] },
        { id: 'q2', query_text: 'y', expected_sources: [`${BOOK}/docs/old-name`] },
        { id: 'q3', query_text: 'z', expected_sources: ['intro'] },
      ],
    };
    const mixed = {
      entries: [{ url: `${BOOK}/docs/intro` }, { url: 'http://mirror.example.org/docs/old-name' }],
      issues: [],
    };
    const moved = { entries: [{ url: 'http://127.0.0.1:4000/docs/intro' }], issues: [] };
    const plain = {
      queries: [
        { id: 'q1', query_text: 'x', expected_sources: ['http://Book.Example.org/docs/intro'] },
        { id: 'q3', query_text: 'z', expected_sources: ['intro'] },
      ],
    };

    // Act
    const byUrl = await runCheck(suiteStaleCheck, buildRunContext({ suite: suite3, sitemap: mixed }).ctx);
    const byPath = await runCheck(suiteStaleCheck, buildRunContext({ suite: plain, sitemap: moved }).ctx);

    // Assess
    expect(byUrl.sections.regression?.stale_queries).toEqual(['q2']);
    expect(byPath.sections.regression?.stale_queries).toEqual([]);
  });

  it('leaves a query whose expectations are all in the sitemap alone', async () => {
    const { ctx } = buildRunContext({ suite, sitemap: sitemap('/docs/intro', '/docs/old-name') });
    const result = await runCheck(suiteStaleCheck, ctx);
    expect(result.sections.regression).toMatchObject({ stale_queries: [], findings: [] });
  });

  it('does not apply when the sitemap lists no page under the prefix, or could not be read', async () => {
    const empty = buildRunContext({ suite, sitemap: sitemap() });
    expect(await runCheck(suiteStaleCheck, empty.ctx)).toMatchObject({ status: 'not_applicable', sections: {} });
    const outside = buildRunContext({ suite, sitemap: sitemap('/blog/old-name') });
    expect(await runCheck(suiteStaleCheck, outside.ctx)).toMatchObject({ status: 'not_applicable', sections: {} });
    const unreadable = buildRunContext({ suite, sitemap: new SitemapError('HTTP 503', 'unavailable') });
    expect(await runCheck(suiteStaleCheck, unreadable.ctx)).toMatchObject({ status: 'not_applicable', sections: {} });
  });
});
