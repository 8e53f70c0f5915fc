/**
 * One interface for every check the run performs (in the spirit of cdk-nag's one rule per file): a check reads the
 * run's shared inputs through its context, and returns the report sections it fills, its findings, and its figures
 * for the success criteria. Adding a check is one new file and one line in ../run/checks.ts.
 */
import type { evaluateCriteria } from '../criteria/criteria.ts';
import type { CriterionResult, ValidationError } from '../report/findings.ts';
import type { IndexHealth } from '../report/index-health-report.ts';
import type { Execution, ValidationReport } from '../report/report.ts';
import type { ResolvedQuery, SuccessCriteria } from '../suite/suite.ts';
import type { EngineDeps, RunOptions } from './run-options.ts';

/** The report sections a check may fill; a section a check could not compute is null. */
export type ReportSections = Partial<
  Pick<
    ValidationReport,
    'query_results' | 'validation_metrics' | 'coverage_report' | 'quality_metrics' | 'grounding_report'
  >
> & {
  /** Index-health blocks; several checks each fill their own. */
  index_health?: Partial<IndexHealth>;
};

/** A check's figures for the success criteria (undefined: the criterion does not apply to this run). */
export type CriteriaFigures = Partial<Omit<Parameters<typeof evaluateCriteria>[0], 'criteria'>>;

export interface CheckResult {
  sections?: ReportSections;
  /** Findings, in the order they appear in the report. */
  errors: ValidationError[];
  /** Why part of the check could not run at all ("sitemap: timed out"); any makes the run FAILED. */
  failures?: string[];
  criteria?: CriteriaFigures;
  /** The check's own success criteria, judged by the check (see criteria.ts judgeCriterion). */
  verdicts?: CriterionResult[];
  /** Request counts for `execution` (summed over checks). */
  execution?: Partial<Pick<Execution, 'embed_calls' | 'search_calls'>>;
}

export interface RunContext {
  readonly deps: EngineDeps;
  readonly options: RunOptions;
  readonly runId: string;
  /** When the run started (the report's timestamp). */
  readonly startedAt: Date;
  /** The suite's queries with defaults and configuration overrides applied. */
  readonly queries: ResolvedQuery[];
  readonly criteria: SuccessCriteria;
  /** Aborts when the run must stop (a deadline); a step or check still pending then is cut. */
  readonly signal?: AbortSignal;
  /**
   * Runs a named unit of work once per run, timed in `execution.stages` and announced to the progress listener;
   * every later call with the same name shares the first call's promise, so checks can share inputs. `judge`
   * names why a resolved value is unusable (e.g. no query could run), so the stage reads "failed", not "ok".
   */
  step<T>(name: string, fn: () => Promise<T>, judge?: (value: T) => string | null): Promise<T>;
  /** The steps still running and what each waits on, for a cut's message ("" when none). */
  pendingSteps?(): string;
  /** The settled outcome of a step, without starting it (undefined when nobody ran it). */
  settled(name: string): Promise<Settled<unknown>> | undefined;
  /** A finding of this run. */
  error(
    type: ValidationError['error_type'],
    severity: ValidationError['severity'],
    message: string,
    details?: Record<string, unknown>,
  ): ValidationError;
}

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface Check {
  /** A short name for logs and for the error when the check itself is cut or throws. */
  readonly name: string;
  run(ctx: RunContext): Promise<CheckResult>;
}
