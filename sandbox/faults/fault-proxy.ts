/**
 * A reverse proxy on loopback that plays one fault in front of any stand-in: pass requests through, hang (read the
 * request, never answer, keep the socket open), answer a status with a body, reset the connection, or pass the
 * request and rewrite the answer's body (an index that lies about its scores, one embed answer of the wrong size). The AWS
 * stand-ins have no hang switch of their own; pointing one SDK client at a proxy hangs that service alone (S3 and
 * SNS share fauxqs, so each gets its own proxy).
 */
import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type ProxyFault = (
  | { kind: 'pass' }
  | { kind: 'hang' }
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  | { kind: 'reset' }
  | { kind: 'delay'; ms: number }
  /** Passes the request, then answers upstream's status with `rewrite(body, n)`; n counts matched requests from 0. */
  | { kind: 'rewrite'; rewrite: (body: string, n: number) => string }
) & {
  /** Only requests this matches get the fault (method and path, e.g. "PUT /bucket/reports/x.json"); others pass. */
  when?: (request: string) => boolean;
};

export interface FaultProxy {
  url: string;
  /** Requests seen (every fault included). */
  readonly requests: number;
  /** Requests seen whose "METHOD path" matches, since the last reset (e.g. the chat calls of a run). */
  requestsMatching(pattern: RegExp): number;
  setFault(fault: ProxyFault): void;
  resetCount(): void;
  stop(): Promise<void>;
}

/** Starts a proxy to `target` (an http:// origin) that passes requests through until told otherwise. */
export async function startFaultProxy(target: string, fault: ProxyFault = { kind: 'pass' }): Promise<FaultProxy> {
  let current = fault;
  let requests = 0;
  let matchedRequests = 0;
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    requests += 1;
    seen.push(`${req.method} ${req.url}`);
    const matched = current.when === undefined || current.when(`${req.method} ${req.url}`);
    play(matched ? current : { kind: 'pass' }, req, res, upstream, matched ? matchedRequests++ : 0);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    setFault: (next) => {
      current = next;
      matchedRequests = 0;
    },
    requestsMatching: (pattern) => seen.filter((r) => pattern.test(r)).length,
    resetCount: () => {
      requests = 0;
      seen.length = 0;
    },
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

function play(fault: ProxyFault, req: IncomingMessage, res: ServerResponse, upstream: URL, n = 0): void {
  if (fault.kind === 'hang') {
    req.resume(); // read the request so the client believes it was sent, then say nothing
    return;
  }
  if (fault.kind === 'reset') {
    req.socket.destroy();
    return;
  }
  if (fault.kind === 'status') {
    req.resume();
    res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
    res.end(fault.body ?? JSON.stringify({ message: `injected ${fault.status}` }));
    return;
  }
  if (fault.kind === 'delay') {
    setTimeout(() => play({ kind: 'pass' }, req, res, upstream), fault.ms);
    return;
  }
  const forward = httpRequest(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      // The Host header stays as signed: SigV4 signs it. A body to rewrite is asked for uncompressed.
      headers: fault.kind === 'rewrite' ? { ...req.headers, 'accept-encoding': 'identity' } : req.headers,
    },
    (answer) => {
      if (fault.kind !== 'rewrite') {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const body = Buffer.from(fault.rewrite(Buffer.concat(chunks).toString('utf8'), n));
        const { 'content-length': _length, 'transfer-encoding': _encoding, ...headers } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': String(body.length) });
        res.end(body);
      });
    },
  );
  forward.on('error', () => res.destroy());
  req.pipe(forward);
}
