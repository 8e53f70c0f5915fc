/**
 * The run's deadline as an AbortSignal: one signal handed to every adapter, aborted with a DeadlineError when the
 * budget is spent. The timer is unref'd, so a run that ends early never waits for it.
 */
import { DeadlineError } from '../core/shared/errors.ts';

export interface RunDeadline {
  signal: AbortSignal;
  /** When it fires, in epoch milliseconds. */
  atMs: number;
  /** The budget in milliseconds, as given. */
  budgetMs: number;
  /** Stops the timer once the run is over. */
  cancel(): void;
}

/** Starts a deadline `budgetMs` from now. */
export function startRunDeadline(budgetMs: number): RunDeadline {
  const controller = new AbortController();
  const seconds = Math.round(budgetMs) / 1000;
  const timer = setTimeout(
    () => controller.abort(new DeadlineError(`the run deadline (${seconds} s) was reached`)),
    Math.max(0, budgetMs),
  );
  timer.unref();
  return { signal: controller.signal, atMs: Date.now() + budgetMs, budgetMs, cancel: () => clearTimeout(timer) };
}
