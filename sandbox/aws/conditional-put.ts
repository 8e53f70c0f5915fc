/**
 * Conditional writes for the S3 stand-in. fauxqs (2.4.1) honours If-Match / If-None-Match on GetObject but
 * ignores them on PutObject: a conditional PUT always succeeds, so two runs could both "win" the incident state.
 * This proxy sits in front of fauxqs on loopback and enforces S3's rules for a PutObject that carries either
 * header: If-None-Match: * fails with 412 PreconditionFailed when the object exists; If-Match fails with 412 when
 * the ETag differs and 404 NoSuchKey when there is no object. PUTs to the same key are serialised, so the check
 * and the write are one step, as in S3. Every other request passes through untouched.
 */
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ConditionalPutProxy {
  url: string;
  /** Conditional PUTs refused so far, for tests. */
  refused(): number;
  stop(): Promise<void>;
}

/** Starts the proxy in front of the S3 stand-in at `target` (http://127.0.0.1:port). */
export async function startConditionalPutProxy(target: string): Promise<ConditionalPutProxy> {
  const upstream = new URL(target);
  const locks = new Map<string, Promise<void>>();
  let refused = 0;

  const forward = (req: IncomingMessage, res: ServerResponse): Promise<void> =>
    new Promise((resolve) => {
      const out = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res).on('finish', resolve);
        },
      );
      out.on('error', () => {
        if (!res.headersSent) res.writeHead(502).end();
        resolve();
      });
      req.pipe(out);
    });

  const headEtag = (path: string): Promise<string | null> =>
    new Promise((resolve) => {
      const out = request({ host: upstream.hostname, port: upstream.port, method: 'HEAD', path }, (answer) => {
        answer.resume();
        resolve(answer.statusCode === 200 ? String(answer.headers.etag ?? '') : null);
      });
      out.on('error', () => resolve(null));
      out.end();
    });

  const server = createServer((req, res) => {
    const ifMatch = req.headers['if-match'];
    const ifNoneMatch = req.headers['if-none-match'];
    const conditional = req.method === 'PUT' && !req.headers['x-amz-copy-source'] && (ifMatch || ifNoneMatch);
    if (!conditional) {
      void forward(req, res);
      return;
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const previous = locks.get(path) ?? Promise.resolve();
    const turn = previous.then(async () => {
      const etag = await headEtag(path);
      const failure =
        ifNoneMatch === '*' && etag !== null
          ? 412
          : ifMatch && etag === null
            ? 404
            : ifMatch && ifMatch !== etag
              ? 412
              : null;
      if (failure === null) return forward(req, res);
      refused += 1;
      req.resume();
      const code = failure === 412 ? 'PreconditionFailed' : 'NoSuchKey';
      const message =
        failure === 412
          ? 'At least one of the pre-conditions you specified did not hold'
          : 'The specified key does not exist.';
      res
        .writeHead(failure, { 'content-type': 'application/xml' })
        .end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
    });
    locks.set(path, turn);
    void turn.finally(() => {
      if (locks.get(path) === turn) locks.delete(path);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refused: () => refused,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
