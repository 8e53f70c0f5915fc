/** A loopback HTTP server with one handler per path, counting requests and the most served at once; for sitemap tests. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface RoutesServer {
  origin: string;
  /** The full URL of a path on this server. */
  url(path: string): string;
  route(path: string, handler: Route): void;
  /** Requests per path so far. */
  requests(path: string): number;
  totalRequests(): number;
  maxInFlight(): number;
  stop(): Promise<void>;
}

/** Answers `body` with 200, as XML unless told. */
export function xml(body: string | Buffer, headers: Record<string, string> = {}): Route {
  return (_req, res) => res.writeHead(200, { 'content-type': 'application/xml', ...headers }).end(body);
}

/** Answers a redirect to `location`. */
export function redirect(location: string, status = 302): Route {
  return (_req, res) => res.writeHead(status, { location }).end();
}

export async function startRoutes(routes: Record<string, Route> = {}): Promise<RoutesServer> {
  const table = new Map(Object.entries(routes));
  const counts = new Map<string, number>();
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => {
      inFlight -= 1;
    });
    const handler = table.get(path);
    if (handler) handler(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    route: (path, handler) => table.set(path, handler),
    requests: (path) => counts.get(path) ?? 0,
    totalRequests: () => [...counts.values()].reduce((a, b) => a + b, 0),
    maxInFlight: () => maxInFlight,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A urlset listing `locs`, each with an optional lastmod. */
export function urlset(locs: readonly string[], lastmod?: string): string {
  const urls = locs.map((loc) => `<url><loc>${loc}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** A sitemap index listing `locs`. */
export function sitemapIndex(locs: readonly string[]): string {
  const items = locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join('\n')}\n</sitemapindex>\n`;
}
