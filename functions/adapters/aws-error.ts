/**
 * The one place an AWS SDK v3 failure is classified, for every AWS adapter (S3, CloudWatch, SNS, Secrets Manager):
 * the service's error name and HTTP status, or the socket's error code, become a FailureKind and one short line.
 * AWS error messages never carry a request's payload, so no secret can ride along; they are still cut to 200 chars.
 */
import { type FailureKind, truncate } from '../core/shared/errors.ts';

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
