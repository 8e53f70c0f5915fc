import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpSitemap } from '../../../functions/adapters/sitemap/http-sitemap.ts';
import { SitemapError } from '../../../functions/core/shared/errors.ts';
import { type BookServer, startBookServer } from '../../../sandbox/book-server.ts';

const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://book.example.com/docs/intro</loc><lastmod>2026-01-01</lastmod></url>
  <url><loc> https://book.example.com/docs/a </loc></url>
</urlset>`;

describe('HttpSitemap', () => {
  let book: BookServer;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ragwatch-sitemap-'));
    await writeFile(path.join(dir, 'sitemap.xml'), URLSET);
    await writeFile(path.join(dir, 'other.xml'), URLSET.replaceAll('/docs/', '/blog/'));
    // The book server rewrites an index's <loc> hosts to its own origin.
    await writeFile(
      path.join(dir, 'index.xml'),
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://elsewhere.example/sitemap.xml</loc></sitemap><sitemap><loc>https://elsewhere.example/other.xml</loc></sitemap></sitemapindex>`,
    );
    await writeFile(
      path.join(dir, 'twice.xml'),
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://elsewhere.example/sitemap.xml</loc></sitemap><sitemap><loc>https://elsewhere.example/sitemap.xml</loc></sitemap></sitemapindex>`,
    );
    await writeFile(path.join(dir, 'broken.xml'), '<urlset><url><loc>https://x</loc></urlset>');
    await writeFile(path.join(dir, 'feed.xml'), '<rss><channel></channel></rss>');
    await writeFile(
      path.join(dir, 'empty.xml'),
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>',
    );
    book = await startBookServer({ dir });
  });
  afterAll(async () => {
    await book.stop();
  });

  it('lists every <loc> of a urlset, trimmed, with its <lastmod> when given', async () => {
    // Act
    const listing = await new HttpSitemap({ url: `${book.url}/sitemap.xml`, timeoutMs: 2000 }).list();

    // Assess
    expect(listing).toEqual({
      entries: [
        { url: 'https://book.example.com/docs/intro', lastmod: '2026-01-01' },
        { url: 'https://book.example.com/docs/a' },
      ],
      issues: [],
    });
  });

  it('follows a sitemap index to each child sitemap, in the order the index lists them', async () => {
    const listing = await new HttpSitemap({ url: `${book.url}/index.xml`, timeoutMs: 2000 }).list();

    expect(listing.entries.map((e) => e.url)).toEqual([
      'https://book.example.com/docs/intro',
      'https://book.example.com/docs/a',
      'https://book.example.com/blog/intro',
      'https://book.example.com/blog/a',
    ]);
  });

  it('fetches a child the index lists twice only once', async () => {
    // Prepare
    const before = book.requestCount();

    // Act
    const listing = await new HttpSitemap({ url: `${book.url}/twice.xml`, timeoutMs: 2000 }).list();

    // Assess
    expect(listing.entries).toHaveLength(2);
    expect(book.requestCount() - before).toBe(2);
  });

  it('returns no URLs for an empty urlset', async () => {
    await expect(new HttpSitemap({ url: `${book.url}/empty.xml`, timeoutMs: 2000 }).list()).resolves.toEqual({
      entries: [],
      issues: [],
    });
  });

  it('names the URL and the line when the XML is malformed', async () => {
    const url = `${book.url}/broken.xml`;

    await expect(new HttpSitemap({ url, timeoutMs: 2000 }).list()).rejects.toThrow(
      new RegExp(`${url} is not well-formed XML: .*line 1`),
    );
  });

  it('says so when the document is XML but not a sitemap', async () => {
    await expect(new HttpSitemap({ url: `${book.url}/feed.xml`, timeoutMs: 2000 }).list()).rejects.toThrow(
      /is not a sitemap: expected a <urlset> or <sitemapindex>/,
    );
  });

  it('reports a 404 as not_found with the URL, without retrying', async () => {
    // Prepare
    const url = `${book.url}/missing.xml`;
    const before = book.requestCount();

    // Act
    const error = await new HttpSitemap({ url, timeoutMs: 2000 }).list().catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(SitemapError);
    expect(error).toMatchObject({
      kind: 'not_found',
      status: 404,
      message: `fetching sitemap ${url} failed with 404: not found`,
    });
    expect(book.requestCount() - before).toBe(1);
  });

  it('retries a 503 and gives up with kind unavailable', async () => {
    // Prepare
    book.setFault('/sitemap.xml', 503);
    const before = book.requestCount();

    // Act
    const error = await new HttpSitemap({ url: `${book.url}/sitemap.xml`, timeoutMs: 2000, retries: 1 })
      .list()
      .catch((e: unknown) => e);
    book.setFault('/sitemap.xml', null);

    // Assess
    expect(error).toMatchObject({ kind: 'unavailable', status: 503 });
    expect(book.requestCount() - before).toBe(2);
  });

  it('reads a gzipped sitemap', async () => {
    // Prepare
    const server = await serveOnce(gzipSync(Buffer.from(URLSET)));

    // Act
    const listing = await new HttpSitemap({ url: server.url, timeoutMs: 2000 }).list();
    await server.stop();

    // Assess
    expect(listing.entries).toHaveLength(2);
  });

  it('times out on a server that never answers', async () => {
    // Prepare
    const server = await serveOnce(null);

    // Act
    const error = await new HttpSitemap({ url: server.url, timeoutMs: 200 }).list().catch((e: unknown) => e);
    await server.stop();

    // Assess
    expect(error).toMatchObject({ kind: 'timeout', message: `fetching sitemap ${server.url} timed out after 200 ms` });
  });

  it('reports an unreachable host as unavailable', async () => {
    // Prepare: a port that was just freed, so nothing listens there.
    const server = await serveOnce(Buffer.from(URLSET));
    await server.stop();

    // Act
    const error = await new HttpSitemap({ url: server.url, timeoutMs: 2000, retries: 0 })
      .list()
      .catch((e: unknown) => e);

    // Assess
    expect(error).toMatchObject({
      kind: 'unavailable',
      message: `fetching sitemap ${server.url} failed: ECONNREFUSED`,
    });
  });
});

/** A one-route server answering `body`, or never answering when body is null. */
async function serveOnce(body: Buffer | null): Promise<{ url: string; stop(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    if (body) res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sitemap.xml.gz`;
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
