/**
 * The Cohere stand-in: a real HTTP server on loopback that speaks Cohere's v2 API (/v2/embed, /v2/chat) as the
 * cohere-ai SDK sends and reads it, with bearer-token checks, request counts, latency and injected faults.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatBehaviour } from './answer-from-documents.ts';
import { handleChat } from './chat-route.ts';
import { handleEmbed } from './embed-route.ts';
import type { JudgeBehaviour } from './judge-route.ts';
import { type RouteResult, replyError } from './wire.ts';

/** The endpoints the stand-in serves, as named in request counts and fault targets. */
type CohereEndpoint = 'embed' | 'chat';

/** A failure to play instead of the real answer; `endpoint` (default: either) and `times` (default 1) scope it. */
type CohereFault = (
  | { status: 400 | 500 | 503; message?: string }
  | { status: 429; retryAfterSeconds: number; message?: string }
  | { hang: true }
) & { endpoint?: CohereEndpoint; times?: number };

/** Options for startCohereStandIn. */
export interface CohereStandInOptions {
  /** Delay before every answer, in milliseconds (default 0). */
  latencyMs?: number;
  /** When set, only this bearer token is accepted; otherwise any non-empty token is. */
  apiKey?: string;
  /** Length of the embedding vectors (default 1024, as embed-english-v3.0). */
  dimensions?: number;
}

/** A running stand-in. */
export interface CohereStandIn {
  /** Base URL to give CohereClientV2 as `baseUrl`, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  /** Closes the server, dropping any hanging request. */
  stop(): Promise<void>;
  /** Requests received per endpoint since start or the last reset, failed and hanging ones included. */
  requestCounts(): Record<CohereEndpoint, number>;
  resetCounts(): void;
  setLatency(ms: number): void;
  /** Queues a fault for the next `times` matching requests; queued faults play in order. */
  inject(fault: CohereFault): void;
  clearFaults(): void;
  /**
   * How chat answers from now on: every question, or only the one given (matched exactly, after trimming), so a run
   * can show one misbehaving answer among honest ones. A behaviour for every question clears the per-question ones.
   */
  setChatBehaviour(behaviour: ChatBehaviour, options?: { question?: string }): void;
  /** How the judge route (chat with a JSON response format) answers from now on: its own failures, for the tests. */
  setJudgeBehaviour(behaviour: JudgeBehaviour): void;
  /**
   * A fault for the embedding-drift check: from now on every embedding is the one another model (named by
   * `variant`) would give, under the same model name; undefined restores the normal model.
   */
  setModelVariant(variant: string | undefined): void;
}

const ROUTES: Record<string, CohereEndpoint> = { '/v2/embed': 'embed', '/v2/chat': 'chat' };
const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Starts a Cohere stand-in on 127.0.0.1 on a free port. */
export async function startCohereStandIn(options: CohereStandInOptions = {}): Promise<CohereStandIn> {
  const dimensions = options.dimensions ?? 1024;
  let latencyMs = options.latencyMs ?? 0;
  let behaviour: ChatBehaviour = 'normal';
  let judgeBehaviour: JudgeBehaviour = 'normal';
  const perQuestion = new Map<string, ChatBehaviour>();
  const behaviourFor = (question: string) => perQuestion.get(question.trim()) ?? behaviour;
  let variant: string | undefined;
  let counts = emptyCounts();
  let faults: { fault: CohereFault; remaining: number }[] = [];
  const stopping = new AbortController();

  const takeFault = (endpoint: CohereEndpoint): CohereFault | undefined => {
    const entry = faults.find(({ fault }) => fault.endpoint === undefined || fault.endpoint === endpoint);
    if (entry === undefined) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) faults = faults.filter((other) => other !== entry);
    return entry.fault;
  };

  const serve = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const endpoint = request.method === 'POST' ? ROUTES[new URL(request.url ?? '/', 'http://x').pathname] : undefined;
    if (endpoint === undefined) return send(response, replyError(404, `no route for ${request.method} ${request.url}`));
    counts[endpoint] += 1;
    const body = await readBody(request);
    if (latencyMs > 0) await sleep(latencyMs, undefined, { signal: stopping.signal });
    const fault = takeFault(endpoint);
    if (fault !== undefined && 'hang' in fault) return; // never answered; stop() drops the socket
    if (fault !== undefined) return send(response, playFault(fault));
    const denied = checkToken(request.headers.authorization, options.apiKey);
    if (denied !== undefined) return send(response, denied);
    const parsed = parseJson(body);
    if (parsed === undefined) return send(response, replyError(400, 'invalid request: body is not valid JSON'));
    send(
      response,
      endpoint === 'embed'
        ? handleEmbed(parsed.value, dimensions, variant)
        : handleChat(parsed.value, behaviourFor, judgeBehaviour),
    );
  };

  const server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => {
      // Aborted by stop() or a client gone mid-body: nobody is left to answer.
      if (stopping.signal.aborted || response.destroyed) return;
      const message = error instanceof BodyTooLarge ? 'invalid request: body too large' : 'internal server error';
      send(response, replyError(error instanceof BodyTooLarge ? 413 : 500, message));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      stopping.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
    requestCounts: () => ({ ...counts }),
    resetCounts: () => {
      counts = emptyCounts();
    },
    setLatency: (ms) => {
      latencyMs = ms;
    },
    inject: (fault) => {
      faults.push({ fault, remaining: fault.times ?? 1 });
    },
    clearFaults: () => {
      faults = [];
    },
    setChatBehaviour: (next, scope) => {
      if (scope?.question === undefined) {
        behaviour = next;
        perQuestion.clear();
      } else perQuestion.set(scope.question.trim(), next);
    },
    setJudgeBehaviour: (next) => {
      judgeBehaviour = next;
    },
    setModelVariant: (next) => {
      variant = next;
    },
  };
}

function emptyCounts(): Record<CohereEndpoint, number> {
  return { embed: 0, chat: 0 };
}

function playFault(fault: Exclude<CohereFault, { hang: true }>): RouteResult {
  switch (fault.status) {
    case 429:
      return replyError(429, fault.message ?? 'You are past the rate limit for this API key, please retry later.', {
        'retry-after': String(fault.retryAfterSeconds),
      });
    case 400:
      return replyError(400, fault.message ?? 'invalid request: rejected by the stand-in (injected fault)');
    case 503:
      return replyError(503, fault.message ?? 'service unavailable, please retry later');
    default:
      return replyError(500, fault.message ?? 'internal server error, this has been reported to our developers');
  }
}

// Cohere answers 401 both without a token and with a wrong one, with different messages.
function checkToken(header: string | undefined, apiKey: string | undefined): RouteResult | undefined {
  const token = header?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  if (token === undefined || token === '') return replyError(401, 'no api key supplied');
  if (apiKey !== undefined && token !== apiKey) return replyError(401, 'invalid api token');
  return undefined;
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

class BodyTooLarge extends Error {}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, result: RouteResult): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(result.status, { 'content-type': 'application/json', ...result.headers });
  response.end(JSON.stringify(result.body));
}
