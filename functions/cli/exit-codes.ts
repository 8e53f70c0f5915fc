/**
 * The CLI's exit codes: the one table every command returns from, and the one README's "Exit codes" section
 * documents (test/cli/exit-codes.test.ts holds the two together).
 */
import type { ValidationReport } from '../core/report/report.ts';

export const EXIT = {
  /** Every success criterion holds (status PASSED); for the other commands, done as asked. */
  ok: 0,
  /** A criterion is breached or a finding fails the run (FAILED). */
  failed: 1,
  /** Bad input or configuration: every problem is listed, and nothing ran. */
  badInput: 2,
  /** The run finished but its report could not be written under --out: the whole report is on stderr instead. */
  reportNotWritten: 3,
  /**
   * The run could not complete (ERROR: Qdrant, Cohere or the sitemap failed, or the deadline cut it); `index`: a service failed. Its own code,
   * so that a nightly wrapper can tell "the index rotted" (1) from "the API key expired" (4).
   */
  error: 4,
  /** Stopped by Ctrl-C (128 + SIGINT, as a shell reports it): no report was written, the cursor was given back. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A finished run's exit code: whether its report was written, then its status. */
export function exitCodeOfRun(run: { stored: boolean; status: ValidationReport['status'] }): ExitCode {
  if (!run.stored) return EXIT.reportNotWritten;
  return run.status === 'PASSED' ? EXIT.ok : run.status === 'ERROR' ? EXIT.error : EXIT.failed;
}
