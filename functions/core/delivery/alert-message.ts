/**
 * Report -> the alert ops read in a mail client: a subject that says how bad and what broke, and a plain-text body,
 * most important first. Pure: no SDK, no clock. SNS limits honoured: subject ASCII, no control characters, under
 * 100 characters; the whole message under 256 KB (the body is cut at a line with a note when it would not fit).
 */

import {
  type CriterionResult,
  failsTheRun,
  findingKinds,
  SEVERITIES,
  type Severity,
  type ValidationError,
  worstFirst,
} from '../report/findings.ts';
import type { ValidationReport } from '../report/report.ts';
import { truncate } from '../shared/errors.ts';
import { roundTo } from '../shared/statistics.ts';
import { linkLines, type RunLinks } from './links.ts';
import { type CauseContext, causeLine, failingQueryLines, groupByReason, noQueryCompleted } from './run-causes.ts';

export interface AlertMessage {
  subject: string;
  body: string;
  severity: Severity;
}

/** Where the report went: its S3 object, or why it could not be stored (and where the copy is instead). */
export type ReportPlacement =
  | { stored: true; bucket: string; key: string; region: string }
  | { stored: false; reason: string; fallback: string };

export interface AlertContext {
  placement: ReportPlacement;
  /** Other sinks that failed this run (e.g. metrics), each with a one-line reason. */
  failedSinks?: { sink: string; reason: string }[];
  /** The run before this one (from latest.json), null when there was none, undefined when it could not be read. */
  previous?: { runId: string; status: string; startedAt: string } | null;
  /** Body budget in UTF-8 bytes; SNS allows 262,144 for the whole message, subject and attributes included. */
  maxBodyBytes?: number;
  /** The HTML report, the dashboard and the run's logs (core/delivery/links.ts), listed right after the headline. */
  links?: RunLinks;
}

const ALERT_LIMITS = { subjectMaxChars: 99, bodyMaxBytes: 240_000, failingQueries: 10, urls: 20 } as const;

/**
 * Builds the alert for a run, or null when nobody needs to hear about it. An alert goes out when the run failed
 * (CRITICAL), a criterion is breached (the worst breached criterion's severity), the report could not be stored
 * (HIGH at least: its only copy is then the log), or another sink failed (HIGH at least: metrics refused on a passing
 * night leave the dashboard and the alarms blind, and nobody would hear of it otherwise).
 */
export function buildAlertMessage(report: ValidationReport, context: AlertContext): AlertMessage | null {
  const breached = report.success_criteria.filter((c) => !c.passed);
  const failedSinks = context.failedSinks ?? [];
  const severity = alertSeverity(report, breached, context.placement.stored, failedSinks.length > 0);
  if (severity === null) return null;
  const subject = buildSubject(report, breached, severity, context.placement.stored, failedSinks);
  const body = fitBody(buildBody(report, breached, severity, context), context, context.maxBodyBytes);
  return { subject, body, severity };
}

export { buildS3ConsoleUrl } from './links.ts';

function alertSeverity(
  report: ValidationReport,
  breached: CriterionResult[],
  stored: boolean,
  sinkFailed: boolean,
): Severity | null {
  if (report.status === 'ERROR') return 'CRITICAL';
  const candidates: Severity[] = [
    ...breached.map((c) => c.severity),
    ...failingFindings(report).map((f) => f.severity),
  ];
  if (report.status === 'FAILED' && candidates.length === 0) candidates.push('HIGH');
  if (!stored || sinkFailed) candidates.push('HIGH');
  if (candidates.length === 0) return null;
  return SEVERITIES.find((s) => candidates.includes(s)) ?? 'HIGH';
}

function buildSubject(
  report: ValidationReport,
  breached: CriterionResult[],
  severity: Severity,
  stored: boolean,
  failedSinks: { sink: string }[],
): string {
  // A report only the log holds comes first: it is the one thing ops must act on before the next run.
  const what: string[] = stored ? [] : ['report NOT stored'];
  what.push(...failedSinks.map((f) => `${f.sink} NOT delivered`));
  if (report.status === 'ERROR')
    what.push(`run ERROR: ${report.status_reason.replace(/^the run could not complete:\s*/i, '')}`);
  else if (breached.length > 0) what.push(...breached.map((c) => shortBreach(report, c)));
  else what.push(...findingKinds(failingFindings(report)));
  const text = `[${severity}] RagWatch ${report.environment}/${report.collection}: ${what.join(', ') || report.status}`;
  return toSubject(text);
}

/** SNS subjects: ASCII, no line breaks or control characters, under 100 characters. */
export function toSubject(text: string): string {
  const ascii = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return ascii.length <= ALERT_LIMITS.subjectMaxChars
    ? ascii
    : `${ascii.slice(0, ALERT_LIMITS.subjectMaxChars - 3)}...`;
}

function buildBody(
  report: ValidationReport,
  breached: CriterionResult[],
  severity: Severity,
  context: AlertContext,
): string[] {
  // The first five lines: what broke, its likeliest cause, how badly and when, since when, what changed. Then the
  // one links block, then the details.
  const lines = [
    headlineOf(report, breached, context),
    causeLine(report, causeContext(context)),
    `${howBadly(report, severity)}; run ${report.timestamp} (run id ${report.run_id})`,
    sinceLine(context.previous),
    changedLine(report),
    '',
    ...linkLines(context.links, reportLinkLines(context.placement)),
  ];
  if (breached.length > 0) {
    lines.push('WHAT BROKE (value vs threshold)');
    for (const c of breached)
      lines.push(
        `- ${label(c.name)}: ${formatCriterion(report, c)} (must be ${c.comparator} ${formatValue(c, c.threshold)}) [${c.severity}]`,
      );
    lines.push('');
  }
  const failing = failingFindings(report);
  if (failing.length > 0) {
    lines.push('WHAT BROKE (findings that fail the run)');
    for (const f of failing) lines.push(`- ${f.error_type} [${f.severity}]: ${truncate(f.message, 300)}`);
    lines.push('');
  }
  return [...lines, ...runDetailLines(report, context)];
}

/** Line 1 of a run alert: what happened, in words. */
function headlineOf(report: ValidationReport, breached: CriterionResult[], context: AlertContext): string {
  const name = `The nightly validation of "${report.collection}" (${report.environment})`;
  if (report.status === 'ERROR') return `${name} could not complete: nothing was validated.`;
  const failing = failingFindings(report);
  if (report.status === 'FAILED' && breached.length === 0 && failing.length > 0)
    return `${name} failed on ${failing.length === 1 ? 'a finding' : `${failing.length} findings`}, every success criterion holding: ${findingKinds(failing).join(', ')}.`;
  if (report.status === 'FAILED')
    return `${name} breached ${breached.length} success criteria${breached.length > 0 ? `: ${breached.map((c) => shortBreach(report, c)).join(', ')}` : ''}.`;
  return context.placement.stored
    ? `${name} passed, but ${(context.failedSinks ?? []).map((f) => f.sink).join(' and ') || 'a sink'} could not be delivered.`
    : `${name} passed, but its report could not be stored.`;
}

/**
 * The findings that failed the run by themselves (docs/DATA-MODEL.md, "The run's status": a CRITICAL finding, or a HIGH
 * one no criterion judges), worst first: a run can fail with every criterion holding, and its alert must say why.
 */
function failingFindings(report: ValidationReport): ValidationError[] {
  if (report.status !== 'FAILED') return [];
  return report.errors.filter(failsTheRun).sort(worstFirst);
}

function causeContext(context: AlertContext): CauseContext {
  const p = context.placement;
  return {
    stored: p.stored,
    ...(p.stored ? {} : { notStored: { reason: p.reason, fallback: p.fallback } }),
    ...(context.failedSinks ? { failedSinks: context.failedSinks } : {}),
  };
}

/**
 * The details every email about a run carries below its top: the run's own errors (the same one on many queries
 * once, with a count), the sinks that failed, the failing queries grouped by reason, the sitemap's missing and
 * orphan pages, and the figures.
 */
export function runDetailLines(report: ValidationReport, context: Pick<AlertContext, 'failedSinks'>): string[] {
  const lines: string[] = [];
  if (report.status === 'ERROR') {
    // The cause is line 2 already; list only what adds to it.
    const reason = report.status_reason.replace(/^the run could not complete:\s*/i, '');
    const more = groupByReason(
      report.errors
        .filter((e) => e.severity === 'CRITICAL' || e.severity === 'HIGH')
        .filter((e) => !reason.includes(e.message) && !e.message.includes(reason))
        .map((e) => ({ id: e.id, reason: `${e.error_type} [${e.severity}]: ${truncate(e.message, 300)}` })),
    ).slice(0, 5);
    if (more.length > 0)
      lines.push(
        'WHAT FAILED',
        ...more.map((g) => `- ${g.ids.length > 1 ? `${g.ids.length} times: ` : ''}${g.reason}`),
        '',
      );
  }
  for (const failure of context.failedSinks ?? [])
    lines.push(`Also failed: ${failure.sink}: ${truncate(failure.reason)}`);
  if ((context.failedSinks ?? []).length > 0) lines.push('');
  lines.push(...failingQueryLines(report, ALERT_LIMITS.failingQueries));
  const coverage = report.coverage_report;
  if (coverage !== null) {
    lines.push(
      ...urlSection('MISSING URLS (in the sitemap, not indexed)', coverage.missing_urls, coverage.missing_count),
    );
    lines.push(...urlSection('ORPHAN URLS (indexed, not in the sitemap)', coverage.extra_urls, coverage.extra_count));
  }
  lines.push('SUMMARY', ...summaryLines(report));
  return lines;
}

/** The report's own lines in the links block: its JSON in S3, or where its only copy is when S3 refused it. */
export function reportLinkLines(placement: ReportPlacement): string[] {
  if (placement.stored) return [`- Report JSON: s3://${placement.bucket}/${placement.key}`];
  return [`- Report NOT STORED in S3 (${truncate(placement.reason)}); the full report is in ${placement.fallback}`];
}

/** How badly: the severity, and how many queries it touches (none ran: said so, never "0%"). */
function howBadly(report: ValidationReport, severity: Severity): string {
  const failing = report.failed_queries + report.error_queries;
  const queries =
    report.total_queries === 0
      ? 'no query ran'
      : `${failing} of ${report.total_queries} queries failing${report.error_queries > 0 ? ` (${report.error_queries} errored)` : ''}`;
  return `Severity: ${severity}; ${queries}`;
}

/** What changed since the baseline (core/regression), in one line. */
function changedLine(report: ValidationReport): string {
  const regression = report.regression;
  if (regression === undefined) return 'What changed: not compared with a baseline';
  if (!regression.compared) return `What changed: not compared (${truncate(regression.note, 200)})`;
  const findings = regression.findings;
  if (findings.length === 0) return 'What changed: nothing moved beyond its usual band since the baseline';
  const shown = findings.slice(0, 3).map((f) => truncate(f.message, 120));
  const more = findings.length > shown.length ? `; ${findings.length - shown.length} more below` : '';
  return `What changed: ${findings.length} regression(s) since the baseline: ${shown.join('; ')}${more}`;
}

function shortBreach(report: ValidationReport, c: CriterionResult): string {
  if (c.name === 'pass_rate' && noQueryCompleted(report))
    return `${label(c.name)} n/a ${breachSign(c)} ${formatValue(c, c.threshold)} (no query completed)`;
  return `${label(c.name)} ${formatValue(c, c.value)} ${breachSign(c)} ${formatValue(c, c.threshold)}`;
}

/** "Since when": whether the night before was fine, so ops know a fresh break from an ongoing one. */
function sinceLine(previous: AlertContext['previous']): string {
  if (previous === undefined) return 'Previous run: unknown (its report could not be read)';
  if (previous === null) return 'Previous run: none on record (this is the first stored report)';
  const verdict = previous.status === 'PASSED' ? 'PASSED, so this broke since then' : `${previous.status} too`;
  return `Previous run: ${previous.startedAt} (run id ${previous.runId}) ${verdict}`;
}

/** `count` is the whole list's (the stored report keeps its first URLs only). */
function urlSection(title: string, urls: string[], count: number): string[] {
  if (count === 0) return [];
  const shown = urls.slice(0, ALERT_LIMITS.urls);
  const more = count > shown.length ? `, first ${shown.length}` : '';
  return [`${title}: ${count}${more}`, ...shown.map((u) => `- ${truncate(u, 300)}`), ''];
}

function summaryLines(report: ValidationReport): string[] {
  const vm = report.validation_metrics;
  const pct = (v: number | null | undefined) => (v === null || v === undefined ? 'n/a' : `${roundTo(v, 2)}%`);
  const num = (v: number | null | undefined, unit = '') =>
    v === null || v === undefined ? 'n/a' : `${roundTo(v, 2)}${unit}`;
  return [
    // An ERROR run's reason opens the email, a FAILED run's breaches are listed above: not again here.
    report.status === 'PASSED' || (report.status === 'FAILED' && !report.success_criteria.some((c) => !c.passed))
      ? `- Status: ${report.status} (${truncate(report.status_reason, 300)})`
      : `- Status: ${report.status}`,
    report.total_queries === 0
      ? '- Queries: none ran'
      : `- Queries: ${report.total_queries} run, ${report.passed_queries} passed, ${report.failed_queries} failed, ${report.error_queries} errors; pass rate ${passRateText(report, pct)}`,
    `- Coverage: ${pct(report.coverage_report?.coverage_percentage)}; metadata completeness: ${pct(report.quality_metrics?.metadata_completeness_rate)}`,
    `- MRR ${num(vm.mrr)}, recall@k ${num(vm.overall_recall)}, nDCG@k ${num(vm.ndcg_at_k)}, avg similarity ${num(vm.avg_similarity)}`,
    `- Latency p50 ${num(vm.p50_latency_ms, ' ms')}, p95 ${num(vm.p95_latency_ms, ' ms')}; run took ${num(report.duration_seconds, ' s')}`,
    `- Suite: ${report.suite.name} (${report.suite.source}); finished ${report.finished_at}`,
  ];
}

/** Cuts the body at a line boundary so it fits, and says so (and where the rest is). */
function fitBody(lines: string[], context: AlertContext, maxBytes: number = ALERT_LIMITS.bodyMaxBytes): string {
  const encoder = new TextEncoder();
  const full = lines.join('\n');
  if (encoder.encode(full).length <= maxBytes) return full;
  const where = context.placement.stored
    ? `s3://${context.placement.bucket}/${context.placement.key}`
    : context.placement.fallback;
  const note = `\n[truncated to fit the 256 KB SNS limit; the full report is at ${where}]`;
  const budget = maxBytes - encoder.encode(note).length;
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    const size = encoder.encode(line).length + 1;
    if (used + size > budget) break;
    kept.push(line);
    used += size;
  }
  return `${kept.join('\n')}${note}`;
}

function label(name: string): string {
  return name.replace(/_/g, ' ');
}

function breachSign(c: CriterionResult): string {
  return c.comparator === '>=' ? '<' : '>';
}

/** The pass rate, or why there is none: a run where no query completed has no rate, and 0% would read as "all failed". */
function passRateText(report: ValidationReport, pct: (v: number | null | undefined) => string): string {
  if (noQueryCompleted(report)) return 'n/a (no query completed)';
  return report.status === 'ERROR' ? 'n/a (the run did not complete)' : pct(report.pass_rate);
}

/**
 * A criterion's figure as the email shows it: the pass rate of a run where no query completed is no figure ("n/a
 * (no query completed)"), whatever the engine put in the criterion, so "0%" never sits beside "n/a".
 */
function formatCriterion(report: ValidationReport, c: CriterionResult): string {
  if (c.name === 'pass_rate' && noQueryCompleted(report)) return 'n/a (no query completed)';
  return formatValue(c, c.value);
}

/** Percent-like criteria get a %, latency ones ms; a figure that could not be computed reads n/a. */
function formatValue(c: CriterionResult, value: number | null): string {
  if (value === null) return 'n/a';
  const unit = /latency|_ms$/i.test(c.name) ? ' ms' : /rate|coverage|completeness|percent/i.test(c.name) ? '%' : '';
  return `${roundTo(value, 2)}${unit}`;
}
