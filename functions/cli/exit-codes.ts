/**
 * The CLI's exit codes: the one table every command returns from, and the one README's "Exit codes" section
 * documents (test/cli/exit-codes.test.ts holds the two together).
 */
import type { ValidationReport } from '../core/report/report.ts';

export const EXIT = {
  /** Every success criterion holds (status PASSED); for the other commands, done as asked. */
  ok: 0,
  /** A criterion is breached (FAILED) or the run could not complete (ERROR); `index`: a service failed. */
  failed: 1,
  /** Bad input or configuration: every problem is listed, and nothing ran. */
  badInput: 2,
  /** The run finished but its report could not be written under --out: the whole report is on stderr instead. */
  reportNotWritten: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A finished run's exit code: whether its report was written, then its status. */
export function exitCodeOfRun(run: { stored: boolean; status: ValidationReport['status'] }): ExitCode {
  if (!run.stored) return EXIT.reportNotWritten;
  return run.status === 'PASSED' ? EXIT.ok : EXIT.failed;
}
