/**
 * The stand-in's HTTP layer (node:http on 127.0.0.1, an ephemeral port). For each request, in order:
 * count it under its operationId, wait the configured latency, check the api-key (every path but GET /, as Qdrant
 * whitelists it), answer 404 for an unknown route, apply an injected fault if one targets it, read the JSON body,
 * run the handler, and wrap its result in Qdrant's `{ result, status: "ok", time }` envelope (errors as
 * `{ status: { error }, time }`).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Collection } from './collection.ts';
import { matchRoute, type OperationId, type Route } from './routes.ts';
import type { AnnSettings } from './search.ts';
import { formatError, QdrantWireError } from './wire-error.ts';

/**
 * A failure to inject into the next `times` (default 1) requests of one operationId, or of any: an error status
 * (`message` replaces the default error text), a 429 with its Retry-After header, a hang (no answer until
 * stop(), so a client meets its own timeout), or a slow answer (the usual answer, `delayMs` later).
 */
export type Fault = { operationId?: OperationId | 'all'; times?: number } & (
  | { status: 400 | 500 | 503; message?: string }
  | { status: 429; retryAfterSeconds: number; message?: string }
  | { hang: true }
  | { delayMs: number }
);

/** One request and the answer it got, kept when `recordExchanges` is on (for contract tests). */
export interface RecordedExchange {
  operationId: OperationId;
  method: string;
  path: string;
  query: Record<string, string>;
  /** The parsed JSON body, or undefined when there was none (or it was not JSON). */
  requestBody: unknown;
  status: number;
  /** The parsed JSON answer, or the text of a non-JSON answer. */
  responseBody: unknown;
}

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  text: string;
}

// Qdrant's default service.max_request_size_mb.
const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** The HTTP server around a set of collections. Created by startQdrantStandIn. */
export class StandInServer {
  readonly collections = new Map<string, Collection>();
  /** How approximate (non-exact) searches behave; see search.ts. Healthy (recall 1) until degraded. */
  readonly ann: AnnSettings = { visitFraction: 1 };
  #latencyMs: number;
  readonly #apiKey: string | undefined;
  readonly #record: boolean;
  readonly #counts = new Map<string, number>();
  readonly #faults: (Fault & { remaining: number })[] = [];
  readonly #exchanges: RecordedExchange[] = [];
  readonly #hanging = new Set<ServerResponse>();
  readonly #stopping = new AbortController();
  readonly #server = createServer((req, res) => {
    this.#serve(req, res).catch(() => res.destroy());
  });

  constructor(options: { latencyMs?: number; apiKey?: string; recordExchanges?: boolean }) {
    this.#latencyMs = options.latencyMs ?? 0;
    this.#apiKey = options.apiKey;
    this.#record = options.recordExchanges ?? false;
  }

  /** Listens on 127.0.0.1 on a port the system picks; resolves to the base URL. */
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Closes every connection, including hanging requests and pending latency waits. */
  async stop(): Promise<void> {
    if (this.#stopping.signal.aborted) return;
    this.#stopping.abort();
    for (const res of this.#hanging) res.destroy();
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }

  requestCounts(): Record<string, number> {
    return Object.fromEntries(this.#counts);
  }

  resetCounts(): void {
    this.#counts.clear();
  }

  setLatency(ms: number): void {
    this.#latencyMs = ms;
  }

  inject(fault: Fault): void {
    this.#faults.push({ ...fault, remaining: fault.times ?? 1 });
  }

  clearFaults(): void {
    this.#faults.length = 0;
  }

  exchanges(): RecordedExchange[] {
    return [...this.#exchanges];
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const method = req.method ?? 'GET';
    const matched = matchRoute(method, url.pathname);
    if (matched) this.#counts.set(matched.route.operationId, (this.#counts.get(matched.route.operationId) ?? 0) + 1);
    const bodyText = await readText(req);
    if (this.#latencyMs > 0) await sleep(this.#latencyMs, undefined, { signal: this.#stopping.signal });

    let fault =
      matched && this.#authorize(url.pathname, req.headers) === undefined ? this.#takeFault(matched.route) : undefined;
    if (fault !== undefined && 'hang' in fault) {
      this.#hanging.add(res);
      res.on('close', () => this.#hanging.delete(res));
      return;
    }
    if (fault !== undefined && 'delayMs' in fault) {
      await sleep(fault.delayMs, undefined, { signal: this.#stopping.signal });
      fault = undefined;
    }
    const started = process.hrtime.bigint();
    const elapsed = (): number => Number(process.hrtime.bigint() - started) / 1e9;
    const { reply, requestBody } = this.#answer({ matched, url, headers: req.headers, bodyText, fault, elapsed });
    res.writeHead(reply.status, reply.headers);
    res.end(reply.text);
    if (this.#record && matched) {
      this.#exchanges.push({
        operationId: matched.route.operationId,
        method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        requestBody,
        status: reply.status,
        responseBody: reply.body,
      });
    }
  }

  #answer(request: {
    matched: { route: Route; name: string } | undefined;
    url: URL;
    headers: IncomingHttpHeaders;
    bodyText: string;
    fault: Fault | undefined;
    elapsed: () => number;
  }): { reply: Reply; requestBody: unknown } {
    const { matched, url, bodyText, fault, elapsed } = request;
    const requestBody = tryParse(bodyText);
    const denied = this.#authorize(url.pathname, request.headers);
    if (denied !== undefined) return { reply: textReply(401, denied), requestBody };
    if (matched === undefined) return { reply: { status: 404, headers: {}, body: '', text: '' }, requestBody };
    if (fault !== undefined) return { reply: faultReply(fault, elapsed()), requestBody };
    try {
      if (Buffer.byteLength(bodyText) > MAX_BODY_BYTES) {
        throw new QdrantWireError(
          400,
          `JSON payload (${Buffer.byteLength(bodyText)} bytes) is larger than allowed (limit: ${MAX_BODY_BYTES} bytes).`,
        );
      }
      const body = matched.route.needsBody ? parseJsonBody(bodyText) : undefined;
      const result = matched.route.handler({
        collections: this.collections,
        ann: this.ann,
        name: matched.name,
        query: url.searchParams,
        body,
      });
      const answer = matched.route.bare ? result : { result, status: 'ok', time: elapsed() };
      return { reply: jsonReply(200, answer), requestBody };
    } catch (error) {
      const wire =
        error instanceof QdrantWireError
          ? error
          : new QdrantWireError(
              500,
              `Service internal error: ${error instanceof Error ? error.message : String(error)}`,
            );
      return { reply: jsonReply(wire.status, { status: { error: wire.message }, time: elapsed() }), requestBody };
    }
  }

  /** Qdrant's api-key check (header `api-key` or `Authorization: Bearer`); undefined when the request may pass. */
  #authorize(path: string, headers: IncomingHttpHeaders): string | undefined {
    if (this.#apiKey === undefined || path === '/') return undefined;
    const bearer = headers.authorization?.startsWith('Bearer ') ? headers.authorization.slice(7) : undefined;
    const given = headerValue(headers['api-key']) ?? bearer;
    if (given === undefined) return 'Must provide an API key or an Authorization bearer token';
    // Qdrant 1.19 answers 401 for a wrong key too (403 is for a read-only key or JWT that lacks the right).
    return given === this.#apiKey ? undefined : 'Invalid API key or JWT';
  }

  #takeFault(route: Route): Fault | undefined {
    const index = this.#faults.findIndex(
      (f) => f.operationId === undefined || f.operationId === 'all' || f.operationId === route.operationId,
    );
    const fault = this.#faults[index];
    if (fault === undefined) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#faults.splice(index, 1);
    return fault;
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function tryParse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseJsonBody(text: string): unknown {
  // serde_json's wording for an empty body; other syntax errors carry V8's description instead of serde's.
  if (text.trim() === '') throw formatError('EOF while parsing a value at line 1 column 0');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw formatError(error instanceof Error ? error.message : String(error));
  }
}

function jsonReply(status: number, body: unknown): Reply {
  return { status, headers: { 'content-type': 'application/json' }, body, text: JSON.stringify(body) };
}

function textReply(status: number, text: string): Reply {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: text, text };
}

function faultReply(fault: Fault, time: number): Reply {
  if ('hang' in fault || 'delayMs' in fault) throw new Error('a hanging or slow fault has no reply of its own');
  const text = fault.message ?? DEFAULT_FAULT_MESSAGES[fault.status];
  const reply = jsonReply(fault.status, { status: { error: text }, time });
  if (fault.status !== 429) return reply;
  return { ...reply, headers: { ...reply.headers, 'retry-after': String(fault.retryAfterSeconds) } };
}

// Worded after Qdrant's StorageError displays, and marked as injected so nobody mistakes them for real ones.
const DEFAULT_FAULT_MESSAGES = {
  400: 'Bad request: injected fault',
  429: 'Rate limiting exceeded: Read rate limit exceeded, retry later (injected fault)',
  500: 'Service internal error: injected fault',
  503: 'Service unavailable: injected fault',
} as const;
