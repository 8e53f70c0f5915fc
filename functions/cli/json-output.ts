/**
 * `--json` on the commands that report something other than a run (calibrate, index, suite generate, schema -o): a
 * small object on stdout instead of the lines a person reads, for a script. Its names follow the report's rules
 * (docs/DATA-MODEL.md, "Names and units"): snake_case, the unit in the name, the report's own names where one exists.
 */
import path from 'node:path';
import { notEvaluatedReason } from '../core/render/criterion-state.ts';
import type { ValidationReport } from '../core/report/report.ts';
import type { Calibration } from '../core/suite/calibrate.ts';
import type { RunPrediction } from '../core/suite/predict-run.ts';
import type { SetAsideProposal } from '../core/suite/set-aside.ts';
import type { IndexBookSummary } from '../indexer/index.ts';

/** Prints one JSON document on stdout: the command's whole output under --json. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** calibrate --json: the evidence, the thresholds proposed from it, the predicted run, and whether it was written. */
export function calibrationJson(options: {
  suite: string;
  collection: string;
  calibration: Calibration;
  /** Known items that miss their page whatever the threshold: marked set_aside in the suite, not run. */
  setAside: SetAsideProposal;
  /** Queries the file had set aside whose page is in their top k again: their mark removed. */
  back: readonly string[];
  prediction: RunPrediction;
  written: boolean;
}) {
  const { calibration: c, prediction: p } = options;
  return {
    suite: path.resolve(options.suite),
    collection: options.collection,
    written: options.written,
    categories: c.categories.map((cat) => ({
      category: cat.category,
      queries: cat.queries,
      best_similarity: cat.scores,
      proposed_min_similarity: cat.threshold,
      basis: cat.basis,
      would_fail: cat.below,
    })),
    probes: {
      queries: c.probes.queries,
      max_best_similarity: c.probes.maxScore,
      proposed_min_similarity: c.probes.threshold,
      would_fail: c.probes.above,
    },
    latency: {
      p50_ms: c.latency.p50,
      p95_ms: c.latency.p95,
      proposed_max_p95_latency_ms: c.latency.maxP95LatencyMs,
    },
    warnings: c.warnings,
    set_aside: options.setAside.queries,
    set_aside_refused: options.setAside.refused,
    set_aside_brought_back: [...options.back],
    prediction: {
      status: p.status,
      pass_rate: p.passRate,
      passed_queries: p.passed,
      total_queries: p.total,
      min_pass_rate: p.minPassRate,
      breached: p.breached,
      failures: p.failures,
      near_threshold: p.near.map((n) => ({
        id: n.id,
        best_similarity: n.best,
        min_similarity: n.threshold,
        side: n.side,
      })),
      warning: p.warning,
    },
  };
}

/** index --json: what was written, kept and deleted, and where. */
export function indexJson(s: IndexBookSummary) {
  return {
    collection: s.collection,
    embedding_model: s.model,
    vector_size: s.vectorSize === 0 ? null : s.vectorSize,
    documents: s.documents,
    chunks: s.chunks,
    written: s.written,
    reused: s.reused,
    unchanged: s.unchanged,
    deleted: s.deleted,
    kept_gone_pages: s.keptGonePages,
    billed_input_tokens: s.billedInputTokens ?? null,
    docs_path_prefix: s.docsPathPrefix,
    indexed_at: s.indexedAt,
    duration_ms: Math.round(s.durationMs),
  };
}

/** suite generate --json: the file written and what it holds. */
export function generatedSuiteJson(options: { out: string; pages: number; knownItems: number; probes: number }) {
  return {
    out: path.resolve(options.out),
    pages: options.pages,
    known_item_queries: options.knownItems,
    probe_queries: options.probes,
    next: `ragwatch calibrate --suite ${options.out} --write`,
  };
}

/**
 * run --json summary: the verdict and its reasons in a few lines of JSON, for a nightly wrapper that needs the status,
 * the exit code and where the report is, not the whole report (which `--json` alone prints). The report's own names.
 */
export function runSummaryJson(
  report: ValidationReport,
  outcome: { exitCode: number; files: { json: string; html: string | null; csv: string | null } | null },
) {
  const judged = report.success_criteria.map((c) => ({ c, unjudged: notEvaluatedReason(report, c) }));
  const findings = report.errors.filter((e) => e.error_type !== 'CRITERION_BREACHED');
  return {
    schema_version: report.schema_version,
    run_id: report.run_id,
    status: report.status,
    exit_code: outcome.exitCode,
    status_reason: report.status_reason,
    collection: report.collection,
    environment: report.environment,
    timestamp: report.timestamp,
    duration_seconds: report.duration_seconds,
    total_queries: report.total_queries,
    passed_queries: report.passed_queries,
    failed_queries: report.failed_queries,
    error_queries: report.error_queries,
    pass_rate: report.pass_rate,
    criteria_breached: judged
      .filter((j) => j.unjudged === null && !j.c.passed)
      .map(({ c }) => ({
        name: c.name,
        value: c.value,
        comparator: c.comparator,
        threshold: c.threshold,
        severity: c.severity,
      })),
    criteria_not_evaluated: judged.flatMap((j) =>
      j.unjudged === null ? [] : [{ name: j.c.name, reason: j.unjudged }],
    ),
    findings_by_severity: Object.fromEntries(
      (['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const).map((sev) => [
        sev,
        findings.filter((f) => f.severity === sev).length,
      ]),
    ),
    report_files: outcome.files,
  };
}
