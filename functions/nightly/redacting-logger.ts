/**
 * The Lambda's logger with the one URL redaction (core/shared/redact-url.ts) on every line: a credential in a URL
 * (a `?token=` SITEMAP_URL, a presigned sitemap child) quoted in a message, a reason or the whole report of a run
 * S3 would not take never reaches CloudWatch Logs.
 */
import { redactUrlsDeep, redactUrlsIn } from '../core/shared/redact-url.ts';

/** The levels it redacts (NightlyLogger's, without importing deps.ts, which imports this). */
interface LevelLogger {
  info(message: string, extra: Record<string, unknown>): void;
  warn(message: string, extra: Record<string, unknown>): void;
  error(message: string, extra: Record<string, unknown>): void;
}

/** `logger` with info, warn and error redacted; everything else (context, keys) passed through as it is. */
export function redactingLogger<L extends LevelLogger>(logger: L): L {
  const redacted = (level: 'info' | 'warn' | 'error') => (message: string, extra: Record<string, unknown>) =>
    logger[level](redactUrlsIn(message), redactUrlsDeep(extra));
  const levels = { info: redacted('info'), warn: redacted('warn'), error: redacted('error') };
  return new Proxy(logger, {
    get(target, property, receiver) {
      if (property === 'info' || property === 'warn' || property === 'error') return levels[property];
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
