/**
 * What every adapter does at its boundary: retry transient failures with backoff (honouring Retry-After, read by
 * ragwatch itself), stop at the run's deadline, and keep secrets out of any text that leaves it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pRetry from 'p-retry';
import { type FailureKind, isServiceError } from '../core/shared/errors.ts';

/** The run's deadline as adapters see it: the signal every request listens to, and when it fires (epoch ms). */
export interface RunSignal {
  signal: AbortSignal;
  atMs: number;
}

/** Replaces every occurrence of each secret by a marker; empty secrets are ignored. */
export function redact(text: string, secrets: (string | null | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[REDACTED]');
  }
  return out;
}

/** Rate limits and unavailable services are worth another try; bad requests, auth failures and timeouts are not. */
function isTransient(error: unknown): boolean {
  return isServiceError(error) && (error.kind === 'rate_limited' || error.kind === 'unavailable');
}

/**
 * Retry-After in seconds from either of its forms (RFC 9110: delay-seconds or an HTTP date), or undefined when
 * absent or unreadable. `nowMs` dates the HTTP-date form.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  const text = header?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/** A request's own signal: its timeout, plus the run's deadline when there is one. */
export function requestSignal(timeoutMs: number, run: RunSignal | undefined): AbortSignal {
  const own = AbortSignal.timeout(timeoutMs);
  return run ? AbortSignal.any([own, run.signal]) : own;
}

/** When the run's deadline ended a request: "cut by the run deadline (600 s)", else undefined. */
export function deadlineCut(run: RunSignal | undefined): string | undefined {
  if (!run?.signal.aborted) return undefined;
  const reason: unknown = run.signal.reason;
  return `cut: ${reason instanceof Error ? reason.message : 'the run deadline was reached'}`;
}

const DEFAULT_MAX_RETRY_AFTER_MS = 10_000;

/**
 * Runs `fn`, retrying transient ServiceErrors with exponential backoff. A Retry-After replaces the backoff delay,
 * so a rate-limited service is given the pause it asked for; when it asks for more than the cap, or more than is
 * left before the deadline, the 429 is final at once (its message says what was asked) rather than retried into
 * another 429. Timeouts are not retried: a hung service usually stays hung, and each try would cost a whole
 * timeout of the run's budget. No try starts after the deadline.
 */
export async function retryTransient<T>(
  fn: () => Promise<T>,
  options: { retries: number; minDelayMs?: number; maxRetryAfterMs?: number; run?: RunSignal },
): Promise<T> {
  const cap = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  const run = options.run;
  // No `signal` for p-retry: it would end the retries with the signal's reason, losing which service was cut.
  return pRetry(fn, {
    retries: options.retries,
    minTimeout: options.minDelayMs ?? 250,
    factor: 2,
    randomize: true,
    shouldRetry: async ({ error }) => {
      if (!isTransient(error) || run?.signal.aborted) return false;
      const asked = isServiceError(error) ? error.retryAfterSeconds : undefined;
      if (asked === undefined) return true;
      if (asked * 1000 > cap || (run !== undefined && Date.now() + asked * 1000 >= run.atMs)) return false;
      // The pause the service asked for; the deadline ends it, and then the 429 is the answer.
      return sleep(asked * 1000, true, run ? { signal: run.signal } : {}).catch(() => false);
    },
  });
}

/**
 * An idempotent read (a search, facet, count, scroll or retrieve: asking again changes nothing) that timed out,
 * asked once more while the run's deadline leaves room for a whole second timeout: one slow answer is most often a
 * blip (a busy node, a GC pause), and a run that gives up on it closes the dependency for every later step. A
 * request cut by the deadline itself is not retried, nor any other failure (retryTransient has those).
 */
export async function retryTimeoutOnce<T>(
  fn: () => Promise<T>,
  options: { timeoutMs: number; run?: RunSignal },
): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const { run } = options;
    if (!isServiceError(error) || error.kind !== 'timeout' || run?.signal.aborted) throw error;
    if (run !== undefined && Date.now() + options.timeoutMs >= run.atMs) throw error;
    return fn();
  }
}

/**
 * Failures that say the dependency itself is gone for this run: it hung (timeout), refused the key (401/403), or
 * could not be reached at all (unavailable without an HTTP status: refused, reset, DNS). A 5xx or a 429 is an
 * answer, quick and possibly different next time, so it does not close the gate.
 */
function isHardFailure(error: unknown): boolean {
  if (!isServiceError(error)) return false;
  return (
    error.kind === 'timeout' ||
    error.kind === 'unauthorized' ||
    (error.kind === 'unavailable' && error.status === undefined)
  );
}

/**
 * One dependency's state for one run (adapters are built per run). Once it has failed hard (timed out, refused
 * the key, could not be reached), later calls fail at once with a message that points at the
 * first failure, instead of each query paying a timeout again: a hung Qdrant otherwise costs every agent question
 * another 10 s search.
 *
 * `strikes`: how many calls in a row must fail hard (timed out or unreachable; no call succeeding between them)
 * before the gate closes; a refused key closes it at once, whatever the count, as it will not heal within a run.
 * Qdrant's is 2 (engine-adapters.ts): one query batch or one facet that timed out, even after its retry, is a blip
 * that costs only the step that made it, while the searches, counts and scrolls after it still run; a Qdrant that is
 * really gone fails the next call too, and then the gate closes (two calls' timeouts, not one per later step).
 */
export class DependencyGate {
  readonly #name: string;
  readonly #strikes: number;
  #failure: Error | undefined;
  #inARow = 0;
  #firstInARow: Error | undefined;

  constructor(name: string, options: { strikes?: number } = {}) {
    this.#name = name;
    this.#strikes = Math.max(1, options.strikes ?? 1);
  }

  /**
   * Runs `fn` unless the dependency already failed hard. `stop`: the caller's own deadline; a failure once it has
   * aborted is the caller running out of time, not the dependency failing, so it is no strike (the agent's deadline
   * comes before the run's, and the embedder sharing this gate must not read it as Cohere down).
   */
  async run<T>(fn: () => Promise<T>, stop?: AbortSignal): Promise<T> {
    const first = this.#failure;
    if (first !== undefined) throw skipped(this.#name, first);
    try {
      const value = await fn();
      this.#inARow = 0;
      this.#firstInARow = undefined;
      return value;
    } catch (error) {
      if (isHardFailure(error) && !stop?.aborted) {
        this.#inARow += 1;
        this.#firstInARow ??= error as Error;
        if (this.#inARow >= this.#strikes || (isServiceError(error) && error.kind === 'unauthorized'))
          this.#failure ??= this.#firstInARow;
      }
      throw error;
    }
  }
}

/** The first failure's own class and kind, with a message that says this call was not even tried. */
function skipped(name: string, first: Error): Error {
  const message = `${name} not tried again: it failed earlier in this run (${first.message})`;
  if (!isServiceError(first)) return new Error(message);
  const Kind = first.constructor as new (
    message: string,
    kind: FailureKind,
    options?: { status?: number; retryAfterSeconds?: number },
  ) => Error;
  return new Kind(message, first.kind, {
    ...(first.status === undefined ? {} : { status: first.status }),
    ...(first.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: first.retryAfterSeconds }),
  });
}
