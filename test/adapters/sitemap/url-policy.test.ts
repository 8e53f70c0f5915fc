import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpSitemap } from '../../../functions/adapters/sitemap/http-sitemap.ts';
import { SitemapError } from '../../../functions/core/shared/errors.ts';
import { type RoutesServer, redirect, sitemapIndex, startRoutes, urlset, xml } from './routes-server.ts';

// Two loopback servers stand for the book's host and a host the sitemap must not lead to (127.0.0.1 on two ports
// are two origins).
describe('HttpSitemap URL policy (SSRF)', () => {
  let book: RoutesServer;
  let other: RoutesServer;

  beforeEach(async () => {
    [book, other] = await Promise.all([startRoutes(), startRoutes()]);
    book.route('/sitemap.xml', xml(urlset(['https://book.example.com/docs/a'])));
    other.route('/sitemap.xml', xml(urlset(['https://other.example/secret'])));
  });
  afterEach(async () => {
    await Promise.all([book.stop(), other.stop()]);
  });

  it('refuses an index child on another origin without fetching it, naming it, and reads the others', async () => {
    // Prepare
    book.route('/index.xml', xml(sitemapIndex([other.url('/sitemap.xml'), book.url('/sitemap.xml')])));

    // Act
    const listing = await new HttpSitemap({ url: book.url('/index.xml'), timeoutMs: 2000 }).list();

    // Assess
    expect(listing.entries).toEqual([{ url: 'https://book.example.com/docs/a' }]);
    expect(listing.issues).toEqual([
      {
        kind: 'refused',
        url: other.url('/sitemap.xml'),
        message: expect.stringContaining(
          `lists ${other.url('/sitemap.xml')}, which is refused: not on an allowed origin`,
        ),
      },
    ]);
    expect(other.totalRequests()).toBe(0);
  });

  it('follows an index child on an origin of the allow-list', async () => {
    // Prepare
    book.route('/index.xml', xml(sitemapIndex([other.url('/sitemap.xml')])));

    // Act
    const listing = await new HttpSitemap({
      url: book.url('/index.xml'),
      timeoutMs: 2000,
      allowedOrigins: [other.origin],
    }).list();

    // Assess
    expect(listing).toEqual({ entries: [{ url: 'https://other.example/secret' }], issues: [] });
  });

  it.each([
    ['file:///etc/passwd', 'not http(s) (file:)'],
    ['gopher://127.0.0.1:70/x', 'not http(s) (gopher:)'],
    ['not a url', 'not a URL'],
  ])('refuses the index child %s (%s)', async (loc, why) => {
    // Prepare
    book.route('/index.xml', xml(sitemapIndex([loc])));

    // Act
    const listing = await new HttpSitemap({ url: book.url('/index.xml'), timeoutMs: 2000 }).list();

    // Assess
    expect(listing.entries).toEqual([]);
    expect(listing.issues).toEqual([
      expect.objectContaining({ kind: 'refused', message: expect.stringContaining(why) }),
    ]);
  });

  it('refuses an index child carrying credentials, and never writes them in the issue', async () => {
    // Prepare
    const withPassword = book.url('/sitemap.xml').replace('http://', 'http://admin:hunter22@');
    book.route('/index.xml', xml(sitemapIndex([withPassword])));

    // Act
    const listing = await new HttpSitemap({ url: book.url('/index.xml'), timeoutMs: 2000 }).list();

    // Assess
    expect(listing.issues).toEqual([
      expect.objectContaining({ kind: 'refused', message: expect.stringContaining('carries credentials') }),
    ]);
    expect(JSON.stringify(listing)).not.toContain('hunter22');
    expect(book.requests('/sitemap.xml')).toBe(0);
  });

  it('follows a redirect that stays on the origin', async () => {
    // Prepare
    book.route('/old.xml', redirect('/sitemap.xml', 301));

    // Act
    const listing = await new HttpSitemap({ url: book.url('/old.xml'), timeoutMs: 2000 }).list();

    // Assess
    expect(listing.entries).toEqual([{ url: 'https://book.example.com/docs/a' }]);
  });

  it('refuses a redirect of the sitemap to another origin, naming the target, without fetching it', async () => {
    // Prepare
    book.route('/sitemap.xml', redirect(other.url('/sitemap.xml')));

    // Act
    const error = await new HttpSitemap({ url: book.url('/sitemap.xml'), timeoutMs: 2000 })
      .list()
      .catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(SitemapError);
    expect(error).toMatchObject({
      kind: 'bad_request',
      message: expect.stringContaining(`redirects to ${other.url('/sitemap.xml')}, which is refused`),
    });
    expect(other.totalRequests()).toBe(0);
  });

  it('refuses a child whose redirect leaves the origin, and still reads the other children', async () => {
    // Prepare
    book.route('/a.xml', redirect(other.url('/sitemap.xml'), 307));
    book.route('/index.xml', xml(sitemapIndex([book.url('/a.xml'), book.url('/sitemap.xml')])));

    // Act
    const listing = await new HttpSitemap({ url: book.url('/index.xml'), timeoutMs: 2000 }).list();

    // Assess
    expect(listing.entries).toEqual([{ url: 'https://book.example.com/docs/a' }]);
    expect(listing.issues).toEqual([expect.objectContaining({ kind: 'refused', url: other.url('/sitemap.xml') })]);
    expect(other.totalRequests()).toBe(0);
  });

  it('refuses a redirect to a non-http scheme', async () => {
    book.route('/sitemap.xml', redirect('file:///etc/passwd'));

    await expect(new HttpSitemap({ url: book.url('/sitemap.xml'), timeoutMs: 2000 }).list()).rejects.toThrow(
      /redirects to file:\/\/\/etc\/passwd, which is refused: not http\(s\)/,
    );
  });

  it('gives up after 5 redirects on the origin', async () => {
    // Prepare: a loop
    book.route('/loop.xml', redirect('/loop.xml'));

    // Act
    const error = await new HttpSitemap({ url: book.url('/loop.xml'), timeoutMs: 2000 }).list().catch((e) => e);

    // Assess
    expect(error).toMatchObject({ message: expect.stringContaining('redirected more than 5 times') });
    expect(book.requests('/loop.xml')).toBe(6);
  });

  it('leaves out page URLs that are not http(s), with one issue naming the first', async () => {
    // Prepare
    book.route(
      '/mixed.xml',
      xml(urlset(['https://book.example.com/docs/a', 'javascript:alert(1)', 'file:///etc/passwd', 'ftp://x/y'])),
    );

    // Act
    const listing = await new HttpSitemap({ url: book.url('/mixed.xml'), timeoutMs: 2000 }).list();

    // Assess
    expect(listing.entries).toEqual([{ url: 'https://book.example.com/docs/a' }]);
    expect(listing.issues).toEqual([
      {
        kind: 'refused',
        url: 'javascript:alert(1)',
        message: `sitemap ${book.url('/mixed.xml')} lists 3 page URL(s) left out as not http(s) URLs without credentials; first: javascript:alert(1) (not http(s) (javascript:))`,
      },
    ]);
  });

  it('keeps page URLs on another host: they are compared, never fetched', async () => {
    book.route('/pages.xml', xml(urlset(['https://elsewhere.example/docs/a'])));

    const listing = await new HttpSitemap({ url: book.url('/pages.xml'), timeoutMs: 2000 }).list();

    expect(listing).toEqual({ entries: [{ url: 'https://elsewhere.example/docs/a' }], issues: [] });
  });
});
