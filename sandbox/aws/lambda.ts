/**
 * A Lambda stand-in for `npm run invoke`'s tests: the Invoke operation of Lambda's REST-JSON API
 * (POST /2015-03-31/functions/<name>/invocations), running a given handler in-process with a Lambda-like context.
 * It answers as Lambda does: the handler's result as the payload; a thrown error as a 200 with
 * X-Amz-Function-Error: Unhandled and {errorType, errorMessage}; an unknown function as 404
 * ResourceNotFoundException; `busy` as 429 TooManyRequestsException (reserved concurrency reached).
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type StandInHandler = (event: unknown, context: Record<string, unknown>) => Promise<unknown>;

export interface LambdaStandIn {
  endpoint: string;
  /** Each invocation's function name, invocation type and event, in order. */
  invocations: { functionName: string; invocationType: string | undefined; event: unknown }[];
  /** While true, every invoke is refused as throttled, as with reserved concurrency 1 and a run in progress. */
  busy: boolean;
  stop(): Promise<void>;
}

const INVOKE = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

/** Starts the stand-in with `functions` (name -> handler) on 127.0.0.1 and an ephemeral port. */
export async function startLambdaStandIn(functions: Record<string, StandInHandler>): Promise<LambdaStandIn> {
  const invocations: LambdaStandIn['invocations'] = [];
  const state = { busy: false };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const match = req.method === 'POST' ? INVOKE.exec(new URL(req.url ?? '/', 'http://x').pathname) : null;
    if (match?.[1] === undefined || !String(req.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256'))
      return error(res, 400, 'InvalidRequestContentException', 'not a signed Invoke request');
    const functionName = decodeURIComponent(match[1]);
    const handler = functions[functionName];
    if (handler === undefined)
      return error(res, 404, 'ResourceNotFoundException', `Function not found: ${functionName}`);
    if (state.busy)
      return error(
        res,
        429,
        'TooManyRequestsException',
        'Rate Exceeded.',
        'ReservedFunctionConcurrentInvocationLimitExceeded',
      );
    const event = chunks.length === 0 ? {} : JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const invocationType = req.headers['x-amz-invocation-type'] as string | undefined;
    invocations.push({ functionName, invocationType, event });
    const context = {
      awsRequestId: `stand-in-${invocations.length}`,
      functionName,
      functionVersion: '$LATEST',
      memoryLimitInMB: '512',
      invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${functionName}`,
    };
    try {
      const result = await handler(event, context);
      res.writeHead(200, { 'content-type': 'application/json', 'x-amz-executed-version': '$LATEST' });
      res.end(JSON.stringify(result ?? null));
    } catch (thrown) {
      const e = thrown as Error;
      res.writeHead(200, { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled' });
      res.end(JSON.stringify({ errorType: e.name, errorMessage: e.message }));
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    invocations,
    get busy() {
      return state.busy;
    },
    set busy(value: boolean) {
      state.busy = value;
    },
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

function error(res: ServerResponse, status: number, type: string, message: string, reason?: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': type });
  res.end(JSON.stringify({ Type: 'User', message, ...(reason ? { Reason: reason } : {}) }));
}
