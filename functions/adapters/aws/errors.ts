/**
 * The one place an AWS SDK v3 failure is translated, for every AWS adapter (S3, CloudWatch, SNS, Secrets Manager):
 * the service's error name and HTTP status, or the socket's error code, become a FailureKind and one short line,
 * and that line becomes the SinkError (or SecretError) the adapter throws. AWS error messages never carry a
 * request's payload, so no secret can ride along; they are still cut to 200 chars.
 */
import { type FailureKind, SinkError, truncate } from '../../core/shared/errors.ts';

export interface AwsFailure {
  kind: FailureKind;
  status: number | undefined;
  /** "<ErrorName>: <message>", one line, cut. */
  summary: string;
}

const NAMES: Record<string, FailureKind> = {
  AccessDenied: 'unauthorized',
  AccessDeniedException: 'unauthorized',
  AuthorizationError: 'unauthorized',
  AuthorizationErrorException: 'unauthorized',
  ExpiredToken: 'unauthorized',
  ExpiredTokenException: 'unauthorized',
  InvalidAccessKeyId: 'unauthorized',
  InvalidClientTokenId: 'unauthorized',
  SignatureDoesNotMatch: 'unauthorized',
  UnrecognizedClientException: 'unauthorized',
  NoSuchBucket: 'not_found',
  NoSuchKey: 'not_found',
  NotFound: 'not_found',
  NotFoundException: 'not_found',
  ResourceNotFoundException: 'not_found',
  Throttling: 'rate_limited',
  ThrottlingException: 'rate_limited',
  ThrottledException: 'rate_limited',
  TooManyRequestsException: 'rate_limited',
  SlowDown: 'rate_limited',
  RequestTimeout: 'timeout',
  TimeoutError: 'timeout',
  RequestTimeoutException: 'timeout',
};

const SOCKET_CODES: Record<string, FailureKind> = {
  ECONNREFUSED: 'unavailable',
  ECONNRESET: 'unavailable',
  ENOTFOUND: 'unavailable',
  EAI_AGAIN: 'unavailable',
  EPIPE: 'unavailable',
  ETIMEDOUT: 'timeout',
};

/** Classifies anything an AWS SDK v3 client (or the socket under it) threw. */
export function classifyAwsError(error: unknown): AwsFailure {
  const e = (error ?? {}) as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    $fault?: unknown;
    $metadata?: { httpStatusCode?: unknown };
  };
  const name = typeof e.name === 'string' ? e.name : 'Error';
  const message = typeof e.message === 'string' && e.message !== '' ? e.message : String(error);
  const code = typeof e.code === 'string' ? e.code : undefined;
  const status = typeof e.$metadata?.httpStatusCode === 'number' ? e.$metadata.httpStatusCode : undefined;
  const kind =
    NAMES[name] ??
    (code === undefined ? undefined : SOCKET_CODES[code]) ??
    (status === 401 || status === 403
      ? 'unauthorized'
      : status === 404
        ? 'not_found'
        : status === 429
          ? 'rate_limited'
          : status !== undefined && status >= 500
            ? 'unavailable'
            : status !== undefined && status >= 400
              ? 'bad_request'
              : e.$fault === 'server'
                ? 'unavailable'
                : 'unexpected');
  return { kind, status, summary: truncate(`${code && name === 'Error' ? code : name}: ${message}`) };
}

/** A sink call that failed: "<what failed> (<kind>): <ErrorName>: <message>", with the SDK's error as cause. */
export function awsSinkError(failed: string, error: unknown): SinkError {
  const failure = classifyAwsError(error);
  return new SinkError(`${failed} (${failure.kind}): ${failure.summary}`, failure.kind, {
    cause: error,
    status: failure.status,
  });
}

/** A secret could not be read, or holds no usable key. Messages name the secret, never its value. */
export class SecretError extends Error {
  readonly secretId: string;
  readonly kind: FailureKind;
  constructor(secretId: string, kind: FailureKind, detail: string, options?: { cause?: unknown }) {
    super(`secret ${secretId}: ${detail}`, options);
    this.name = 'SecretError';
    this.secretId = secretId;
    this.kind = kind;
  }
}

/** Secrets Manager refused or failed a read (through Powertools, which wraps the SDK's error in its own). */
export function secretReadError(secretId: string, error: unknown): SecretError {
  const failure = classifyAwsError((error as { cause?: unknown }).cause ?? error);
  return new SecretError(secretId, failure.kind, `could not be read (${failure.kind}): ${truncate(failure.summary)}`, {
    cause: error,
  });
}
