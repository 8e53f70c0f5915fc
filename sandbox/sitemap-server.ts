/**
 * Serves one sitemap over loopback HTTP, with latency injected as the other stand-ins do: the benchmark sets it so
 * the sitemap chain costs what it would across a network; `ragwatch sandbox` serves a book's sitemap with none.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running sitemap server. */
export interface SitemapServer {
  /** The sitemap's URL. */
  url: string;
  setXml(xml: string): void;
  setLatency(ms: number): void;
  requestCount(): number;
  resetCount(): void;
  stop(): Promise<void>;
}

/**
 * Starts a server answering GET /sitemap.xml with `xml` after `latencyMs`; with `read`, with what it returns at each
 * request instead (`ragwatch sandbox` re-reads the book's sitemap, so an edit shows as a deployed site's would), and
 * 500 when it throws.
 */
export async function startSitemapServer(options: {
  xml: string;
  latencyMs: number;
  read?: () => Promise<string>;
}): Promise<SitemapServer> {
  let xml = options.xml;
  let latencyMs = options.latencyMs;
  let requests = 0;
  const server = createServer((req, res) => {
    requests += 1;
    const found = new URL(req.url ?? '/', 'http://localhost').pathname === '/sitemap.xml';
    setTimeout(() => {
      if (!found) res.writeHead(404).end();
      else if (options.read === undefined) res.writeHead(200, { 'content-type': 'application/xml' }).end(xml);
      else
        options.read().then(
          (body) => res.writeHead(200, { 'content-type': 'application/xml' }).end(body),
          (error: unknown) =>
            res
              .writeHead(500)
              .end(`sandbox: cannot read the sitemap: ${error instanceof Error ? error.message : error}`),
        );
    }, latencyMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sitemap.xml`,
    setXml: (next) => {
      xml = next;
    },
    setLatency: (ms) => {
      latencyMs = ms;
    },
    requestCount: () => requests,
    resetCount: () => {
      requests = 0;
    },
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
