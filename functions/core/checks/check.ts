/**
 * One interface for every check the run performs (cdk-nag's rules, promptfoo's assertions): a check declares what
 * it is (its inputs, error types, criteria, metrics and report section) and judges its resolved inputs into a
 * verdict, with no I/O of its own. Adding a check is one file and one line in ../run/checks.ts; the guard test
 * (test/core/run/checks.test.ts) holds each declaration against the schema, the metrics, the dashboard and the docs.
 */
import type { CriterionResult, ErrorType, Severity, ValidationError } from '../report/findings.ts';
import type { IndexHealth } from '../report/index-health-report.ts';
import type { ValidationReport } from '../report/report.ts';
import type { ResolvedQuery, SuccessCriteria } from '../suite/suite.ts';
import type { Input, RunContext } from './input.ts';
import type { RunOptions } from './run-options.ts';

/** The report sections a check may fill; a section a check could not compute is null. */
export type ReportSections = Partial<
  Pick<
    ValidationReport,
    'query_results' | 'validation_metrics' | 'coverage_report' | 'quality_metrics' | 'grounding_report' | 'regression'
  >
> & {
  /** Index-health blocks; several checks each fill their own. */
  index_health?: Partial<IndexHealth>;
};

/** A success criterion a check judges: its figure against a threshold of the suite's success_criteria. */
export interface CriterionDeclaration {
  name: string;
  description: string;
  /** The suite's success_criteria field holding the threshold; a criterion without a threshold is not judged. */
  threshold: {
    [K in keyof SuccessCriteria]-?: NonNullable<SuccessCriteria[K]> extends number ? K : never;
  }[keyof SuccessCriteria];
  comparator: CriterionResult['comparator'];
  /** The precision the report shows the value with; the value is rounded to it, then compared exactly. */
  decimals: number;
  /** How the figures are written in a message: '%', ' ms' or ''. */
  unit: string;
  /** The severity of a breach of this value (null = not computed). */
  severity: (value: number | null, threshold: number) => Severity;
  /**
   * When the check could not run (an input failed), the criterion is judged as "could not be computed" (a breach)
   * if this says so: a criterion every such run is held to. Otherwise it is left out.
   */
  judgedWhenSkipped?: boolean | ((ctx: RunContext) => boolean);
}

export type VerdictStatus = 'pass' | 'fail' | 'not_applicable';

/** What a check concludes: its status, its report sections, its findings and its judged criteria. */
export interface Verdict {
  status: VerdictStatus;
  sections: ReportSections;
  /** Findings, in the order they appear in the report. */
  errors: ValidationError[];
  criteria: CriterionResult[];
  /** Request counts for `execution` (summed over checks). */
  execution?: { embed_calls: number; search_calls: number };
}

/** What a check may know while judging: values, never ports. */
export interface JudgeContext {
  readonly runId: string;
  /** When the run started (ISO 8601: the report's timestamp). */
  readonly startedAt: string;
  /** When the verdict is made (ISO 8601), for the sections' timestamps. */
  readonly now: string;
  readonly queries: ResolvedQuery[];
  readonly criteria: SuccessCriteria;
  readonly options: RunOptions;
  /** The configured embedding model, for messages. */
  readonly embeddingModel: string;
  /** The sitemap's location, for messages. */
  readonly sitemapUrl: string;
  error(type: ErrorType, severity: Severity, message: string, details?: Record<string, unknown>): ValidationError;
  /** The declared criterion judged on this value; null when the suite sets no threshold for it. */
  criterion(declaration: CriterionDeclaration, value: number | null, description?: string): CriterionResult | null;
  newId(): string;
}

export type Needs = Record<string, Input<unknown>>;
type Resolved<N extends Needs> = { [K in keyof N]: N[K] extends Input<infer T> ? T : never };

export interface Check<N extends Needs = Needs> {
  /** A short name for logs, and for the failure when judging throws. */
  readonly name: string;
  /** The requirement, in one line. */
  readonly description: string;
  /** The inputs it judges, by name; when one fails the check is skipped (its failure is reported once, there). */
  readonly needs: N;
  /** The error types of its findings. */
  readonly errorTypes: readonly ErrorType[];
  readonly criteria: readonly CriterionDeclaration[];
  /** The CloudWatch metrics its figures feed (functions/core/delivery/metric-data.ts). */
  readonly metrics: readonly string[];
  /** Where its figures are in the report, as a path ("coverage_report", "index_health.ann"). */
  readonly section: string;
  /** Whether this run asks the check anything; when not, its inputs are never read and its verdict is not_applicable. */
  applies?(ctx: RunContext): boolean;
  judge(inputs: Resolved<N>, ctx: JudgeContext): Verdict;
}

/** Declares a check, keeping its inputs' types for its judge. */
export function defineCheck<N extends Needs>(check: Check<N>): Check<N> {
  return check;
}

/** A verdict from its parts: not_applicable when said so, fail on a finding or a breached criterion, else pass. */
export function verdict(
  parts: Omit<Verdict, 'status' | 'criteria'> & { criteria?: (CriterionResult | null)[]; applicable?: boolean },
): Verdict {
  const criteria = (parts.criteria ?? []).filter((c): c is CriterionResult => c !== null);
  const failed = parts.errors.length > 0 || criteria.some((c) => !c.passed);
  return {
    status: parts.applicable === false ? 'not_applicable' : failed ? 'fail' : 'pass',
    sections: parts.sections,
    errors: parts.errors,
    criteria,
    ...(parts.execution ? { execution: parts.execution } : {}),
  };
}
