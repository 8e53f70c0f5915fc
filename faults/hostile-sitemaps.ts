/**
 * The sitemaps an attacker (or a broken deploy) could serve, on loopback: each case at its own path of one origin,
 * plus a second origin that must never be fetched (its request count proves it). Large bodies are streamed, the
 * gzip bomb is built once by streaming zeros through gzip, so this server itself stays small.
 */
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const PAGE = (origin: string, i: number) => `<url><loc>${origin}/docs/page-${i}</loc></url>`;

export interface HostileSitemaps {
  /** The origin the sitemap URL is on (the book's). */
  origin: string;
  /** Another origin: any request to it is an escape. */
  otherOrigin: string;
  otherOriginRequests(): number;
  /** Requests for one sitemap of the book's origin since the last reset (e.g. "loop.xml"). */
  requests(name: string): number;
  resetCounts(): void;
  url(name: string): string;
  stop(): Promise<void>;
}

/** Starts both origins and builds the gzip bomb (about 1 MB that inflates to 1 GB). */
export async function startHostileSitemaps(): Promise<HostileSitemaps> {
  const bomb = await gzipOfZeros(1024 * 1024 * 1024);
  let otherRequests = 0;
  const perName = new Map<string, number>();
  const other = createServer((_req, res) => {
    otherRequests += 1;
    res.writeHead(200, { 'content-type': 'application/xml' }).end(`<urlset ${NS}>${PAGE('http://evil', 1)}</urlset>`);
  });
  const main = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.slice(1);
    perName.set(name, (perName.get(name) ?? 0) + 1);
    serve(name, res, { origin: originOf(main), other: originOf(other), bomb });
  });
  for (const server of [main, other]) {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  }
  return {
    origin: originOf(main),
    otherOrigin: originOf(other),
    otherOriginRequests: () => otherRequests,
    requests: (name) => perName.get(name) ?? 0,
    resetCounts: () => perName.clear(),
    url: (name) => `${originOf(main)}/${name}`,
    stop: async () => {
      for (const server of [main, other]) {
        server.closeAllConnections();
        server.close();
      }
    },
  };
}

function originOf(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function serve(name: string, res: ServerResponse, at: { origin: string; other: string; bomb: Buffer }): unknown {
  const xml = (body: string) => res.writeHead(200, { 'content-type': 'application/xml' }).end(body);
  const index = (locs: string[]) =>
    xml(`<sitemapindex ${NS}>${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join('')}</sitemapindex>`);
  switch (name) {
    case 'missing.xml':
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    case 'malformed.xml':
      return xml(`<urlset ${NS}><url><loc>${at.origin}/docs/a</loc></url><url><loc>`);
    case 'empty.xml':
      return xml(`<urlset ${NS}></urlset>`);
    case 'loop.xml':
      return index([`${at.origin}/loop.xml`]);
    case 'deep.xml':
      return index([`${at.origin}/deep-2.xml`]);
    case 'deep-2.xml':
      return index([`${at.origin}/deep-3.xml`]);
    case 'deep-3.xml':
      return xml(`<urlset ${NS}>${PAGE(at.origin, 1)}</urlset>`);
    case 'huge.xml':
      return streamPages(res, at.origin, 200 * 1024 * 1024);
    case 'bomb.xml.gz':
      res.writeHead(200, { 'content-type': 'application/gzip' }).end(at.bomb);
      return;
    case 'many.xml':
      return xml(`<urlset ${NS}>${Array.from({ length: 60_000 }, (_, i) => PAGE(at.origin, i)).join('')}</urlset>`);
    case 'other-host-child.xml':
      return index([`${at.origin}/empty.xml`, `${at.other}/sitemap.xml`]);
    case 'redirect.xml':
      res.writeHead(302, { location: `${at.other}/sitemap.xml` }).end();
      return;
    case 'non-http.xml':
      return index(['file:///etc/passwd', 'ftp://127.0.0.1/sitemap.xml', 'gopher://127.0.0.1:70/_']);
    case 'entities.xml':
      return xml(
        `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">` +
          Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('') +
          `]><urlset ${NS}><url><loc>${at.origin}/docs/&lol9;</loc></url></urlset>`,
      );
    case 'sitemap.xml':
      return xml(`<urlset ${NS}>${PAGE(at.origin, 1)}</urlset>`);
    case 'long-urls.xml':
      return index(Array.from({ length: LONG_URL_CHILDREN }, (_, c) => `${at.origin}/long-urls-${c}.xml`));
    default: {
      const child = /^long-urls-(\d+)\.xml$/.exec(name);
      if (child !== null && Number(child[1]) < LONG_URL_CHILDREN) return streamLongUrls(res, Number(child[1]));
      res.writeHead(404).end();
    }
  }
}

/** The protocol's most: 50,000 page URLs of 2,000 characters over an index of 4 children (each under 50 MB). */
export const LONG_URLS = 50_000;
const LONG_URL_CHILDREN = 4;

/** The `i`-th long URL: on the book's host under /docs/, its slug seeded letters (real text's gzip, not one word's). */
function longUrl(i: number): string {
  const head = `https://book.example.com/docs/long/page-${i}/`;
  let seed = (i + 1) * 2_654_435_761;
  let slug = '';
  while (head.length + slug.length < 2_000) {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    slug += seed >>> 27 < 4 ? '-' : String.fromCharCode(97 + ((seed >>> 16) % 26));
  }
  return head + slug;
}

function streamLongUrls(res: ServerResponse, child: number): void {
  const per = LONG_URLS / LONG_URL_CHILDREN;
  res.writeHead(200, { 'content-type': 'application/xml' });
  res.write(`<?xml version="1.0"?><urlset ${NS}>`);
  let i = child * per;
  const pump = () => {
    while (i < (child + 1) * per) {
      const chunk = Array.from({ length: 100 }, () => `<url><loc>${longUrl(i++)}</loc></url>`).join('');
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end('</urlset>');
  };
  res.on('close', () => {
    i = (child + 1) * per;
  });
  pump();
}

/** About `bytes` of well-formed <url> entries, written as the client reads them. */
function streamPages(res: ServerResponse, origin: string, bytes: number): void {
  res.writeHead(200, { 'content-type': 'application/xml' });
  res.write(`<?xml version="1.0"?><urlset ${NS}>`);
  let sent = 0;
  let i = 0;
  const pump = () => {
    while (sent < bytes) {
      const chunk = Array.from({ length: 1000 }, () => PAGE(origin, i++)).join('');
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end('</urlset>');
  };
  res.on('close', () => {
    sent = bytes;
  });
  pump();
}

async function gzipOfZeros(bytes: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gzip.on('data', (c: Buffer) => chunks.push(c));
  const zeros = Buffer.alloc(1024 * 1024, 0x20);
  gzip.write(`<?xml version="1.0"?><urlset ${NS}>`);
  for (let written = 0; written < bytes; written += zeros.length) {
    if (!gzip.write(zeros)) await once(gzip, 'drain');
  }
  gzip.end('</urlset>');
  await once(gzip, 'end');
  return Buffer.concat(chunks);
}
