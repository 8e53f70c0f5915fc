/**
 * The runner: resolves every check's inputs (each once, all at once), judges each check whose inputs came back,
 * and skips the others; a failed input is reported once, as the step that failed, before the findings of the first
 * check that needed it. A check that throws while judging is a failure of the run naming the check, never an
 * exception: whatever broke, the run goes on to its report.
 */
import { judgeCriterion } from '../criteria/criteria.ts';
import type { CriterionResult, ValidationError } from '../report/findings.ts';
import { describeError } from '../shared/errors.ts';
import type { Check, JudgeContext, Verdict } from './check.ts';
import { type Input, outcome, type RunContext, type Settled } from './input.ts';
import { CutError, failureType, type RunContextHandle } from './run-context.ts';

/** What every check of the run concluded, in list order. */
export interface ChecksOutcome {
  /** Each check's verdict, or null when it was skipped (an input failed) or its judging threw. */
  verdicts: { check: Check; verdict: Verdict | null }[];
  /** Findings, in report order: each failed input's, then each verdict's. */
  errors: ValidationError[];
  /** Why part of the run could not be done ("sitemap: timed out"); any makes the run ERROR. */
  failures: string[];
  /** Every judged criterion, in the order of the suite's success_criteria. */
  criteria: CriterionResult[];
}

export async function runChecks(checks: readonly Check[], run: RunContextHandle): Promise<ChecksOutcome> {
  const { ctx } = run;
  const resolved = await Promise.all(
    checks.map(async (check) => {
      if (check.applies && !check.applies(ctx)) return { check, inputs: null, applies: false };
      const entries = Object.entries(check.needs);
      const values = await Promise.all(entries.map(([, input]) => outcome(ctx.input(input))));
      return {
        check,
        inputs: entries.map(([key, input], i) => ({ key, input, value: values[i] as Settled<unknown> })),
        applies: true,
      };
    }),
  );
  await run.settleAll();
  // A failed input stays silent when one of its `silentWhen` inputs failed too: ask those, to know.
  const silencers = run
    .inputs()
    .filter((i) => i.settled?.ok === false)
    .flatMap((i) => i.input.failure?.silentWhen ?? []);
  await Promise.all(silencers.map((other) => outcome(ctx.input(other))));
  await run.settleAll();
  const failed = inputFailures(run);
  const reported = new Set<string>();
  const errors: ValidationError[] = [];
  const failures: string[] = [];
  const criteria: CriterionResult[] = [];
  const verdicts: ChecksOutcome['verdicts'] = [];
  for (const { check, inputs, applies } of resolved) {
    for (const { input } of inputs ?? []) {
      for (const failure of failed.get(input.name) ?? []) {
        if (reported.has(failure.line)) continue;
        reported.add(failure.line);
        failures.push(failure.line);
        if (failure.finding) errors.push(failure.finding);
      }
    }
    if (!applies) {
      verdicts.push({ check, verdict: { status: 'not_applicable', sections: {}, errors: [], criteria: [] } });
      continue;
    }
    const missing = (inputs ?? []).filter((i) => !i.value.ok);
    if (missing.length > 0) {
      // Skipped: the failed input is reported above; the criteria every run is held to read "not computed".
      criteria.push(...skippedCriteria(check, ctx));
      verdicts.push({ check, verdict: null });
      continue;
    }
    const values = Object.fromEntries((inputs ?? []).map((i) => [i.key, (i.value as { value: unknown }).value]));
    try {
      const judged = check.judge(values, judgeContext(ctx));
      errors.push(...judged.errors);
      criteria.push(...judged.criteria);
      verdicts.push({ check, verdict: judged });
    } catch (error) {
      failures.push(`${check.name}: ${describeError(error)}`);
      verdicts.push({ check, verdict: null });
    }
  }
  // A failed input no check read directly (one read through another input) is still reported, last.
  for (const reports of failed.values())
    for (const failure of reports) {
      if (reported.has(failure.line)) continue;
      reported.add(failure.line);
      failures.push(failure.line);
      if (failure.finding) errors.push(failure.finding);
    }
  return { verdicts, errors, failures, criteria: inSuiteOrder(criteria, ctx) };
}

/** The judging context of a check: values of the run, never its ports. */
function judgeContext(ctx: RunContext): JudgeContext {
  return {
    runId: ctx.runId,
    startedAt: ctx.startedAt.toISOString(),
    now: ctx.deps.clock.now().toISOString(),
    queries: ctx.queries,
    criteria: ctx.criteria,
    options: ctx.options,
    embeddingModel: ctx.deps.embedder.model,
    sitemapUrl: ctx.deps.sitemap.location,
    error: ctx.error,
    newId: ctx.deps.newId,
    criterion: (declaration, value, description) => {
      const threshold = ctx.criteria[declaration.threshold];
      if (threshold === undefined) return null;
      return judgeCriterion({
        name: declaration.name,
        description: description ?? declaration.description,
        decimals: declaration.decimals,
        value,
        threshold,
        comparator: declaration.comparator,
        severity: (v) => declaration.severity(v, threshold),
      });
    },
  };
}

function skippedCriteria(check: Check, ctx: RunContext): CriterionResult[] {
  const judge = judgeContext(ctx);
  return check.criteria.flatMap((declaration) => {
    const held = declaration.judgedWhenSkipped;
    if (!(typeof held === 'function' ? held(ctx) : held === true)) return [];
    const result = judge.criterion(declaration, null);
    return result ? [result] : [];
  });
}

/** The criteria in the order the suite's success_criteria lists their thresholds (pass rate first). */
function inSuiteOrder(criteria: CriterionResult[], ctx: RunContext): CriterionResult[] {
  const order = Object.keys(ctx.criteria);
  const rank = (c: CriterionResult) => {
    const i = order.findIndex((key) => key.replace(/^(min|max)_/, '') === c.name);
    return i === -1 ? order.length : i;
  };
  return criteria
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i)
    .map(({ c }) => c);
}

interface InputFailureReport {
  line: string;
  finding?: ValidationError;
}

/**
 * The failure of each input that failed on its own account, by input name: an input that failed with the error of
 * an input that settled before it and reported it, or while one of its `silentWhen` inputs failed too, says nothing
 * (that outage is reported once, there).
 */
function inputFailures(run: RunContextHandle): Map<string, InputFailureReport[]> {
  const { ctx } = run;
  const all = run.inputs();
  const failedNames = new Set(all.filter((i) => i.settled?.ok === false).map((i) => i.input.name));
  const seenErrors = new Set<unknown>();
  const out = new Map<string, InputFailureReport[]>();
  for (const { input, settled } of all) {
    if (!settled) continue;
    const declared = input.failure;
    const reason = settled.ok ? (input.unusable?.(settled.value) ?? null) : describeError(settled.error);
    if (reason === null) continue;
    const error = settled.ok ? null : settled.error;
    // An input that declares no failure leaves its error to the first input that does and failed with it.
    if (!declared || (error !== null && seenErrors.has(error))) continue;
    if (error !== null) seenErrors.add(error);
    if (declared.silentWhen?.some((other) => failedNames.has(other.name))) continue;
    const report: InputFailureReport = { line: `${declared.label}: ${reason}` };
    if (!settled.ok) {
      const finding = declared.finding;
      if (finding)
        report.finding = ctx.error(
          failureType(error, finding.type),
          finding.severity,
          finding.message(reason, ctx),
          finding.details?.(ctx) ?? {},
        );
      else if (error instanceof CutError)
        report.finding = ctx.error('TIMEOUT', 'HIGH', reason, { step: declared.label });
    }
    out.set(input.name, [...(out.get(input.name) ?? []), report]);
  }
  return withReaders(
    all.map((i) => i.input),
    out,
  );
}

/** An input read through another (optional(), or an input resolving another) reports under its reader too. */
function withReaders(
  inputs: Input<unknown>[],
  reports: Map<string, InputFailureReport[]>,
): Map<string, InputFailureReport[]> {
  for (const input of inputs) {
    const base = input.name.endsWith('?') ? input.name.slice(0, -1) : null;
    if (base && reports.has(base)) reports.set(input.name, reports.get(base) ?? []);
  }
  return reports;
}
