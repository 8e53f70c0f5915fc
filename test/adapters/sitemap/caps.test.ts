import { createGzip, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpSitemap } from '../../../functions/adapters/sitemap/http-sitemap.ts';
import { type RoutesServer, sitemapIndex, startRoutes, urlset, xml } from './routes-server.ts';

const pages = (n: number, prefix = 'p') =>
  Array.from({ length: n }, (_, i) => `https://book.example.com/${prefix}${i}`);

/** gzip of `head`, then `megabytes` MB of blanks: a bomb that decompresses far past any cap. */
async function gzipBomb(head: string, megabytes: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  gzip.write(head);
  const blanks = Buffer.alloc(1024 * 1024, ' ');
  for (let i = 0; i < megabytes; i++) {
    if (!gzip.write(blanks)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await done;
  return Buffer.concat(out);
}

describe('HttpSitemap caps', () => {
  let book: RoutesServer;

  beforeEach(async () => {
    book = await startRoutes();
  });
  afterEach(async () => {
    await book.stop();
  });

  it('keeps 50,000 URLs of one file without an issue: the protocol allows exactly that many', async () => {
    book.route('/sitemap.xml', xml(urlset(pages(50_000))));

    const listing = await new HttpSitemap({ url: book.url('/sitemap.xml'), timeoutMs: 10_000 }).list();

    expect(listing.entries).toHaveLength(50_000);
    expect(listing.issues).toEqual([]);
  });

  it('reads the first 50,000 URLs of a file that lists 50,001, and says so', async () => {
    book.route('/sitemap.xml', xml(urlset(pages(50_001))));

    const listing = await new HttpSitemap({ url: book.url('/sitemap.xml'), timeoutMs: 10_000 }).list();

    expect(listing.entries).toHaveLength(50_000);
    expect(listing.issues).toEqual([
      {
        kind: 'over_cap',
        url: book.url('/sitemap.xml'),
        message: `sitemap ${book.url('/sitemap.xml')} lists more than 50000 URLs (the Sitemaps protocol's limit per file): only the first 50000 were read`,
      },
    ]);
  });

  it('reads a file of exactly the byte cap whole', async () => {
    const body = urlset(pages(3));
    book.route('/sitemap.xml', xml(body));

    const listing = await new HttpSitemap({
      url: book.url('/sitemap.xml'),
      timeoutMs: 2000,
      maxBytesPerFile: Buffer.byteLength(body),
    }).list();

    expect(listing).toEqual({ entries: pages(3).map((url) => ({ url })), issues: [] });
  });

  it('stops one byte over the byte cap, keeps what came before, and says so', async () => {
    const body = urlset(pages(3));
    book.route('/sitemap.xml', xml(body));

    const listing = await new HttpSitemap({
      url: book.url('/sitemap.xml'),
      timeoutMs: 2000,
      maxBytesPerFile: Buffer.byteLength(body) - 1,
    }).list();

    expect(listing.entries).toEqual(pages(3).map((url) => ({ url })));
    expect(listing.issues).toEqual([
      expect.objectContaining({ kind: 'over_cap', message: expect.stringContaining('uncompressed') }),
    ]);
  });

  it('stops a gzip bomb at 50 MB decompressed, with a warning rather than a failure', async () => {
    // Prepare: 200 MB of XML in about 200 KB of gzip
    const head = urlset(pages(2)).replace('</urlset>\n', '');
    book.route('/sitemap.xml.gz', xml(await gzipBomb(head, 200)));

    // Act
    const listing = await new HttpSitemap({ url: book.url('/sitemap.xml.gz'), timeoutMs: 10_000 }).list();

    // Assess
    expect(listing.entries).toEqual(pages(2).map((url) => ({ url })));
    expect(listing.issues).toEqual([
      expect.objectContaining({ kind: 'over_cap', message: expect.stringContaining('larger than 50 MB uncompressed') }),
    ]);
  });

  it('counts the byte cap after decompression', async () => {
    const body = urlset(pages(200));
    book.route('/sitemap.xml.gz', xml(gzipSync(body)));

    const listing = await new HttpSitemap({
      url: book.url('/sitemap.xml.gz'),
      timeoutMs: 2000,
      maxBytesPerFile: Buffer.byteLength(body) - 1,
    }).list();

    expect(listing.issues).toEqual([expect.objectContaining({ kind: 'over_cap' })]);
  });

  it('reads every child of an index at the child limit', async () => {
    book.route('/a.xml', xml(urlset(pages(1, 'a'))));
    book.route('/b.xml', xml(urlset(pages(1, 'b'))));
    book.route('/index.xml', xml(sitemapIndex([book.url('/a.xml'), book.url('/b.xml')])));

    const listing = await new HttpSitemap({ url: book.url('/index.xml'), timeoutMs: 2000, maxChildSitemaps: 2 }).list();

    expect(listing.entries).toHaveLength(2);
    expect(listing.issues).toEqual([]);
  });

  it('reads the first children of an index over the child limit, and says so', async () => {
    book.route('/a.xml', xml(urlset(pages(1, 'a'))));
    book.route('/b.xml', xml(urlset(pages(1, 'b'))));
    book.route('/index.xml', xml(sitemapIndex([book.url('/a.xml'), book.url('/b.xml')])));

    const listing = await new HttpSitemap({ url: book.url('/index.xml'), timeoutMs: 2000, maxChildSitemaps: 1 }).list();

    expect(listing.entries).toEqual([{ url: 'https://book.example.com/a0' }]);
    expect(book.requests('/b.xml')).toBe(0);
    expect(listing.issues).toEqual([
      expect.objectContaining({
        kind: 'over_cap',
        message: expect.stringContaining('lists 2 sitemaps, more than the limit of 1'),
      }),
    ]);
  });

  it('does not follow an index nested inside an index, and says so', async () => {
    book.route('/inner.xml', xml(sitemapIndex([book.url('/a.xml')])));
    book.route('/a.xml', xml(urlset(pages(1, 'a'))));
    book.route('/index.xml', xml(sitemapIndex([book.url('/inner.xml')])));

    const listing = await new HttpSitemap({ url: book.url('/index.xml'), timeoutMs: 2000 }).list();

    expect(listing.entries).toEqual([]);
    expect(book.requests('/a.xml')).toBe(0);
    expect(listing.issues).toEqual([
      expect.objectContaining({
        kind: 'over_cap',
        message: expect.stringContaining('is nested 1 level(s) deep: not followed'),
      }),
    ]);
  });

  it('fetches an index that lists itself only once', async () => {
    book.route('/index.xml', xml(sitemapIndex([book.url('/index.xml')])));

    const listing = await new HttpSitemap({ url: book.url('/index.xml'), timeoutMs: 2000 }).list();

    expect(listing).toEqual({ entries: [], issues: [] });
    expect(book.requests('/index.xml')).toBe(1);
  });

  it('fetches the children of an index 4 at a time', async () => {
    // Prepare: each child answers after 50 ms, so overlapping requests are seen
    const children = Array.from({ length: 10 }, (_, i) => `/c${i}.xml`);
    for (const child of children) {
      book.route(child, (_req, res) => {
        setTimeout(() => res.writeHead(200).end(urlset(pages(1, child))), 50);
      });
    }
    book.route('/index.xml', xml(sitemapIndex(children.map((c) => book.url(c)))));

    // Act
    const listing = await new HttpSitemap({ url: book.url('/index.xml'), timeoutMs: 2000 }).list();

    // Assess
    expect(listing.entries).toHaveLength(10);
    expect(book.maxInFlight()).toBe(4);
  });

  it('stops keeping URLs at the total cap over all children, and says so once', async () => {
    book.route('/a.xml', xml(urlset(pages(3, 'a'))));
    book.route('/b.xml', xml(urlset(pages(3, 'b'))));
    book.route('/index.xml', xml(sitemapIndex([book.url('/a.xml'), book.url('/b.xml')])));

    const listing = await new HttpSitemap({
      url: book.url('/index.xml'),
      timeoutMs: 2000,
      maxTotalUrls: 4,
      childConcurrency: 1,
    }).list();

    expect(listing.entries).toHaveLength(4);
    expect(listing.issues).toEqual([
      expect.objectContaining({ kind: 'over_cap', message: expect.stringContaining('more than 4 URLs in all') }),
    ]);
  });

  it('refuses a document that declares entities (an entity bomb) without expanding them', async () => {
    const bomb = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]>
<urlset><url><loc>https://book.example.com/&lol2;</loc></url></urlset>`;
    book.route('/sitemap.xml', xml(bomb));

    await expect(new HttpSitemap({ url: book.url('/sitemap.xml'), timeoutMs: 2000 }).list()).rejects.toThrow(
      `${book.url('/sitemap.xml')} declares a DOCTYPE with entities (near line 2, column 1): refused`,
    );
  });

  it('ends every request when the run signal aborts, saying the deadline was reached', async () => {
    // Prepare: a server that never answers
    book.route('/sitemap.xml', () => undefined);
    const run = new AbortController();
    setTimeout(() => run.abort(), 50);

    // Act
    const error = await new HttpSitemap({ url: book.url('/sitemap.xml'), timeoutMs: 5000 })
      .list({ signal: run.signal })
      .catch((e: unknown) => e);

    // Assess
    expect(error).toMatchObject({
      kind: 'timeout',
      message: `fetching sitemap ${book.url('/sitemap.xml')} stopped: the run's deadline was reached`,
    });
  });
});
