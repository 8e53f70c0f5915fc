/**
 * What every adapter does at its boundary: retry transient failures with backoff (honouring Retry-After),
 * and keep secrets out of any text that leaves it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pRetry from 'p-retry';
import { isServiceError } from '../core/errors.ts';

/** Replaces every occurrence of each secret by a marker; empty secrets are ignored. */
export function redact(text: string, secrets: (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[REDACTED]');
  }
  return out;
}

/** Rate limits and unavailable services are worth another try; bad requests, auth failures and timeouts are not. */
export function isTransient(error: unknown): boolean {
  return isServiceError(error) && (error.kind === 'rate_limited' || error.kind === 'unavailable');
}

/**
 * Runs `fn`, retrying transient ServiceErrors with exponential backoff. A Retry-After (capped) replaces the
 * backoff delay, so a rate-limited service is given the pause it asked for. Timeouts are not retried: a hung
 * service usually stays hung, and each try would cost a whole timeout of the run's budget.
 */
export async function retryTransient<T>(
  fn: () => Promise<T>,
  options: { retries: number; minDelayMs?: number; maxRetryAfterMs?: number },
): Promise<T> {
  return pRetry(fn, {
    retries: options.retries,
    minTimeout: options.minDelayMs ?? 250,
    factor: 2,
    randomize: true,
    shouldRetry: ({ error }) => isTransient(error),
    onFailedAttempt: async ({ error, retriesLeft }) => {
      if (retriesLeft > 0 && isServiceError(error) && error.retryAfterSeconds !== undefined) {
        await sleep(Math.min(error.retryAfterSeconds * 1000, options.maxRetryAfterMs ?? 10_000));
      }
    },
  });
}
