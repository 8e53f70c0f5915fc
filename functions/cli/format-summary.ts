/**
 * The terminal summary of a report: what a developer reads after `ragwatch run`. Most important first:
 * the verdict, then each success criterion, then the queries, coverage, quality and latency.
 */
import { notEvaluatedReason } from '../core/render/criterion-state.ts';
import type { CriterionResult } from '../core/report/findings.ts';
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

const MAX_URLS = 10;

/** Renders the report as the lines of a readable summary. */
export function formatSummary(
  report: ValidationReport,
  options: { style?: Style; reportLocation?: string; htmlLocation?: string } = {},
): string {
  const s = options.style ?? plainStyle;
  const verdict =
    report.status === 'PASSED' ? s.ok('PASSED') : report.status === 'FAILED' ? s.bad('FAILED') : s.bad('ERROR');
  const lines: string[] = [
    `${s.bold('ragwatch')} ${verdict}  ${s.dim(`collection ${report.collection} · run ${report.run_id} · ${report.timestamp} · ${report.duration_seconds}s`)}`,
    `  ${report.status_reason}`,
    '',
    s.bold('Success criteria'),
    ...report.success_criteria.map((c) => `  ${formatCriterion(c, notEvaluatedReason(report, c), s)}`),
    '',
    s.bold(
      // No query completed: there is no pass rate, and "0/21 passed (0%)" would read as every query failing.
      report.passed_queries + report.failed_queries === 0 && report.error_queries > 0
        ? `Queries  none completed, ${report.error_queries} errored`
        : `Queries  ${report.passed_queries}/${report.total_queries} passed (${report.pass_rate}%)${report.error_queries ? `, ${report.error_queries} errored` : ''}`,
    ),
    ...report.query_results.map((q) => `  ${formatQuery(q, s)}`),
  ];
  const m = report.validation_metrics;
  if (m.judged_queries > 0) {
    lines.push(
      `  ${s.dim(`IR @k over ${m.judged_queries} judged: precision ${m.overall_precision} · recall ${m.overall_recall} · MRR ${m.mrr} · nDCG ${m.ndcg_at_k} · hit rate ${m.hit_rate}`)}`,
    );
  }
  if (m.benchmark) {
    const figures = Object.entries(m.benchmark).map(([name, value]) => `${name} ${value}`);
    lines.push(`  ${s.dim(`benchmark: ${figures.join(' · ')}`)}`);
  }
  // No figures for a stage in which no query ran: zeros and a rate would read as measurements.
  lines.push(
    m.throughput_qps === null
      ? `  ${s.dim('no query ran: no IR, latency or throughput figures')}`
      : `  ${s.dim(`latency p50 ${m.p50_latency_ms ?? '-'} ms · p95 ${m.p95_latency_ms ?? '-'} ms · p99 ${m.p99_latency_ms ?? '-'} ms · ${m.throughput_qps} queries/s`)}`,
    '',
    ...formatCoverage(report, s),
    '',
    ...formatQuality(report, s),
    ...formatGrounding(report, s),
  );
  const runErrors = report.errors.filter(
    (e) => e.validation_id === report.run_id && e.error_type !== 'CRITERION_BREACHED',
  );
  if (runErrors.length > 0) {
    lines.push(
      '',
      s.bold('Run errors'),
      ...runErrors.map((e) => `  ${s.bad(e.severity)} ${e.error_type}: ${e.message}`),
    );
  }
  if (options.reportLocation) lines.push('', `Full report: ${options.reportLocation}`);
  if (options.htmlLocation) lines.push(`HTML report: ${options.htmlLocation}`);
  return lines.join('\n');
}

function formatCriterion(c: CriterionResult, notEvaluated: string | null, s: Style): string {
  // Not evaluated is neither a pass nor a measured breach: no figure and no severity (the findings say what failed).
  if (notEvaluated !== null)
    return `${s.warn('–')} ${c.name.padEnd(24)} ${s.warn('not evaluated')} (${notEvaluated}; ${c.comparator} ${c.threshold} wanted)`;
  const mark = c.passed ? s.ok('✔') : s.bad('✘');
  const value = c.value === null ? 'n/a' : String(c.value);
  return `${mark} ${c.name.padEnd(24)} ${value.padStart(8)} ${c.comparator} ${c.threshold}${c.passed ? '' : s.bad(`  (${c.severity})`)}`;
}

function formatQuery(q: QueryValidationResult, s: Style): string {
  const status = q.status === 'PASS' ? s.ok('PASS ') : q.status === 'FAIL' ? s.bad('FAIL ') : s.warn('ERROR');
  const text = q.query_text.length > 60 ? `${q.query_text.slice(0, 57)}...` : q.query_text;
  const best = q.best_similarity === null ? '' : s.dim(` best ${q.best_similarity.toFixed(3)}`);
  const reason = q.status === 'PASS' ? '' : `\n          ${s.dim('↳')} ${q.fail_reason ?? ''}`;
  return `${status} ${q.id} ${s.dim(`[${q.query_category}]`)} ${text}${best}${reason}`;
}

function formatCoverage(report: ValidationReport, s: Style): string[] {
  const c = report.coverage_report;
  if (!c) return [s.bold('Coverage'), `  ${s.bad('not computed')} (see run errors)`];
  const lines = [
    s.bold(
      `Coverage  ${c.indexed_urls.length}/${c.total_sitemap_urls} sitemap pages under ${c.path_prefix} indexed (${c.coverage_percentage}%)`,
    ),
    `  ${s.dim(`${c.distinct_indexed_urls} distinct indexed URLs, read by ${c.source}${c.matched_by === 'path' ? '; matched by path: the book moved host' : ''}; ${c.outside_prefix_urls} sitemap URLs outside ${c.path_prefix}`)}`,
  ];
  if (c.suggested_prefix !== null)
    lines.push(`  ${s.warn(`no page under ${c.path_prefix}: COVERAGE_PATH_PREFIX=${c.suggested_prefix} would match`)}`);
  if (c.missing_urls.length > 0)
    lines.push(`  ${s.bad(`missing (${c.missing_urls.length}):`)}`, ...listUrls(c.missing_urls));
  if (c.extra_urls.length > 0)
    lines.push(
      `  ${s.warn(`orphans, indexed but not in the sitemap (${c.extra_urls.length}):`)}`,
      ...listUrls(c.extra_urls),
    );
  for (const note of c.notes) lines.push(`  ${s.dim(`note: ${note}`)}`);
  return lines;
}

function listUrls(urls: string[]): string[] {
  const shown = urls.slice(0, MAX_URLS).map((u) => `    ${u}`);
  return urls.length > MAX_URLS ? [...shown, `    … and ${urls.length - MAX_URLS} more (see the report)`] : shown;
}

function formatQuality(report: ValidationReport, s: Style): string[] {
  const q = report.quality_metrics;
  if (!q) return [s.bold('Quality'), `  ${s.bad('not computed')} (see run errors)`];
  const missing = q.field_completeness.filter((f) => f.missing > 0);
  return [
    s.bold(
      `Quality  ${q.chunks_with_complete_metadata}/${q.total_chunks} chunks with complete metadata (${q.metadata_completeness_rate}%)`,
    ),
    ...missing.map((f) => `  ${s.bad(`${f.field}: missing on ${f.missing} chunks`)}`),
    `  tokens per chunk   ${formatDistribution(q.token_distribution)}`,
    `  best similarity    ${formatDistribution(q.similarity_distribution)}`,
    `  ${s.dim(`completeness by ${q.source.completeness}, token distribution by ${q.source.token_distribution}${q.points_scanned ? `, ${q.points_scanned} points scanned` : ''}`)}`,
  ];
}

function formatGrounding(report: ValidationReport, s: Style): string[] {
  const g = report.grounding_report;
  if (!g) return [];
  const lines = [
    '',
    s.bold(
      `Grounded answers  ${g.grounded}/${g.grounded + g.ungrounded + g.unnecessary_abstentions} grounded${g.grounded_rate === null ? '' : ` (${g.grounded_rate}%)`}, ${g.abstentions_correct}/${g.abstentions_correct + g.abstentions_incorrect} correct abstentions, ${g.supported_claims}/${g.claims} claims supported${g.support_rate === null ? '' : ` (${Math.round(g.support_rate * 100) / 100}%)`}${g.errors ? `, ${g.errors} errored` : ''}`,
    ),
  ];
  for (const r of g.responses) {
    const v = r.grounding_validation;
    const ok = v?.passed === true;
    const verdict = r.error
      ? s.warn('ERROR')
      : ok
        ? s.ok(v?.abstained ? 'ABSTAINED' : 'GROUNDED')
        : s.bad(v?.abstained ? 'ABSTAINED' : v?.error_type === 'UNSUPPORTED_CLAIM' ? 'UNSUPPORTED' : 'UNGROUNDED');
    const why = r.error
      ? r.error.message
      : ok
        ? `${r.source_chunks.length} chunks cited, coverage ${v?.citation_coverage ?? '-'}${v?.support_rate == null ? '' : `, ${v.claims.length} claims supported`}`
        : (v?.reasons ?? []).join('; ');
    lines.push(`  ${verdict} ${r.query_id} ${s.dim(why)}`);
  }
  lines.push(
    `  ${s.dim(`${g.chat_model} · ${g.token_usage.input_tokens} input + ${g.token_usage.output_tokens} output tokens${g.capped ? ` · ${g.capped} agent queries over the cap of ${g.max_agent_queries} skipped` : ''}`)}`,
  );
  return lines;
}

function formatDistribution(d: Distribution): string {
  if (d.count === 0) return 'n/a';
  return `min ${d.min} · median ${d.median} · avg ${d.avg} · p95 ${d.p95} · max ${d.max}  (n=${d.count})`;
}
