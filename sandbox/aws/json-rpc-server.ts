/**
 * The transport shared by the AWS JSON-protocol stand-ins (CloudWatch speaks AWS JSON 1.0, Secrets Manager 1.1):
 * POST / with X-Amz-Target "<service>.<Operation>", a JSON body (gzip-encoded when the SDK compresses it), a JSON
 * answer, and errors as {"__type", "message"}. Loopback only, on an ephemeral port.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** An AWS-shaped error a handler throws to answer with that status and __type. */
export class AwsJsonError extends Error {
  readonly status: number;
  readonly type: string;
  /** awsQueryCompatible services also send the old Query error code, in x-amzn-query-error. */
  readonly queryCode: string | undefined;
  constructor(status: number, type: string, message: string, queryCode?: string) {
    super(message);
    this.status = status;
    this.type = type;
    this.queryCode = queryCode;
  }
}

/** One request as it arrived on the wire, for tests to assert on. */
export interface RecordedRequest {
  target: string;
  headers: IncomingMessage['headers'];
  /** Body size on the wire and after decoding, in bytes. */
  wireBytes: number;
  decodedBytes: number;
  body: unknown;
}

export interface JsonRpcServer {
  endpoint: string;
  requests: RecordedRequest[];
  stop(): Promise<void>;
}

export type OperationHandler = (input: Record<string, unknown>, request: RecordedRequest) => unknown;

/** Starts a server that routes X-Amz-Target "<targetPrefix>.<Operation>" to `operations`. */
export async function startJsonRpcServer(options: {
  targetPrefix: string;
  contentType: string;
  operations: Record<string, OperationHandler>;
  maxBodyBytes?: number;
}): Promise<JsonRpcServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    handle(req, res, options, requests).catch((error: unknown) => {
      send(res, options.contentType, 500, { __type: 'InternalFailure', message: String(error) });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  options: Parameters<typeof startJsonRpcServer>[0],
  requests: RecordedRequest[],
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const wire = Buffer.concat(chunks);
  const target = String(req.headers['x-amz-target'] ?? '');
  try {
    if (req.method !== 'POST' || req.url !== '/')
      throw new AwsJsonError(404, 'UnknownOperationException', 'POST / only');
    if (!String(req.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 '))
      throw new AwsJsonError(403, 'MissingAuthenticationTokenException', 'request is not SigV4-signed');
    if (!String(req.headers['content-type'] ?? '').startsWith(options.contentType))
      throw new AwsJsonError(400, 'SerializationException', `Content-Type must be ${options.contentType}`);
    const decoded = req.headers['content-encoding'] === 'gzip' ? gunzipSync(wire) : wire;
    if (options.maxBodyBytes !== undefined && decoded.length > options.maxBodyBytes)
      throw new AwsJsonError(413, 'RequestEntityTooLarge', `request body is ${decoded.length} bytes`);
    let body: unknown;
    try {
      body = decoded.length === 0 ? {} : JSON.parse(decoded.toString('utf8'));
    } catch {
      throw new AwsJsonError(400, 'SerializationException', 'body is not JSON');
    }
    const recorded: RecordedRequest = {
      target,
      headers: req.headers,
      wireBytes: wire.length,
      decodedBytes: decoded.length,
      body,
    };
    requests.push(recorded);
    const [prefix, operation] = target.split('.');
    const handler = prefix === options.targetPrefix && operation ? options.operations[operation] : undefined;
    if (handler === undefined) throw new AwsJsonError(400, 'UnknownOperationException', `unknown target ${target}`);
    send(res, options.contentType, 200, handler(body as Record<string, unknown>, recorded) ?? {});
  } catch (error) {
    if (!(error instanceof AwsJsonError)) throw error;
    const headers: Record<string, string> =
      error.queryCode === undefined ? {} : { 'x-amzn-query-error': error.queryCode };
    send(res, options.contentType, error.status, { __type: error.type, message: error.message }, headers);
  }
}

function send(
  res: ServerResponse,
  contentType: string,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': crypto.randomUUID(),
    ...headers,
  });
  res.end(text);
}
