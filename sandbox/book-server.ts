/**
 * Serves the sample book's sitemaps over real HTTP on loopback, as the published Docusaurus site would.
 * A sitemap index's <loc> entries are rewritten to this server's origin, so following the index stays local.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface BookServer {
  url: string;
  /** Answers `status` (and an empty body) for this path until cleared with null; for failure tests. */
  setFault(pathname: string, status: number | null): void;
  requestCount(): number;
  stop(): Promise<void>;
}

export const SAMPLE_BOOK_DIR = path.join(import.meta.dirname, 'book');
/** The public base URL the sample book's pages (and so its indexed source_url values) carry. */
export const SAMPLE_BOOK_BASE_URL = 'https://book.example.com';

/** Starts a static server for the .xml files of `dir` (default: the sample book). */
export async function startBookServer(options: { dir?: string } = {}): Promise<BookServer> {
  const dir = options.dir ?? SAMPLE_BOOK_DIR;
  const faults = new Map<string, number>();
  let requests = 0;
  const server = createServer((req, res) => {
    requests += 1;
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const fault = faults.get(pathname);
    if (fault !== undefined) {
      res.writeHead(fault).end();
      return;
    }
    const name = path.basename(pathname);
    if (!name.endsWith('.xml')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    readFile(path.join(dir, name), 'utf8').then(
      (xml) => {
        const body = xml.includes('<sitemapindex')
          ? xml.replace(/<loc>\s*https?:\/\/[^/<]+/g, `<loc>${origin()}`)
          : xml;
        res.writeHead(200, { 'content-type': 'application/xml' }).end(body);
      },
      () => res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin(),
    setFault: (pathname, status) => (status === null ? faults.delete(pathname) : faults.set(pathname, status)),
    requestCount: () => requests,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
