/**
 * The machinery every check shares: named steps run once and timed, findings stamped with the run's id, and the
 * run's abort signal, which cuts whatever is still pending so a report always comes back.
 */

import type { ValidationError } from '../report/findings.ts';
import type { Execution } from '../report/report.ts';
import { isServiceError } from '../shared/errors.ts';
import { roundTo } from '../shared/statistics.ts';
import type { ResolvedQuery, SuccessCriteria } from '../suite/suite.ts';
import type { Check, CheckResult, RunContext, Settled } from './check.ts';
import type { EngineDeps, RunOptions } from './run-options.ts';

/** The reason a step or check did not finish: the run's signal aborted first (its reason says why: a deadline). */
export class CutError extends Error {
  override readonly name = 'CutError';
  constructor(what: string, signal?: AbortSignal, waitingOn?: string) {
    // The deadline's own words when it is the deadline; a bare abort says only that the run had to stop.
    const reason: unknown = signal?.reason;
    const why = isServiceError(reason) ? reason.message : 'the run had to stop';
    super(`${what} was cut: ${why}${waitingOn ? `; still waiting on ${waitingOn}` : ''}`);
  }
}

/** What each step waits on, so a cut names the dependency, not only the stage. */
const STEP_DEPENDENCIES: Record<string, string> = {
  describe: 'Qdrant (get collection)',
  catalog: 'Qdrant (facet or scroll)',
  queries: 'Cohere embed and Qdrant search',
  sitemap: 'the sitemap host',
  profile: 'Qdrant (count, facet or scroll)',
  agent: 'Cohere chat and Qdrant search',
};

export interface RunContextHandle {
  ctx: RunContext;
  /** Waits until every step started so far has settled (a step may outlive the check that started it). */
  settleAll(): Promise<void>;
  /** Every settled step, in the order they started, with status and duration. */
  stages(): Execution['stages'];
}

type StageRecord = Execution['stages'][string];
interface StepEntry {
  promise: Promise<unknown>;
  settled: Promise<Settled<unknown>>;
  record?: StageRecord;
}

export function createRunContext(init: {
  deps: EngineDeps;
  options: RunOptions;
  runId: string;
  startedAt: Date;
  queries: ResolvedQuery[];
  criteria: SuccessCriteria;
}): RunContextHandle {
  const { deps, runId } = init;
  const steps = new Map<string, StepEntry>();

  /** The steps still running, with what each waits on: "queries (Cohere embed and Qdrant search)". */
  const pending = () =>
    [...steps]
      .filter(([name, s]) => s.record === undefined && STEP_DEPENDENCIES[name] !== undefined)
      .map(([name]) => `${name} (${STEP_DEPENDENCIES[name]})`)
      .join(', ');

  const step = <T>(name: string, fn: () => Promise<T>, judge?: (value: T) => string | null): Promise<T> => {
    const known = steps.get(name);
    if (known) return known.promise as Promise<T>;
    const t = deps.clock.monotonicMs();
    deps.progress?.({ kind: 'stage', stage: name, status: 'started' });
    // A step asked for after the run was cut does not start: its request would outlive the run.
    const what = STEP_DEPENDENCIES[name] ? `${name} (${STEP_DEPENDENCIES[name]})` : name;
    const work = deps.signal?.aborted
      ? Promise.reject(new CutError(what, deps.signal))
      : cuttable(what, start(fn), deps.signal);
    const entry: StepEntry = {
      // Recorded and announced before any consumer sees the value, as a plain timed call would.
      settled: outcome(work).then((result) => {
        // A step that resolved but could not do its work (no query could run) is not "ok": `judge` says so.
        const unusable = result.ok && judge ? judge(result.value as T) !== null : false;
        const status =
          result.ok && !unusable ? 'ok' : !result.ok && result.error instanceof CutError ? 'cut' : 'failed';
        deps.progress?.({ kind: 'stage', stage: name, status: result.ok ? 'finished' : 'failed' });
        entry.record = { status, duration_ms: roundTo(deps.clock.monotonicMs() - t, 1) };
        return result;
      }),
      promise: Promise.resolve(),
    };
    entry.promise = entry.settled.then((r) => (r.ok ? r.value : Promise.reject(r.error)));
    // Observed through `settled`; this only keeps a step nobody awaited from being an unhandled rejection.
    entry.promise.catch(() => undefined);
    steps.set(name, entry);
    return entry.promise as Promise<T>;
  };

  const ctx: RunContext = {
    ...init,
    ...(deps.signal ? { signal: deps.signal } : {}),
    step,
    pendingSteps: pending,
    settled: (name) => steps.get(name)?.settled,
    error: (error_type, severity, message, details = {}): ValidationError => ({
      id: deps.newId(),
      validation_id: runId,
      error_type,
      severity,
      message,
      details,
    }),
  };
  return {
    ctx,
    settleAll: async () => {
      // A settling step may start another; loop until no step is pending.
      for (let size = -1; size !== steps.size; ) {
        size = steps.size;
        await Promise.all([...steps.values()].map((s) => s.settled));
      }
    },
    stages: () => Object.fromEntries([...steps].flatMap(([name, s]) => (s.record ? [[name, s.record] as const] : []))),
  };
}

/**
 * Runs every check concurrently and returns their results in list order (so findings keep a stable order). A check
 * that throws or is cut becomes a failure of the run (a cut one also a TIMEOUT finding), never an exception.
 */
export async function runChecks(checks: readonly Check[], ctx: RunContext): Promise<CheckResult[]> {
  return Promise.all(
    checks.map(async (check): Promise<CheckResult> => {
      try {
        return await cuttable(`the ${check.name} check`, check.run(ctx), ctx.signal, ctx.pendingSteps);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        // A cut is a finding too: the report says which check has no verdict tonight, and why.
        if (error instanceof CutError)
          return { errors: [ctx.error('TIMEOUT', 'HIGH', reason, { check: check.name })], failures: [reason] };
        return { errors: [], failures: [`${check.name}: ${reason}`] };
      }
    }),
  );
}

/** Starts `fn` now (as a plain call would), turning a synchronous throw into a rejection. */
function start<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return fn();
  } catch (error) {
    return Promise.reject(error);
  }
}

function cuttable<T>(
  what: string,
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  waitingOn?: () => string,
): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new CutError(what, signal, waitingOn?.()));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CutError(what, signal, waitingOn?.() || undefined));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A step's outcome as data, for a check that reports a failed input as a finding. */
export function outcome<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

/** A timeout is reported as TIMEOUT, a rate limit not waited out as RATE_LIMITED; any other failure as given. */
export function failureType(error: unknown, fallback: ValidationError['error_type']): ValidationError['error_type'] {
  if (!isServiceError(error)) return fallback;
  return error.kind === 'timeout' ? 'TIMEOUT' : error.kind === 'rate_limited' ? 'RATE_LIMITED' : fallback;
}
