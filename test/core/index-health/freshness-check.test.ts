import { describe, expect, it } from 'vitest';
import { pageVersionKey } from '../../../functions/core/book/payload.ts';
import { freshnessCheck } from '../../../functions/core/index-health/freshness-check.ts';
import { runCheck } from '../../fakes/run-context.ts';
import { healthContext, point } from './context.ts';

const A = 'https://book.example.com/docs/a';
const B = 'https://book.example.com/docs/b';
const INDEXED = '2026-11-01T00:00:00.000Z';

describe('the freshness check', () => {
  it('calls a page edited after its oldest point was indexed stale: STALE_PAGES, medium, listing it', async () => {
    const { ctx } = healthContext({
      points: [point('1', { indexed_at: '2026-11-05T00:00:00.000Z' }), point('2', { indexed_at: INDEXED })],
      sitemap: [{ url: A, lastmod: '2026-11-03T00:00:00.000Z' }],
    });
    const result = await runCheck(freshnessCheck, ctx);
    expect(result.sections?.index_health?.freshness).toEqual({
      pages_checked: 1,
      stale_pages: 1,
      urls: [A],
      source: 'scroll',
    });
    expect(result.errors).toEqual([
      {
        id: 'id-1',
        validation_id: 'run-1',
        error_type: 'STALE_PAGES',
        severity: 'MEDIUM',
        message: `1 page(s) changed after they were indexed (sitemap lastmod newer than indexed_at): ${A}`,
        details: { pages_checked: 1, stale_pages: 1, urls: [A], source: 'scroll' },
      },
    ]);
    expect(result.verdicts).toEqual([
      {
        name: 'stale_pages',
        description: 'Pages edited after they were last indexed (sitemap lastmod > indexed_at)',
        value: 1,
        threshold: 0,
        comparator: '<=',
        passed: false,
        severity: 'MEDIUM',
      },
    ]);
  });

  it('does not call a page indexed exactly at its lastmod stale, and one a millisecond earlier stale', async () => {
    const at = healthContext({ points: [point('1')], sitemap: [{ url: A, lastmod: INDEXED }] });
    expect((await runCheck(freshnessCheck, at.ctx)).sections?.index_health?.freshness).toMatchObject({
      pages_checked: 1,
      stale_pages: 0,
    });
    const after = healthContext({ points: [point('1')], sitemap: [{ url: A, lastmod: '2026-11-01T00:00:00.001Z' }] });
    expect((await runCheck(freshnessCheck, after.ctx)).sections?.index_health?.freshness?.stale_pages).toBe(1);
  });

  it('lists the stale pages in its message, separated by commas', async () => {
    const { ctx } = healthContext({
      points: [point('1'), point('2', { source_url: B })],
      sitemap: [
        { url: A, lastmod: '2026-12-01' },
        { url: B, lastmod: '2026-12-01' },
      ],
    });
    expect((await runCheck(freshnessCheck, ctx)).errors[0]?.message).toBe(
      `2 page(s) changed after they were indexed (sitemap lastmod newer than indexed_at): ${A}, ${B}`,
    );
  });

  it('matches sitemap and index URLs with or without a trailing slash', async () => {
    const { ctx } = healthContext({
      points: [point('1', { source_url: `${A}/` }), point('2', { source_url: B })],
      sitemap: [
        { url: A, lastmod: '2026-12-01' },
        { url: `${B}/`, lastmod: '2026-12-01' },
      ],
    });
    expect((await runCheck(freshnessCheck, ctx)).sections?.index_health?.freshness).toEqual({
      pages_checked: 2,
      stale_pages: 2,
      urls: [A, `${B}/`],
      source: 'scroll',
    });
  });

  it('judges no page without a lastmod, with an unreadable one, or that the index does not hold', async () => {
    const { ctx } = healthContext({
      points: [point('1'), point('2', { source_url: B })],
      sitemap: [{ url: A }, { url: B, lastmod: 'yesterday' }, { url: `${A}/other`, lastmod: '2026-12-01' }],
    });
    const result = await runCheck(freshnessCheck, ctx);
    expect(result.sections?.index_health?.freshness).toEqual({
      pages_checked: 0,
      stale_pages: 0,
      urls: [],
      source: 'scroll',
      note: 'freshness not checked: no page the index holds has both a readable sitemap <lastmod> and a readable indexed_at',
    });
    // Nothing judged: no finding and no verdict either way, but the report says it was not checked.
    expect([result.errors, result.verdicts]).toEqual([[], []]);
  });

  it('says, when the sitemap has no <lastmod> at all, that freshness was not checked and which setting gives it', async () => {
    const none = healthContext({ points: [point('1')], sitemap: [{ url: A }, { url: B, lastmod: ' ' }] });
    const one = healthContext({ points: [point('1')], sitemap: [{ url: A }, { url: B, lastmod: '2026-12-01' }] });
    const empty = healthContext({ points: [], sitemap: [{ url: A }] });
    const notes = await Promise.all(
      [none, one, empty].map(
        async (c) => (await runCheck(freshnessCheck, c.ctx)).sections?.index_health?.freshness?.note,
      ),
    );
    expect(notes[0]).toBe(
      "freshness not checked: the sitemap gives no <lastmod> for any of its 2 pages, so an edit made after the index was built cannot be seen. Docusaurus writes one when the sitemap plugin's `lastmod` option is set ('date' or 'datetime') and docs carry their last update time (`showLastUpdateTime: true` in the docs options)",
    );
    expect(notes[1]).toBe(
      'freshness not checked: no page the index holds has both a readable sitemap <lastmod> and a readable indexed_at',
    );
    // An empty index is reported by its own findings.
    expect(notes[2]).toBeUndefined();
  });

  it('judges no page whose points carry no readable indexed_at', async () => {
    const { ctx } = healthContext({
      points: [point('1', { indexed_at: 'not a time' }), point('2', { source_url: B, indexed_at: 7 })],
      sitemap: [
        { url: A, lastmod: '2026-12-01' },
        { url: B, lastmod: '2026-12-01' },
      ],
    });
    expect((await runCheck(freshnessCheck, ctx)).sections?.index_health?.freshness?.pages_checked).toBe(0);
  });

  it('passes a fresh page and lists at most 10 stale ones', async () => {
    const stale = Array.from({ length: 11 }, (_, i) => `${A}${i}`);
    const { ctx } = healthContext({
      points: [...stale, B].map((url, i) => point(String(i), { source_url: url })),
      sitemap: [...stale.map((url) => ({ url, lastmod: '2026-12-01' })), { url: B, lastmod: '2026-10-01' }],
    });
    const result = await runCheck(freshnessCheck, ctx);
    expect(result.sections?.index_health?.freshness).toEqual({
      pages_checked: 12,
      stale_pages: 11,
      urls: stale.slice(0, 10),
      source: 'scroll',
    });
    expect(result.errors[0]?.message).toMatch(/^11 page\(s\) changed/);
  });

  it('judges the stale pages against max_stale_pages on both sides of equality', async () => {
    const setup = { points: [point('1')], sitemap: [{ url: A, lastmod: '2026-12-01' }] };
    const at = await runCheck(freshnessCheck, healthContext({ ...setup, criteria: { max_stale_pages: 1 } }).ctx);
    expect(at.verdicts?.[0]).toMatchObject({ value: 1, threshold: 1, passed: true });
    const under = await runCheck(freshnessCheck, healthContext({ ...setup, criteria: { max_stale_pages: 0 } }).ctx);
    expect(under.verdicts?.[0]).toMatchObject({ value: 1, threshold: 0, passed: false });
  });

  it('is skipped when the sitemap cannot be read, which is reported once, as the sitemap', async () => {
    const { ctx } = healthContext({ points: [point('1')], sitemap: new Error('sitemap gone') });
    expect(await runCheck(freshnessCheck, ctx)).toMatchObject({
      status: null,
      errors: [{ error_type: 'SITEMAP_FAILED' }],
      failures: ['sitemap: sitemap gone'],
    });
  });

  it('says the inventory could not be read when the scroll fails', async () => {
    const { ctx, index } = healthContext({ points: [point('1')], sitemap: [{ url: A, lastmod: '2026-12-01' }] });
    index.failWith.scroll = new Error('scroll refused');
    expect(await runCheck(freshnessCheck, ctx)).toMatchObject({
      status: null,
      errors: [],
      failures: ['index inventory: scroll refused'],
    });
  });

  describe('on real sitemaps (issue 23)', () => {
    const freshness = async (sitemap: { url: string; lastmod?: string }[], indexedAt = '2026-11-01T10:15:00.000Z') =>
      (await runCheck(freshnessCheck, healthContext({ points: [point('1', { indexed_at: indexedAt })], sitemap }).ctx))
        .sections?.index_health?.freshness;

    it('matches the page whatever the host case or a trailing slash, as coverage does', async () => {
      const upper = 'https://Book.Example.com/docs/a/';
      expect(await freshness([{ url: upper, lastmod: '2026-11-02T00:00:00.000Z' }])).toMatchObject({
        pages_checked: 1,
        stale_pages: 1,
      });
    });

    it('matches by path when no URL matches (a book that moved host), and not across paths', async () => {
      expect(
        await freshness([
          { url: 'https://mirror.example.org/docs/a', lastmod: '2026-11-02T00:00:00.000Z' },
          { url: 'https://mirror.example.org/docs/zz', lastmod: '2026-11-02T00:00:00.000Z' },
        ]),
      ).toMatchObject({ pages_checked: 1, stale_pages: 1 });
    });

    it('counts a date-only lastmod on the day of indexed_at as possibly stale, and the day before as not', async () => {
      expect(await freshness([{ url: A, lastmod: '2026-11-01' }])).toMatchObject({ pages_checked: 1, stale_pages: 1 });
      expect(await freshness([{ url: A, lastmod: '2026-11-02' }])).toMatchObject({ pages_checked: 1, stale_pages: 1 });
      expect(await freshness([{ url: A, lastmod: '2026-10-31' }])).toMatchObject({ pages_checked: 1, stale_pages: 0 });
      // A full datetime earlier the same day is not stale: only the date-only form is read by day.
      expect(await freshness([{ url: A, lastmod: '2026-11-01T09:00:00.000Z' }])).toMatchObject({ stale_pages: 0 });
    });

    describe.each([
      ['by the scroll', { source_url: 'keyword', token_count: 'integer' }],
      ['by facets', { source_url: 'keyword', token_count: 'integer', page_version: 'keyword', indexed_at: 'keyword' }],
    ])(
      'a date-only lastmod against the day the indexed text was last updated (page_version), read %s',
      (_, indexes) => {
        /** A page of two chunks whose page_version declares `day`, indexed at `indexedAt`, judged on `lastmod`. */
        const dated = async (lastmod: string, day: string | undefined, indexedAt: string, earlier?: string) => {
          const written = (id: string, chunk: number, hash: string, versionDay: string | undefined) =>
            point(id, {
              chunk_index: chunk,
              page_hash: hash,
              page_version: pageVersionKey(A, hash, 2, versionDay),
              indexed_at: indexedAt,
            });
          const points = [written('1', 0, 'h1', day), written('2', 1, 'h1', day)];
          // A leftover of an earlier version (its own day) beside the current one.
          if (earlier !== undefined) points.push(written('old', 2, 'h0', earlier));
          const { ctx } = healthContext({ points, sitemap: [{ url: A, lastmod }], info: { payloadIndexes: indexes } });
          return (await runCheck(freshnessCheck, ctx)).sections?.index_health?.freshness;
        };

        it('calls an edit dated after that day stale, also when it is the day of the index', async () => {
          expect(await dated('2026-11-01', '2026-10-20', '2026-11-01T10:15:00.000Z')).toMatchObject({
            pages_checked: 1,
            stale_pages: 1,
            urls: [A],
          });
          expect(await dated('2026-10-21', '2026-10-20', '2026-11-01T10:15:00.000Z')).toMatchObject({ stale_pages: 1 });
          // As a sitemap may write it, with spaces around the date.
          expect(await dated(' 2026-10-21 ', '2026-10-20', '2026-11-01T10:15:00.000Z')).toMatchObject({
            stale_pages: 1,
          });
        });

        it('does not call the indexed text stale: its own day, or earlier, whatever the day of the index', async () => {
          expect(await dated('2026-10-20', '2026-10-20', '2026-11-01T10:15:00.000Z')).toMatchObject({
            pages_checked: 1,
            stale_pages: 0,
          });
          expect(await dated('2026-10-19', '2026-10-20', '2026-11-01T10:15:00.000Z')).toMatchObject({ stale_pages: 0 });
        });

        it('is clear after a re-index the same day as the edit, where the day of indexed_at kept firing', async () => {
          // Edited and re-indexed on 2026-11-01: the page's day is the edit's. The old rule (lastmod on or after
          // indexed_at's day) called it stale that night and every night after until an index on a later day.
          expect(await dated('2026-11-01', '2026-11-01', '2026-11-01T14:00:00.000Z')).toMatchObject({ stale_pages: 0 });
          expect(await dated('2026-11-01', undefined, '2026-11-01T14:00:00.000Z')).toMatchObject({ stale_pages: 1 });
        });

        it('reads the earliest day when a leftover of an earlier version remains', async () => {
          expect(await dated('2026-10-25', '2026-11-01', '2026-11-01T14:00:00.000Z', '2026-10-20')).toMatchObject({
            stale_pages: 1,
          });
          expect(await dated('2026-10-25', '2026-11-01', '2026-11-01T14:00:00.000Z')).toMatchObject({ stale_pages: 0 });
        });

        it('compares a full datetime with indexed_at, not with the day', async () => {
          expect(await dated('2026-11-01T15:00:00.000Z', '2026-11-01', '2026-11-01T14:00:00.000Z')).toMatchObject({
            stale_pages: 1,
          });
          expect(await dated('2026-11-01T13:00:00.000Z', '2026-10-01', '2026-11-01T14:00:00.000Z')).toMatchObject({
            stale_pages: 0,
          });
        });
      },
    );
  });
  it('is not applicable when it checked no page, and passes when it checked one and found it fresh', async () => {
    const none = healthContext({ points: [point('1')], sitemap: [{ url: A }] });
    const fresh = healthContext({ points: [point('1')], sitemap: [{ url: A, lastmod: '2026-10-01' }] });
    expect((await runCheck(freshnessCheck, none.ctx)).status).toBe('not_applicable');
    expect((await runCheck(freshnessCheck, fresh.ctx)).status).toBe('pass');
  });

  it('says nothing of lastmod when the sitemap lists no page: other findings say so', async () => {
    const { ctx } = healthContext({ points: [point('1')], sitemap: [] });
    expect((await runCheck(freshnessCheck, ctx)).sections?.index_health?.freshness).toEqual({
      pages_checked: 0,
      stale_pages: 0,
      urls: [],
      source: 'scroll',
    });
  });

  it('matches by full URL when any sitemap URL is indexed, so a page of the same path on another host is not judged', async () => {
    const { ctx } = healthContext({
      points: [point('1')],
      sitemap: [
        { url: 'https://mirror.example.org/docs/a', lastmod: '2026-12-01' },
        { url: A, lastmod: '2026-10-01' },
      ],
    });
    expect((await runCheck(freshnessCheck, ctx)).sections?.index_health?.freshness).toMatchObject({
      pages_checked: 1,
      stale_pages: 0,
    });
  });

  it('reads a date-only lastmod with spaces around it by its day, against indexed_at or page_version’s day', async () => {
    const { ctx } = healthContext({ points: [point('1')], sitemap: [{ url: A, lastmod: ' 2026-11-01 ' }] });
    expect((await runCheck(freshnessCheck, ctx)).sections?.index_health?.freshness).toMatchObject({
      pages_checked: 1,
      stale_pages: 1,
    });
    const dated = healthContext({
      points: [point('1', { page_hash: 'h1', page_version: pageVersionKey(A, 'h1', 1, '2026-10-20') })],
      sitemap: [{ url: A, lastmod: ' 2026-10-21 ' }],
    });
    expect((await runCheck(freshnessCheck, dated.ctx)).sections?.index_health?.freshness).toMatchObject({
      pages_checked: 1,
      stale_pages: 1,
    });
  });
});
