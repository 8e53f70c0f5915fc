/**
 * Typed exceptions: for broken infrastructure and bad input only (findings are data, see report/findings.ts).
 * Adapters translate their system's failures into these once, at the boundary; messages name the field or URL
 * at fault, are cut to a readable length and never carry a secret.
 */

export type FailureKind =
  | 'timeout'
  | 'rate_limited'
  | 'unauthorized'
  | 'not_found'
  | 'bad_request'
  | 'unavailable'
  | 'unexpected';

/** Cuts long bodies so an error message stays one readable line. */
export function truncate(text: string, max = 200): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}

abstract class RagwatchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The suite or the configuration is invalid; `problems` lists every one, each with its path. */
export class InputError extends RagwatchError {
  readonly problems: string[];
  readonly source: string;
  constructor(source: string, problems: string[]) {
    super(`${source} is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.source = source;
    this.problems = problems;
  }
}

/** A failure talking to an external service, already classified. */
abstract class ServiceError extends RagwatchError {
  readonly kind: FailureKind;
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;
  constructor(
    message: string,
    kind: FailureKind,
    options?: { cause?: unknown; status?: number; retryAfterSeconds?: number },
  ) {
    super(message, options);
    this.kind = kind;
    this.status = options?.status;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}

/** The vector index (Qdrant) failed or refused a request. */
export class IndexError extends ServiceError {}

/** The embedding service (Cohere) failed or refused a request. */
export class EmbeddingError extends ServiceError {}

/** The chat service (Cohere) failed or refused a request. */
export class ChatError extends ServiceError {}

/** The sitemap could not be fetched or parsed. */
export class SitemapError extends ServiceError {}

/** A report sink (S3, CloudWatch, SNS) failed. */
export class SinkError extends ServiceError {}

/** The run's deadline was reached: the abort reason of the run's signal, and what a cut request fails with. */
export class DeadlineError extends ServiceError {
  constructor(message: string) {
    super(message, 'timeout');
  }
}

export function isServiceError(
  error: unknown,
): error is IndexError | EmbeddingError | ChatError | SitemapError | SinkError {
  return error instanceof ServiceError;
}

/** A one-line description of any thrown value, for a report or a log. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return truncate(error.message, 300);
  return truncate(String(error), 300);
}
