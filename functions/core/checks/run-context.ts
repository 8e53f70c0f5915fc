/**
 * The machinery every input shares: named steps run once and timed, inputs resolved once, findings stamped with the
 * run's id, and the run's abort signal, which cuts whatever is still pending so a report always comes back.
 */

import type { ValidationError } from '../report/findings.ts';
import type { Execution } from '../report/report.ts';
import { isServiceError } from '../shared/errors.ts';
import { roundTo } from '../shared/statistics.ts';
import type { ResolvedQuery, SuccessCriteria } from '../suite/suite.ts';
import type { Input, RunContext, Settled } from './input.ts';
import { outcome } from './input.ts';
import type { EngineDeps, RunOptions } from './run-options.ts';
import { describeStep, type StepName } from './steps.ts';

/** The reason a step did not finish: the run's signal aborted first (its reason says why: a deadline). */
export class CutError extends Error {
  override readonly name = 'CutError';
  constructor(what: string, signal?: AbortSignal) {
    // The deadline's own words when it is the deadline; a bare abort says only that the run had to stop.
    const reason: unknown = signal?.reason;
    const why = isServiceError(reason) ? reason.message : 'the run had to stop';
    super(`${what} was cut: ${why}`);
  }
}

export interface RunContextHandle {
  ctx: RunContext;
  /** Waits until every step started so far has settled (a step may outlive the check that started it). */
  settleAll(): Promise<void>;
  /** Every settled step, in the order they started, with status and duration. */
  stages(): Execution['stages'];
  /** Every input asked for, in the order they settled (those still pending last), with its outcome once settled. */
  inputs(): { input: Input<unknown>; settled: Settled<unknown> | undefined }[];
}

type StageRecord = Execution['stages'][string];
interface StepEntry {
  promise: Promise<unknown>;
  settled: Promise<Settled<unknown>>;
  record?: StageRecord;
}
interface InputEntry {
  input: Input<unknown>;
  promise: Promise<unknown>;
  settled?: Settled<unknown>;
  /** When it settled, in the order inputs settled: an input failing because another did settles after it. */
  order?: number;
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
  const steps = new Map<StepName, StepEntry>();
  const inputs = new Map<string, InputEntry>();
  let settledInputs = 0;

  /** The steps still running, with what each waits on: "queries (Cohere embed and Qdrant search)". */
  const pending = () =>
    [...steps]
      .filter(([, s]) => s.record === undefined)
      .map(([name]) => describeStep(name))
      .join(', ');

  const step = <T>(name: StepName, fn: () => Promise<T>, judge?: (value: T) => string | null): Promise<T> => {
    const known = steps.get(name);
    if (known) return known.promise as Promise<T>;
    const t = deps.clock.monotonicMs();
    deps.progress?.({ kind: 'stage', stage: name, status: 'started' });
    // A step asked for after the run was cut does not start: its request would outlive the run.
    const work = deps.signal?.aborted
      ? Promise.reject(new CutError(describeStep(name), deps.signal))
      : cuttable(describeStep(name), start(fn), deps.signal);
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

  const input = <T>(wanted: Input<T>): Promise<T> => {
    const known = inputs.get(wanted.name);
    if (known) return known.promise as Promise<T>;
    const entry: InputEntry = { input: wanted as Input<unknown>, promise: Promise.resolve() };
    inputs.set(wanted.name, entry);
    entry.promise = start(() => wanted.resolve(ctx));
    entry.promise.then(
      (value) => {
        entry.settled = { ok: true, value };
        entry.order = settledInputs++;
      },
      (error: unknown) => {
        entry.settled = { ok: false, error };
        entry.order = settledInputs++;
      },
    );
    return entry.promise as Promise<T>;
  };

  const ctx: RunContext = {
    ...init,
    ...(deps.signal ? { signal: deps.signal } : {}),
    step,
    input,
    pendingSteps: pending,
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
      // A settling step may start another; loop until no step or input is pending.
      for (let size = -1; size !== steps.size + inputs.size; ) {
        size = steps.size + inputs.size;
        await Promise.all([...steps.values()].map((s) => s.settled));
        await Promise.all([...inputs.values()].map((i) => outcome(i.promise)));
      }
    },
    stages: () => Object.fromEntries([...steps].flatMap(([name, s]) => (s.record ? [[name, s.record] as const] : []))),
    inputs: () =>
      [...inputs.values()]
        .sort((a, b) => (a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER))
        .map((i) => ({ input: i.input, settled: i.settled })),
  };
}

/** Starts `fn` now (as a plain call would), turning a synchronous throw into a rejection. */
function start<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return fn();
  } catch (error) {
    return Promise.reject(error);
  }
}

function cuttable<T>(what: string, promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new CutError(what, signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CutError(what, signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A timeout is reported as TIMEOUT, a rate limit not waited out as RATE_LIMITED; any other failure as given. */
export function failureType(error: unknown, fallback: ValidationError['error_type']): ValidationError['error_type'] {
  if (error instanceof CutError) return 'TIMEOUT';
  if (!isServiceError(error)) return fallback;
  return error.kind === 'timeout' ? 'TIMEOUT' : error.kind === 'rate_limited' ? 'RATE_LIMITED' : fallback;
}
