/**
 * The run's deadline as an AbortSignal: one signal handed to every adapter, aborted with a DeadlineError when the
 * budget is spent. The timer is unref'd, so a run that ends early never waits for it.
 */
import { DeadlineError } from '../core/shared/errors.ts';
import type { RunSignal } from './transport.ts';

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

/**
 * How long before the run's deadline the agent stops: 5 % of the run's budget, at least 0.5 s and at most 10 s.
 * What it must leave time for is the agent step's own end (its cut call's rejection, the verdicts, which are pure)
 * and the report: milliseconds, so 0.5 s covers a loaded machine; 10 s is the most a 600 s run gives up.
 */
export function wrapUpMarginMs(budgetMs: number): number {
  return Math.min(10_000, Math.max(500, budgetMs / 20));
}

/**
 * The agent's own deadline: a RunSignal that aborts `wrapUpMarginMs` before `run`'s (or with it, when the run is
 * stopped first). The agent's chat and the claim judge listen to it, so a slow Cohere cannot carry the agent step
 * past the run's deadline: the step ends with the answers and verdicts it had instead of being cut whole.
 */
export function agentDeadline(run: RunSignal, nowMs: number = Date.now()): RunSignal {
  const marginMs = wrapUpMarginMs(run.atMs - nowMs);
  const controller = new AbortController();
  const stop = (reason: unknown) => {
    clearTimeout(timer);
    controller.abort(reason);
  };
  const timer = setTimeout(
    () => stop(new DeadlineError(`the agent's time ran out, ${marginMs / 1000} s before the run's deadline`)),
    Math.max(0, run.atMs - marginMs - nowMs),
  );
  timer.unref();
  if (run.signal.aborted) stop(run.signal.reason);
  else run.signal.addEventListener('abort', () => stop(run.signal.reason), { once: true });
  return { signal: controller.signal, atMs: run.atMs - marginMs };
}
