/**
 * `npm run bench -- --only "huge URL lists"`: the nightly handler's peak RSS when the sitemap lists the most a
 * sitemap index can put in a report: 50,000 page URLs of about 2 KB (the protocol's longest <loc> is 2,047
 * characters), none of them indexed, so every one is a missing URL. The parent serves the sitemap (an index of four
 * children of 12,500 URLs, each child under the protocol's 50 MB, streamed) and runs the stand-ins (Qdrant and Cohere
 * with the sample book indexed, S3, SNS, CloudWatch, Secrets Manager); a child process (handler-urls-child.ts,
 * bundled as the Lambda is, with the Lambda's V8 flags) runs the real handler end to end: the engine, the report,
 * its attachments, S3, the metrics and the alert. Issue 19's target: peak RSS <= 300 MB (the function has 512 MB).
 * BENCH_TRACE=1 prints the child's RSS, heap and buffers every 250 ms (how the memory was found).
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { STAND_IN_CREDENTIALS, STAND_IN_REGION, startAwsStandIns } from '../sandbox/aws/index.ts';
import { SAMPLE_BOOK_BASE_URL } from '../sandbox/book-server.ts';
import { indexSampleBook, SAMPLE_SUITE_PATH, startSandbox } from '../sandbox/start-sandbox.ts';
import { BUNDLE_DIR, bundleLikeTheStack } from './bundle.ts';
import { formatNumber, formatTable } from './format-table.ts';
import type { HandlerFigures } from './handler-urls-child.ts';

const URLS = 50_000;
const CHILDREN = 4;
/** Each <loc> is this long: near the protocol's 2,047-character maximum. */
const LOC_CHARS = 2_000;
const TARGET_RSS_MB = 300;
const CHUNK = 64 * 1024;
const MB = 1024 * 1024;
const CHILD_BUNDLE = path.join(BUNDLE_DIR, 'handler-urls', 'handler-urls-child.mjs');
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

/**
 * The `i`-th page URL: under the book's /docs/, LOC_CHARS long, its slug seeded letters (so the full lists' gzip is
 * the size of real URLs', not of one repeated word, and goes up in several parts).
 */
function pageUrl(i: number): string {
  const head = `${SAMPLE_BOOK_BASE_URL}/docs/huge/page-${i}/`;
  let seed = (i + 1) * 2_654_435_761;
  let slug = '';
  while (head.length + slug.length < LOC_CHARS) {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    slug += seed >>> 27 < 4 ? '-' : String.fromCharCode(97 + ((seed >>> 16) % 26));
  }
  return head + slug;
}

function* childBody(child: number): Generator<Buffer> {
  const per = URLS / CHILDREN;
  let chunk = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}>\n`;
  for (let i = child * per; i < (child + 1) * per; i++) {
    chunk += `<url><loc>${pageUrl(i)}</loc><lastmod>2026-11-01</lastmod></url>\n`;
    if (chunk.length >= CHUNK) {
      yield Buffer.from(chunk);
      chunk = '';
    }
  }
  yield Buffer.from(`${chunk}</urlset>\n`);
}

async function send(res: ServerResponse, body: Iterable<Buffer>): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/xml' });
  for (const chunk of body) if (!res.write(chunk)) await once(res, 'drain');
  res.end();
}

async function serveSitemap(): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname;
    const child = /^\/child-(\d+)\.xml$/.exec(name);
    if (name === '/sitemap.xml') {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const locs = Array.from({ length: CHILDREN }, (_, c) => `<sitemap><loc>${origin}/child-${c}.xml</loc></sitemap>`);
      res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(`<sitemapindex ${NS}>${locs.join('')}</sitemapindex>`);
    } else if (child !== null && Number(child[1]) < CHILDREN) {
      send(res, childBody(Number(child[1]))).catch(() => res.destroy());
    } else res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sitemap.xml`,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function runChild(env: Record<string, string>, nodeFlags: string[]): Promise<HandlerFigures> {
  const child = fork(CHILD_BUNDLE, [], {
    execArgv: nodeFlags,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      BENCH_TRACE: process.env.BENCH_TRACE ?? '',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m as HandlerFigures));
    child.once('exit', (code) => reject(new Error(`the handler child exited (${code}) before answering`)));
  });
}

/** Runs the scenario and prints its row and the target's verdict. */
export async function runHandlerUrlsBench(options: { nodeFlags: string[]; log: (line: string) => void }) {
  await bundleLikeTheStack({
    entry: path.join(import.meta.dirname, 'handler-urls-child.ts'),
    outfile: CHILD_BUNDLE,
    external: [],
  });
  options.log('huge URL lists: starting the stand-ins and indexing the sample book ...');
  const sandbox = await startSandbox();
  await indexSampleBook(sandbox);
  const aws = await startAwsStandIns({
    secrets: { 'ragwatch/cohere': 'bench-cohere', 'ragwatch/qdrant': 'bench-qdrant' },
  });
  const sitemap = await serveSitemap();
  const s3 = new S3Client({
    endpoint: aws.endpoints.s3,
    region: STAND_IN_REGION,
    credentials: STAND_IN_CREDENTIALS,
    forcePathStyle: true,
  });
  try {
    options.log(
      `huge URL lists: the handler on ${formatNumber(URLS)} URLs of ${formatNumber(LOC_CHARS)} characters ...`,
    );
    const f = await runChild(
      {
        QDRANT_URL: sandbox.qdrant.url,
        QDRANT_COLLECTION: 'book',
        COHERE_BASE_URL: sandbox.cohere.url,
        DOCUSAURUS_BASE_URL: SAMPLE_BOOK_BASE_URL,
        SITEMAP_URL: sitemap.url,
        ENVIRONMENT: 'bench',
        SUITE_PATH: SAMPLE_SUITE_PATH,
        REPORT_BUCKET: aws.bucket,
        ALERT_TOPIC_ARN: aws.topicArn,
        COHERE_SECRET_ID: 'ragwatch/cohere',
        QDRANT_SECRET_ID: 'ragwatch/qdrant',
        AWS_REGION: STAND_IN_REGION,
        AWS_LAMBDA_LOG_GROUP_NAME: '/aws/lambda/ragwatch-nightly',
        BENCH_AWS_ENDPOINTS: JSON.stringify(aws.endpoints),
      },
      options.nodeFlags,
    );
    const keys = await aws.listKeys();
    const sizes = await Promise.all(
      keys.map(async (key) => {
        const head = await s3.send(new HeadObjectCommand({ Bucket: aws.bucket, Key: key }));
        return [key, head.ContentLength ?? 0] as const;
      }),
    );
    const out = (line: string) => process.stdout.write(`${line}\n`);
    out(
      `\nHuge URL lists: the real handler (bundled, ${options.nodeFlags.join(' ') || 'no flags'}) on a sitemap index of ${formatNumber(URLS)} URLs of ${formatNumber(LOC_CHARS)} characters, none indexed`,
    );
    out(
      formatTable(
        ['outcome', 'status', 'wall s', 'base RSS MB', 'peak RSS MB'],
        [
          [
            f.outcome,
            f.status ?? '-',
            formatNumber(f.wallMs / 1000, 1),
            formatNumber(f.baselineRssMb),
            formatNumber(f.peakRssMb),
          ],
        ],
      ),
    );
    if (f.outcome !== 'returned') out(`  ${f.detail}`);
    out('\nObjects the run wrote to S3');
    out(
      formatTable(
        ['key', 'MB'],
        sizes.map(([key, bytes]) => [key, formatNumber(bytes / MB, 2)]),
      ),
    );
    out(
      `peak RSS <= ${TARGET_RSS_MB} MB for ${formatNumber(URLS)} URLs of ${formatNumber(LOC_CHARS)} characters: ${formatNumber(f.peakRssMb)} MB ${f.peakRssMb <= TARGET_RSS_MB ? 'MET' : 'MISSED'}`,
    );
  } finally {
    s3.destroy();
    await Promise.all([sitemap.stop(), aws.stop(), sandbox.stop()]);
  }
}
