/**
 * Reads the Retry-After header of a 429 as it comes off the wire, for clients that lose it. @qdrant/js-client-rest
 * 1.19 keeps only the header's first character (`headers.get('retry-after')?.[0]`: "30" becomes 3 s, and an
 * HTTP date makes it throw "Invalid retryAfter value: W", dropping the status too). The tap is an undici
 * dispatcher (the agent the Qdrant client itself uses, with its settings) composed per call, so concurrent calls
 * never see each other's headers.
 */
import { Agent, type Dispatcher } from 'undici';

export interface TappedCall {
  dispatcher: Dispatcher;
  /** The raw Retry-After of this call's 429 answer, if it had one. */
  retryAfter(): string | undefined;
}

/** One connection pool; `forCall` gives each request its own view of the headers. */
export function createRetryAfterTap(connections = 25): { forCall(): TappedCall } {
  // The Qdrant client's own agent settings: timeouts are the AbortSignal's job, not the socket's.
  const base = new Agent({ bodyTimeout: 0, headersTimeout: 0, connections, keepAliveTimeout: 10_000 });
  return {
    forCall() {
      let seen: string | undefined;
      const record = (status: number, value: unknown) => {
        if (status === 429)
          seen = Array.isArray(value) ? String(value[0]) : value === undefined ? undefined : String(value);
      };
      const dispatcher = base.compose(
        (dispatch) => (options, handler) =>
          dispatch(
            options,
            new Proxy(handler, {
              get(target, property, receiver) {
                const value: unknown = Reflect.get(target, property, receiver);
                if (typeof value !== 'function') return value;
                if (property === 'onResponseStart')
                  return (controller: unknown, status: number, headers: Record<string, unknown>, text: string) => {
                    record(status, headers['retry-after']);
                    return value.call(target, controller, status, headers, text);
                  };
                if (property === 'onHeaders')
                  return (status: number, raw: Buffer[], resume: () => void, text: string) => {
                    record(status, rawHeader(raw, 'retry-after'));
                    return value.call(target, status, raw, resume, text);
                  };
                return value.bind(target);
              },
            }),
          ),
      );
      return { dispatcher, retryAfter: () => seen };
    },
  };
}

function rawHeader(raw: Buffer[], name: string): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) if (String(raw[i]).toLowerCase() === name) return String(raw[i + 1]);
  return undefined;
}
