/**
 * Runs one piece of I/O with a bound of its own: it gets an AbortSignal that fires after `ms` (or when the
 * parent signal fires), and its promise is raced against that signal, so the caller regains control on time even
 * when the work ignores the signal (Powertools' SecretsProvider takes none). The abandoned request is then ended by
 * the client's own transport timeouts.
 */
import { type FailureKind, SinkError } from '../core/shared/errors.ts';

export interface Bound {
  /** What is bounded, for the message: "S3 report", "SNS alert". */
  what: string;
  ms: number;
  /** The run's deadline (or any outer bound); the tighter of the two wins. */
  parent?: AbortSignal;
}

/** The error a bound ends its work with: names what, how long it was given, and why it was cut. */
class BoundExceeded extends SinkError {
  constructor(what: string, detail: string, kind: FailureKind = 'timeout') {
    super(`${what} ${detail}`, kind);
  }
}

/** Runs `fn` within the bound; rejects with BoundExceeded when it is reached first. */
export async function withinBound<T>(bound: Bound, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const own = new BoundExceeded(bound.what, `did not finish within its ${bound.ms} ms bound`);
  const timer = setTimeout(() => controller.abort(own), bound.ms);
  const onParent = () =>
    controller.abort(new BoundExceeded(bound.what, `was cut by the run deadline: ${describeReason(bound.parent)}`));
  if (bound.parent?.aborted) onParent();
  else bound.parent?.addEventListener('abort', onParent, { once: true });
  const { signal } = controller;
  let rejectOnAbort: (reason: unknown) => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    rejectOnAbort = reject;
  });
  const listener = () => rejectOnAbort(signal.reason);
  if (signal.aborted) listener();
  else signal.addEventListener('abort', listener, { once: true });
  try {
    // The work's own rejection wins when it comes first; an abort after that changes nothing.
    return await Promise.race([fn(signal), aborted]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', listener);
    bound.parent?.removeEventListener('abort', onParent);
  }
}

function describeReason(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason.message : String(reason ?? 'aborted');
}
