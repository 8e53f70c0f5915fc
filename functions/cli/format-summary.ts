/**
 * The terminal summary of a report: what a developer reads after `ragwatch run`, scannable in ten seconds, the way
 * vitest's is. Only what went wrong is listed (breached criteria by severity, failing and erroring queries, missing
 * pages, incomplete fields, ungrounded answers, the run's findings); the same reason on many lines is said once with
 * its count ("21 queries: Cohere unreachable"); `--all` lists what passed too. The verdict is on the first line and
 * again in a three-line footer (verdict, counts, the link to the HTML report), so it has not scrolled away at the end.
 */
import { pathToFileURL } from 'node:url';
import { notEvaluatedReason } from '../core/render/criterion-state.ts';
import type { CriterionResult, ValidationError } from '../core/report/findings.ts';
import type { Distribution } from '../core/report/quality-metrics.ts';
import type { QueryValidationResult } from '../core/report/query-validation.ts';
import type { ValidationReport } from '../core/report/report.ts';

export interface Style {
  ok(text: string): string;
  bad(text: string): string;
  warn(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

/** No colours: for pipes, files and CI logs. */
export const plainStyle: Style = { ok: (t) => t, bad: (t) => t, warn: (t) => t, dim: (t) => t, bold: (t) => t };

/** ANSI colours for a terminal. */
export const ansiStyle: Style = {
  ok: (t) => `\x1b[32m${t}\x1b[39m`,
  bad: (t) => `\x1b[31m${t}\x1b[39m`,
  warn: (t) => `\x1b[33m${t}\x1b[39m`,
  dim: (t) => `\x1b[2m${t}\x1b[22m`,
  bold: (t) => `\x1b[1m${t}\x1b[22m`,
};

/** The files the run wrote, as absolute paths (the HTML and CSV are null when not written). */
export interface SummaryFiles {
  json: string;
  html: string | null;
  csv: string | null;
}

export interface SummaryOptions {
  style?: Style;
  /** List what passed too: every criterion, query, grounded answer, the distributions. */
  all?: boolean;
  /** Where the report was written; absent when it could not be (exit 3). */
  files?: SummaryFiles;
  /**
   * quiet (-q): the three-line footer alone, for a script or a wrapper that wants the verdict and the link;
   * verbose (-v): the summary and each stage's status and time, for the one chasing a slow or failing stage.
   */
  detail?: SummaryDetail;
}

export type SummaryDetail = 'quiet' | 'normal' | 'verbose';

/** The detail the program-wide -q / -v asked for (commander refuses both at once). */
export function summaryDetail(globals: { quiet?: boolean; verbose?: boolean }): SummaryDetail {
  return globals.quiet ? 'quiet' : globals.verbose ? 'verbose' : 'normal';
}

const MAX_URLS = 10;
/** Ids listed under a collapsed reason before "and N more". */
const MAX_IDS = 8;
const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;

/** Renders the report as the lines of a readable summary. */
export function formatSummary(report: ValidationReport, options: SummaryOptions = {}): string {
  const s = options.style ?? plainStyle;
  const all = options.all ?? false;
  const detail = options.detail ?? 'normal';
  if (detail === 'quiet') return footer(report, s, options.files).join('\n');
  const lines: string[] = [
    `${s.bold('ragwatch')} ${verdictOf(report, s)}  ${s.dim(`collection ${report.collection} · run ${report.run_id} · ${report.timestamp} · ${report.duration_seconds}s`)}`,
    `  ${report.status_reason}`,
    ...section(formatCriteria(report, s, all)),
    ...section(formatQueries(report, s, all)),
    ...section(formatCoverage(report, s, all)),
    ...section(formatFreshnessNote(report, s)),
    ...section(formatQuality(report, s, all)),
    ...section(formatGrounding(report, s, all)),
    ...section(formatFindings(report, s)),
    ...section(detail === 'verbose' ? formatStages(report, s) : []),
  ];
  if (options.files) {
    const written = [options.files.json, ...(options.files.csv === null ? [] : [options.files.csv])];
    lines.push('', `${s.dim('Files')}    ${written.join(' · ')}`);
  }
  lines.push('', s.dim('─'.repeat(60)), ...footer(report, s, options.files));
  return lines.join('\n');
}

/** -v: each stage the run went through, in the order it started, with its status and how long it took. */
function formatStages(report: ValidationReport, s: Style): string[] {
  const stages = Object.entries(report.execution.stages);
  if (stages.length === 0) return [s.dim('Stages   none ran')];
  const width = Math.max(...stages.map(([name]) => name.length));
  const total = `${report.execution.embed_calls} embed call${report.execution.embed_calls === 1 ? '' : 's'}, ${report.execution.search_calls} search call${report.execution.search_calls === 1 ? '' : 's'}`;
  return [
    `Stages   ${s.dim(`${stages.length} · ${total} · ${report.duration_seconds}s in all`)}`,
    ...stages.map(([name, stage]) => {
      const status =
        stage.status === 'ok'
          ? s.ok(stage.status)
          : stage.status === 'skipped'
            ? s.dim(stage.status)
            : s.bad(stage.status);
      return `  ${name.padEnd(width)}  ${status}${' '.repeat(8 - stage.status.length)}${String(Math.round(stage.duration_ms)).padStart(7)} ms`;
    }),
  ];
}

/** A block after a blank line, or nothing when it has no line. */
function section(lines: string[]): string[] {
  return lines.length === 0 ? [] : ['', ...lines];
}

function verdictOf(report: ValidationReport, s: Style): string {
  return report.status === 'PASSED' ? s.ok('PASSED') : s.bad(report.status);
}

/** The three last lines: the verdict and its criteria, the counts, the link to the report a person opens. */
function footer(report: ValidationReport, s: Style, files: SummaryFiles | undefined): string[] {
  const judged = report.success_criteria.map((c) => ({ c, unjudged: notEvaluatedReason(report, c) !== null }));
  const breached = judged.filter((j) => !j.unjudged && !j.c.passed).map((j) => j.c);
  const unjudged = judged.filter((j) => j.unjudged).length;
  const held = judged.filter((j) => !j.unjudged && j.c.passed).length;
  const criteria = [
    breached.length > 0
      ? `${breached.length} criteri${breached.length === 1 ? 'on' : 'a'} breached (${countBySeverity(breached)})`
      : null,
    unjudged > 0 ? `${unjudged} not evaluated` : null,
    `${held} hold`,
  ].filter((part) => part !== null);
  const queries =
    report.total_queries === 0
      ? 'no query'
      : `${report.total_queries} queries: ${report.passed_queries} passed, ${report.failed_queries} failed, ${report.error_queries} errored`;
  const findings = report.errors.filter((e) => e.error_type !== 'CRITERION_BREACHED');
  const link = files === undefined ? null : pathToFileURL(files.html ?? files.json).href;
  return [
    `${s.bold(padLabel(report.status === 'PASSED' ? s.ok('PASSED') : s.bad(report.status), report.status))} ${criteria.join(', ')}`,
    `${padLabel('Counts', 'Counts')} ${queries} · ${findings.length === 0 ? 'no finding' : `${findings.length} finding${findings.length === 1 ? '' : 's'} (${countBySeverity(findings)})`}`,
    `${padLabel('Report', 'Report')} ${link ?? s.bad('not written (the whole report is on stderr)')}`,
  ];
}

/** A footer label padded to a column, measured on its plain text (the styled text holds escape codes). */
function padLabel(styled: string, plain: string): string {
  return `${styled}${' '.repeat(Math.max(1, 8 - plain.length))}`;
}

function countBySeverity(items: { severity: string }[]): string {
  return SEVERITIES.map((sev) => [sev, items.filter((i) => i.severity === sev).length] as const)
    .filter(([, n]) => n > 0)
    .map(([sev, n]) => `${n} ${sev}`)
    .join(', ');
}

/** Breached criteria, most severe first, then those not evaluated; with --all, those that hold. */
function formatCriteria(report: ValidationReport, s: Style, all: boolean): string[] {
  const rows = report.success_criteria.map((c) => ({ c, why: notEvaluatedReason(report, c) }));
  const breached = rows
    .filter((r) => r.why === null && !r.c.passed)
    .sort((a, b) => SEVERITIES.indexOf(a.c.severity) - SEVERITIES.indexOf(b.c.severity));
  const unjudged = rows.filter((r) => r.why !== null);
  const held = rows.filter((r) => r.why === null && r.c.passed);
  const shown = [...breached, ...unjudged, ...(all ? held : [])];
  if (shown.length === 0) return [];
  return [
    s.bold(all ? 'Success criteria' : 'Success criteria not met'),
    ...shown.map((r) => `  ${formatCriterion(r.c, r.why, s)}`),
  ];
}

function formatCriterion(c: CriterionResult, notEvaluated: string | null, s: Style): string {
  // Not evaluated is neither a pass nor a measured breach: no figure and no severity (the findings say what failed).
  if (notEvaluated !== null)
    return `${s.warn('–')} ${''.padEnd(8)} ${c.name.padEnd(24)} ${s.warn('not evaluated')} (${notEvaluated}; ${c.comparator} ${c.threshold} wanted)`;
  if (c.passed)
    return `${s.ok('✔')} ${''.padEnd(8)} ${c.name.padEnd(24)} ${String(c.value).padStart(8)} ${c.comparator} ${c.threshold}`;
  const severity = c.severity === 'CRITICAL' || c.severity === 'HIGH' ? s.bad : s.warn;
  return `${s.bad('✘')} ${severity(c.severity.padEnd(8))} ${c.name.padEnd(24)} ${String(c.value).padStart(8)} ${c.comparator} ${c.threshold}`;
}

/** The queries' count, the failing and erroring ones (those sharing a reason said once), the IR and latency line. */
function formatQueries(report: ValidationReport, s: Style, all: boolean): string[] {
  if (report.total_queries === 0) return [];
  const noneCompleted = report.passed_queries + report.failed_queries === 0 && report.error_queries > 0;
  const lines = [
    s.bold(
      // No query completed: there is no pass rate, and "0/21 passed (0%)" would read as every query failing.
      noneCompleted
        ? `Queries  none completed, ${report.error_queries} errored`
        : `Queries  ${report.passed_queries}/${report.total_queries} passed (${report.pass_rate}%)${report.failed_queries ? `, ${report.failed_queries} failed` : ''}${report.error_queries ? `, ${report.error_queries} errored` : ''}`,
    ),
  ];
  // The criterion judges its own figure (stale queries set aside): say why it differs from the pass rate above
  // (issue 23: the summary printed 84.06 % while the criterion judged 85.29 %, the reason only in the JSON).
  const criterion = report.success_criteria.find((c) => c.name === 'pass_rate');
  if (criterion?.value != null && criterion.value !== report.pass_rate)
    lines.push(
      `  ${s.dim(`the pass_rate criterion judged ${criterion.value}%, not ${report.pass_rate}%: ${criterion.description.split('; ').slice(1).join('; ') || criterion.description}`)}`,
    );
  // Queries the suite keeps but sets aside (calibrate --write): not run, not in the counts above; said each night
  // so a question set aside is not forgotten.
  const aside = report.suite.set_aside ?? [];
  if (aside.length > 0)
    lines.push(
      `  ${s.dim(`${aside.length} set aside in the suite (set_aside: not run, not counted): ${listIds(aside.map((q) => q.id))}`)}`,
    );
  const shown = all ? report.query_results : report.query_results.filter((q) => q.status !== 'PASS');
  for (const group of groupByReason(shown, (q) => (q.status === 'PASS' ? null : `${q.status} ${q.fail_reason ?? ''}`)))
    lines.push(
      ...(group.length === 1 || group[0] === undefined
        ? group.map((q) => `  ${formatQuery(q, s)}`)
        : formatQueryGroup(group[0], group, s)),
    );
  const m = report.validation_metrics;
  if (m.judged_queries > 0) {
    lines.push(
      `  ${s.dim(`IR @k over ${m.judged_queries} judged: precision ${m.overall_precision} · recall ${m.overall_recall} · MRR ${m.mrr} · nDCG ${m.ndcg_at_k} · hit rate ${m.hit_rate}`)}`,
    );
  }
  if (all && m.benchmark) {
    const figures = Object.entries(m.benchmark).map(([name, value]) => `${name} ${value}`);
    lines.push(`  ${s.dim(`benchmark: ${figures.join(' · ')}`)}`);
  }
  // No figures for a stage in which no query ran: zeros and a rate would read as measurements.
  lines.push(
    m.throughput_qps === null
      ? `  ${s.dim('no query ran: no IR, latency or throughput figures')}`
      : `  ${s.dim(`latency per query (share of its batched calls) p50 ${m.p50_latency_ms ?? '-'} ms · p95 ${m.p95_latency_ms ?? '-'} ms · p99 ${m.p99_latency_ms ?? '-'} ms · ${m.throughput_qps} queries/s`)}`,
  );
  return lines;
}

/**
 * Items in their order, those with the same key gathered at the first one's place; a null key (a pass) is never
 * gathered. Twenty-one queries refused by the same Cohere are one reason, not twenty-one lines.
 */
export function groupByReason<T>(items: T[], key: (item: T) => string | null): T[][] {
  const groups: T[][] = [];
  const byKey = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const existing = k === null ? undefined : byKey.get(k);
    if (existing) existing.push(item);
    else {
      const group = [item];
      groups.push(group);
      if (k !== null) byKey.set(k, group);
    }
  }
  return groups;
}

function formatQuery(q: QueryValidationResult, s: Style): string {
  const text = q.query_text.length > 60 ? `${q.query_text.slice(0, 57)}...` : q.query_text;
  const best = q.best_similarity === null ? '' : s.dim(` best ${q.best_similarity.toFixed(3)}`);
  const reason = q.status === 'PASS' ? '' : `\n          ${s.dim('↳')} ${q.fail_reason ?? ''}`;
  return `${queryStatus(q, s)} ${q.id} ${s.dim(`[${q.query_category}]`)} ${text}${best}${reason}`;
}

function formatQueryGroup(first: QueryValidationResult, group: QueryValidationResult[], s: Style): string[] {
  return [
    `  ${queryStatus(first, s)} ${group.length} queries: ${first.fail_reason ?? ''}`,
    `          ${s.dim(`↳ ${listIds(group.map((q) => q.id))}`)}`,
  ];
}

function queryStatus(q: QueryValidationResult, s: Style): string {
  return q.status === 'PASS' ? s.ok('PASS ') : q.status === 'FAIL' ? s.bad('FAIL ') : s.warn('ERROR');
}

function listIds(ids: string[]): string {
  return ids.length > MAX_IDS ? `${ids.slice(0, MAX_IDS).join(', ')} and ${ids.length - MAX_IDS} more` : ids.join(', ');
}

/** Coverage when a page is missing, an orphan is indexed or it could not be computed; with --all, always. */
function formatCoverage(report: ValidationReport, s: Style, all: boolean): string[] {
  const c = report.coverage_report;
  if (!c) return [s.bold('Coverage'), `  ${s.bad('not computed')} (see the findings)`];
  const whole = c.missing_urls.length === 0 && c.extra_urls.length === 0 && c.suggested_prefix === null;
  if (whole && !all) return [];
  const lines = [
    s.bold(
      `Coverage  ${c.indexed_count}/${c.total_sitemap_urls} sitemap pages under ${c.path_prefix} indexed (${c.coverage_percentage}%)`,
    ),
  ];
  if (all)
    lines.push(
      `  ${s.dim(`${c.distinct_indexed_urls} distinct indexed URLs, read by ${c.source}${c.matched_by === 'path' ? '; matched by path: the book moved host' : ''}; ${c.outside_prefix_urls} sitemap URLs outside ${c.path_prefix}`)}`,
    );
  if (c.suggested_prefix !== null)
    lines.push(`  ${s.warn(`no page under ${c.path_prefix}: COVERAGE_PATH_PREFIX=${c.suggested_prefix} would match`)}`);
  if (c.missing_count > 0)
    lines.push(`  ${s.bad(`missing (${c.missing_count}):`)}`, ...listUrls(c.missing_urls, c.missing_count));
  if (c.extra_count > 0)
    lines.push(
      `  ${s.warn(`orphans, indexed but not in the sitemap (${c.extra_count}):`)}`,
      ...listUrls(c.extra_urls, c.extra_count),
    );
  for (const note of c.notes) lines.push(`  ${s.dim(`note: ${note}`)}`);
  return lines;
}

/** Freshness, when it checked no page: why, and the setting that makes it work (every night, until fixed). */
function formatFreshnessNote(report: ValidationReport, s: Style): string[] {
  const note = report.index_health?.freshness?.note;
  return note === undefined ? [] : [s.bold('Freshness'), `  ${s.warn(note)}`];
}

/** `count` is the whole list's: the stored report keeps the first URLs, the .urls.json.gz beside it all of them. */
function listUrls(urls: string[], count: number): string[] {
  const shown = urls.slice(0, MAX_URLS).map((u) => `    ${u}`);
  return count > shown.length ? [...shown, `    … and ${count - shown.length} more (see the report)`] : shown;
}

/** Metadata quality when a field is missing somewhere; with --all, the distributions too. */
function formatQuality(report: ValidationReport, s: Style, all: boolean): string[] {
  const q = report.quality_metrics;
  if (!q) return [s.bold('Quality'), `  ${s.bad('not computed')} (see the findings)`];
  const missing = q.field_completeness.filter((f) => f.missing > 0);
  if (missing.length === 0 && !all) return [];
  const lines = [
    s.bold(
      `Quality  ${q.chunks_with_complete_metadata}/${q.total_chunks} chunks with complete metadata (${q.metadata_completeness_rate}%)`,
    ),
    ...missing.map((f) => `  ${s.bad(`${f.field}: missing on ${f.missing} chunks`)}`),
  ];
  if (all)
    lines.push(
      `  tokens per chunk   ${formatDistribution(q.token_distribution)}`,
      `  best similarity    ${formatDistribution(q.similarity_distribution)}`,
      `  ${s.dim(`completeness by ${q.source.completeness}, token distribution by ${q.source.token_distribution}${q.points_scanned ? `, ${q.points_scanned} points scanned` : ''}`)}`,
    );
  return lines;
}

/** The grounded answers' counts, then the answers that are not grounded or errored (the same error said once). */
function formatGrounding(report: ValidationReport, s: Style, all: boolean): string[] {
  const g = report.grounding_report;
  if (!g) return [];
  const rows = g.responses.map((r) => {
    const v = r.grounding_validation;
    const ok = !r.error && v?.passed === true;
    const verdict = r.error
      ? s.warn('ERROR')
      : ok
        ? s.ok(v?.abstained ? 'ABSTAINED' : 'GROUNDED')
        : s.bad(v?.abstained ? 'ABSTAINED' : v?.error_type === 'UNSUPPORTED_CLAIM' ? 'UNSUPPORTED' : 'UNGROUNDED');
    const why = r.error
      ? r.error.message
      : ok
        ? `${r.source_chunks.length} chunks cited, coverage ${v?.citation_coverage ?? '-'}${v?.support_ratio == null ? '' : `, ${v.claims.length} claims supported`}`
        : (v?.reasons ?? []).join('; ');
    return { id: r.query_id, ok, verdict, why };
  });
  const shown = all ? rows : rows.filter((r) => !r.ok);
  if (shown.length === 0 && !all) return [];
  const lines = [
    s.bold(
      `Grounded answers  ${g.grounded}/${g.grounded + g.ungrounded + g.unnecessary_abstentions} grounded${g.grounded_rate === null ? '' : ` (${g.grounded_rate}%)`}, ${g.abstentions_correct}/${g.abstentions_correct + g.abstentions_incorrect} correct abstentions${g.abstentions_gated ? ` (${g.abstentions_gated} more gated before chat, not graded)` : ''}, ${g.supported_claims}/${g.claims} claims supported${g.support_rate === null ? '' : ` (${Math.round(g.support_rate * 100) / 100}%)`}${g.errors ? `, ${g.errors} errored` : ''}`,
    ),
  ];
  // Who gave the claims their verdicts: the judge (and what it found) or the lexical gate alone.
  const judge = g.judge;
  if (judge && judge.mode === 'cohere') {
    const v = judge.verdicts;
    lines.push(
      `  ${s.dim(`claim verdicts from the judge ${judge.model}: ${v.supported} supported, ${v.contradicted} contradicted, ${v.not_in_context} not in context, ${v.could_not_verify} could not be verified (${judge.judged} calls, budget ${judge.max_claims})`)}`,
    );
  } else if (judge) lines.push(`  ${s.dim('claim verdicts from the lexical gate alone (GROUNDING_JUDGE=lexical)')}`);
  for (const group of groupByReason(shown, (r) => (r.ok ? null : `${r.verdict} ${r.why}`))) {
    const [first] = group;
    if (first === undefined) continue;
    lines.push(
      group.length === 1
        ? `  ${first.verdict} ${first.id} ${s.dim(first.why)}`
        : `  ${first.verdict} ${group.length} answers: ${first.why}\n          ${s.dim(`↳ ${listIds(group.map((r) => r.id))}`)}`,
    );
  }
  if (all)
    lines.push(
      `  ${s.dim(`${g.chat_model} · ${g.token_usage.input_tokens} input + ${g.token_usage.output_tokens} output tokens${g.capped ? ` · ${g.capped} agent queries over the cap of ${g.max_agent_queries} skipped` : ''}`)}`,
    );
  return lines;
}

/**
 * The run's own findings (index health, a stage that failed, a category missed), most severe first, the same one
 * said once with its count. A criterion's breach is its line above, a query's finding its reason, a coverage gap,
 * an orphan or a missing field its section's lines: none is listed twice.
 */
function formatFindings(report: ValidationReport, s: Style): string[] {
  const shownAbove = new Set([
    'CRITERION_BREACHED',
    ...(report.coverage_report ? ['COVERAGE_GAP', 'ORPHAN_URLS'] : []),
    ...(report.quality_metrics ? ['INCOMPLETE_METADATA'] : []),
  ]);
  const findings = report.errors
    .filter((e) => e.validation_id === report.run_id && !shownAbove.has(e.error_type))
    .sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
  if (findings.length === 0) return [];
  const groups = groupByReason(findings, (e: ValidationError) => `${e.severity} ${e.error_type} ${e.message}`);
  return [
    s.bold('Findings'),
    ...groups.flatMap(([e, ...rest]) => {
      if (e === undefined) return [];
      const severity = e.severity === 'CRITICAL' || e.severity === 'HIGH' ? s.bad : s.warn;
      return [
        `  ${severity(e.severity.padEnd(8))} ${e.error_type}${rest.length > 0 ? ` ×${rest.length + 1}` : ''}: ${e.message}`,
      ];
    }),
  ];
}

function formatDistribution(d: Distribution): string {
  if (d.count === 0) return 'n/a';
  return `min ${d.min} · median ${d.median} · avg ${d.avg} · p95 ${d.p95} · max ${d.max}  (n=${d.count})`;
}
