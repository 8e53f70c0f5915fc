/**
 * `npm run bench -- --only sitemap`: what reading a hostile or maximal sitemap costs. The parent serves generated
 * sitemaps over loopback (bodies streamed, so the parent holds none whole); for each, a child process
 * (bench/sitemap-child.ts, bundled as the Lambda is, run with the Lambda's V8 flags) reads it with the real
 * adapter, so its peak RSS is the reading's alone. The issue's target: peak RSS of the whole process <= 200 MB for a protocol-maximal sitemap (50 MB, 50,000 URLs).
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createGzip } from 'node:zlib';
import { BUNDLE_DIR, bundleLikeTheStack } from './bundle.ts';
import { formatNumber, formatTable } from './format-table.ts';
import type { SitemapFigures } from './sitemap-child.ts';

const MB = 1024 * 1024;
const PROTOCOL_BYTES = 50 * MB;
const PROTOCOL_URLS = 50_000;
const TARGET_RSS_MB = 200;
const CHUNK = 64 * 1024;

type Body = () => AsyncIterable<Buffer> | Iterable<Buffer>;

/** A urlset of `urls` entries of equal size, `bytes` in all: each padded with hreflang alternates, as real ones are. */
function* urlsetBody(urls: number, bytes: number, from = 0): Generator<Buffer> {
  const head =
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n';
  const foot = '</urlset>\n';
  const perEntry = Math.floor((bytes - head.length - foot.length) / urls);
  let chunk = head;
  for (let i = from; i < from + urls; i++) {
    let entry = `<url><loc>https://book.example.com/docs/module-${i % 20}/page-${i}</loc><lastmod>2026-01-01</lastmod>`;
    for (let k = 0; entry.length + 120 < perEntry - 7; k++)
      entry += `<xhtml:link rel="alternate" hreflang="l${k}" href="https://book.example.com/l${k}/docs/p${i}"/>`;
    entry = `${entry.padEnd(perEntry - 7, ' ')}</url>\n`;
    chunk += entry;
    if (chunk.length >= CHUNK) {
      yield Buffer.from(chunk);
      chunk = '';
    }
  }
  yield Buffer.from(chunk + foot);
}

/** `head`, then `megabytes` MB of blanks: once gzipped, about a thousandth of its size. */
function* blanksAfter(head: string, megabytes: number): Generator<Buffer> {
  yield Buffer.from(head);
  const blanks = Buffer.alloc(MB, ' ');
  for (let i = 0; i < megabytes; i++) yield blanks;
}

async function gzipAll(chunks: Iterable<Buffer>): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const ended = once(gzip, 'end');
  for (const chunk of chunks) if (!gzip.write(chunk)) await once(gzip, 'drain');
  gzip.end();
  await ended;
  return Buffer.concat(out);
}

async function send(res: ServerResponse, body: Body): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/xml' });
  for await (const chunk of body()) if (!res.write(chunk)) await once(res, 'drain');
  res.end();
}

/** Serves the scenarios' sitemaps; returns the server's origin and a stop function. */
async function serve(routes: Map<string, Body>): Promise<{ origin: string; stop: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const body = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (body === undefined) res.writeHead(404).end();
    else send(res, body).catch(() => res.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const CHILD_BUNDLE = path.join(BUNDLE_DIR, 'sitemap', 'sitemap-child.mjs');

function readInChild(url: string, nodeFlags: string[]): Promise<SitemapFigures> {
  const child = fork(CHILD_BUNDLE, [url], { execArgv: ['--expose-gc', ...nodeFlags], stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m as SitemapFigures));
    child.once('exit', (code) => reject(new Error(`the sitemap child exited (${code}) before answering`)));
  });
}

/** Runs the sitemap scenarios and prints one row each, then the target's verdict. */
export async function runSitemapBench(options: { nodeFlags: string[]; log: (line: string) => void }): Promise<void> {
  // Bundled as the Lambda is, so the baseline is the deployed code's, not TypeScript loading's.
  await bundleLikeTheStack({
    entry: path.join(import.meta.dirname, 'sitemap-child.ts'),
    outfile: CHILD_BUNDLE,
    external: [],
  });
  const gzipped = await gzipAll(urlsetBody(PROTOCOL_URLS, PROTOCOL_BYTES));
  const bomb = await gzipAll(blanksAfter('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', 1024));
  const children = ['/c0.xml', '/c1.xml', '/c2.xml', '/c3.xml'];
  const routes = new Map<string, Body>([
    ['/maximal.xml', () => urlsetBody(PROTOCOL_URLS, PROTOCOL_BYTES)],
    ['/maximal.xml.gz', () => [gzipped]],
    ['/200mb.xml', () => urlsetBody(4 * PROTOCOL_URLS, 4 * PROTOCOL_BYTES)],
    ['/bomb.xml.gz', () => [bomb]],
    ...children.map((c, i): [string, Body] => [c, () => urlsetBody(PROTOCOL_URLS, PROTOCOL_BYTES, i * PROTOCOL_URLS)]),
  ]);
  const server = await serve(routes);
  routes.set('/index.xml', () => [
    Buffer.from(
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${children.map((c) => `<sitemap><loc>${server.origin}${c}</loc></sitemap>`).join('')}</sitemapindex>`,
    ),
  ]);
  const scenarios = [
    ['protocol-maximal: 50 MB, 50,000 URLs', '/maximal.xml', '50 MB'],
    ['protocol-maximal, gzipped', '/maximal.xml.gz', `${formatNumber(gzipped.length / MB, 1)} MB`],
    ['200 MB, 200,000 URLs (over the caps)', '/200mb.xml', '200 MB'],
    ['gzip bomb: 1 GB of blanks', '/bomb.xml.gz', `${formatNumber(bomb.length / MB, 1)} MB`],
    ['index of 4 protocol-maximal children', '/index.xml', '4 × 50 MB'],
  ] as const;
  const rows: string[][] = [];
  let maximalPeak = Number.NaN;
  try {
    for (const [name, route, size] of scenarios) {
      options.log(`reading ${name} ...`);
      const f = await readInChild(`${server.origin}${route}`, options.nodeFlags);
      if (route === '/maximal.xml') maximalPeak = f.peakRssMb;
      rows.push([
        name,
        size,
        formatNumber(f.entries),
        f.error ?? (f.issues.length === 0 ? 'none' : f.issues.map((i) => i.slice(0, 70)).join(' | ')),
        formatNumber(f.wallMs / 1000, 1),
        formatNumber(f.cpuMs / 1000, 1),
        formatNumber(f.baselineRssMb),
        formatNumber(f.peakRssMb),
        formatNumber(f.liveHeapAfterGcMb),
      ]);
    }
  } finally {
    await server.stop();
  }
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out('\nSitemaps: the real adapter in a child process per sitemap (peak RSS = the whole reading process)');
  out(
    formatTable(
      [
        'sitemap',
        'served',
        'URLs kept',
        'issues / error',
        'wall s',
        'CPU s',
        'base RSS MB',
        'peak RSS MB',
        'live heap MB',
      ],
      rows,
    ),
  );
  out(
    `peak RSS <= ${TARGET_RSS_MB} MB for a protocol-maximal sitemap: ${formatNumber(maximalPeak)} MB ${maximalPeak <= TARGET_RSS_MB ? 'MET' : 'MISSED'}`,
  );
}
