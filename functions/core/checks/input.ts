/**
 * What a check reads: inputs, each resolved at most once per run however many checks ask for it. An input does its
 * I/O only through named steps (steps.ts), so every request a run makes is timed, announced and cut on abort. When
 * an input fails, the runner reports it once, as the step that failed, and skips the checks that need it.
 */
import type { ErrorType, Severity, ValidationError } from '../report/findings.ts';
import type { ResolvedQuery, SuccessCriteria } from '../suite/suite.ts';
import type { EngineDeps, RunOptions } from './run-options.ts';
import type { StepName } from './steps.ts';

/** The run as its inputs see it: the ports, the configuration, the resolved suite, and the steps. */
export interface RunContext {
  readonly deps: EngineDeps;
  readonly options: RunOptions;
  readonly runId: string;
  /** When the run started (the report's timestamp). */
  readonly startedAt: Date;
  /** The suite's queries with defaults and configuration overrides applied. */
  readonly queries: ResolvedQuery[];
  readonly criteria: SuccessCriteria;
  /** Aborts when the run must stop (a deadline); a step still pending then is cut. */
  readonly signal?: AbortSignal;
  /**
   * Runs a named step once per run, timed in `execution.stages` and announced to the progress listener; a later
   * call with the same name shares the first call's promise. `judge` names why a resolved value is unusable (no
   * query could run), so the stage reads "failed", not "ok".
   */
  step<T>(name: StepName, fn: () => Promise<T>, judge?: (value: T) => string | null): Promise<T>;
  /** An input's value, resolved once per run. */
  input<T>(input: Input<T>): Promise<T>;
  /** The steps still running and what each waits on, for a cut's message ("" when none). */
  pendingSteps(): string;
  /** A finding of this run. */
  error(type: ErrorType, severity: Severity, message: string, details?: Record<string, unknown>): ValidationError;
}

/** How an input's failure is reported, once, by the runner. */
interface InputFailure {
  /** The run's failure line is "<label>: <reason>" (its status reason lists them). */
  label: string;
  /**
   * The finding ops read when the failure is one (a sitemap that could not be read). `type` is used unless the
   * failure was a timeout (TIMEOUT) or a rate limit not waited out (RATE_LIMITED).
   */
  finding?: {
    type: ErrorType;
    severity: Severity;
    message: (reason: string, ctx: RunContext) => string;
    details?: (ctx: RunContext) => Record<string, unknown>;
  };
  /** Not reported when one of these failed too: that outage is reported there, once. */
  silentWhen?: readonly Input<unknown>[];
}

export interface Input<T> {
  /** Its name in the runner's record (inputs are resolved once per name). */
  readonly name: string;
  /** The named steps its resolution runs itself (none: it only reads other inputs). */
  readonly steps: readonly StepName[];
  resolve(ctx: RunContext): Promise<T>;
  /** How a failure is reported; absent, the failure is silent here (reported by the input it failed because of). */
  readonly failure?: InputFailure;
  /** Why a resolved value still means the input failed (no query could run); reported as its failure. */
  unusable?(value: T): string | null;
}

/** An input a check can do without: resolved as null when it failed, so the check is not skipped. */
export function optional<T>(input: Input<T>): Input<T | null> {
  return {
    name: `${input.name}?`,
    steps: [],
    resolve: (ctx) =>
      ctx.input(input).then(
        (value) => value,
        () => null,
      ),
  };
}

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A promise's outcome as data. */
export function outcome<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}
