/**
 * The one place a file system failure is translated, for every file adapter (the suite file, and the report
 * folder's reports, history and incident state): a file that cannot be read as input becomes an InputError naming
 * it; a write or read of the report folder that fails becomes a SinkError that keeps the system's own message
 * (it names the path and the errno) with a kind ops can act on.
 */
import { type FailureKind, InputError, SinkError } from '../../core/shared/errors.ts';

const KINDS: Record<string, FailureKind> = {
  ENOENT: 'not_found',
  ENOTDIR: 'bad_request',
  EISDIR: 'bad_request',
  EEXIST: 'bad_request',
  EACCES: 'unauthorized',
  EPERM: 'unauthorized',
  EROFS: 'unauthorized',
  ENOSPC: 'unavailable',
  EMFILE: 'unavailable',
  EBUSY: 'unavailable',
};

/** The errno code of a failed file operation (ENOENT, EACCES...), when it has one. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A file given as input (a suite) that cannot be read: "file not found", or "cannot be read (<errno>)". */
export function unreadableInput(file: string, error: unknown): InputError {
  const code = errnoOf(error);
  return new InputError(file, [code === 'ENOENT' ? 'file not found' : `cannot be read (${code ?? 'unknown error'})`]);
}

/** A failed read or write of the report folder, with the system's message (it names the path and the errno). */
export function fileSinkError(error: unknown): SinkError {
  if (error instanceof SinkError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = errnoOf(error);
  return new SinkError(message, (code === undefined ? undefined : KINDS[code]) ?? 'unexpected', { cause: error });
}
