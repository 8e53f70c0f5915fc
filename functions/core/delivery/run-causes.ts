/**
 * What an email says about why a run broke: the same failure on many queries is one line with a count ("17 of 21
 * queries: Qdrant ... failed with 503"), not seventeen; and the one-line cause that the email's second line gives.
 * Pure: from the report and where it went.
 */
import type { ValidationReport } from '../report/report.ts';
import { truncate } from '../shared/errors.ts';

/** Items that failed the same way: the reason, and which items (in the report's order). */
export interface ReasonGroup {
  reason: string;
  ids: string[];
}

/** Groups items by their exact reason, the largest group first (ties in the order first seen). */
export function groupByReason(items: { id: string; reason: string }[]): ReasonGroup[] {
  const groups = new Map<string, string[]>();
  for (const item of items) groups.set(item.reason, [...(groups.get(item.reason) ?? []), item.id]);
  return [...groups.entries()].map(([reason, ids]) => ({ reason, ids })).sort((a, b) => b.ids.length - a.ids.length);
}

/** The queries that did not pass, grouped by their reason; errors before failures, each group largest first. */
function failingQueryGroups(report: ValidationReport): (ReasonGroup & { status: 'FAIL' | 'ERROR' })[] {
  const of = (status: 'FAIL' | 'ERROR') =>
    groupByReason(
      report.query_results
        .filter((q) => q.status === status)
        .map((q) => ({ id: q.id, reason: q.fail_reason ?? 'no reason given' })),
    ).map((g) => ({ ...g, status }));
  return [...of('ERROR'), ...of('FAIL')];
}

/** No query got an answer to judge (all errored, or none ran): a pass rate would be no figure at all. */
export function noQueryCompleted(report: ValidationReport): boolean {
  return report.passed_queries + report.failed_queries === 0;
}

export interface CauseContext {
  stored: boolean;
  /** Why the report could not be stored, and where its only copy is. */
  notStored?: { reason: string; fallback: string };
  failedSinks?: { sink: string; reason: string }[];
}

/**
 * The email's second line: the likeliest cause, in the order an on-call reader acts on it. A run that could not
 * complete names its reason; a failed run names its largest group of failing queries (errors first: a dependency
 * is a cause, a low score a symptom), else its first regression or its missing pages; a report not stored or a
 * sink that failed comes last, because a quality fault must not hide behind a delivery one.
 */
export function causeLine(report: ValidationReport, context: CauseContext): string {
  if (report.status === 'ERROR')
    return `Cause: ${truncate(report.status_reason.replace(/^the run could not complete:\s*/i, ''), 300)}`;
  if (report.status === 'FAILED') {
    const top = failingQueryGroups(report)[0];
    if (top !== undefined)
      return `Cause: ${top.ids.length} of ${report.total_queries} queries ${top.status === 'ERROR' ? 'errored' : 'failed'}: ${truncate(top.reason, 250)}`;
    const finding = report.regression?.findings[0];
    if (finding !== undefined) return `Cause: ${truncate(finding.message, 300)}`;
    const missing = report.coverage_report?.missing_urls.length ?? 0;
    if (missing > 0) return `Cause: ${missing} page(s) of the sitemap are not in the index (listed below)`;
  }
  if (!context.stored && context.notStored)
    return `Cause: S3 would not take the report (${truncate(context.notStored.reason, 200)}); its only copy is in ${context.notStored.fallback}`;
  const sink = context.failedSinks?.[0];
  if (sink !== undefined) return `Cause: ${sink.sink}: ${truncate(sink.reason, 250)}`;
  return 'Cause: see WHAT BROKE below; the report (first link) has every figure';
}

/** The FAILING QUERIES section: one line per reason, with its count and the queries' ids. */
export function failingQueryLines(report: ValidationReport, maxGroups: number, maxIds = 8): string[] {
  const groups = failingQueryGroups(report);
  if (groups.length === 0) return [];
  const failing = groups.reduce((n, g) => n + g.ids.length, 0);
  const shown = groups.slice(0, maxGroups);
  const rest = groups.slice(maxGroups).reduce((n, g) => n + g.ids.length, 0);
  const lines = [`FAILING QUERIES (${failing} of ${report.total_queries})`];
  for (const g of shown) {
    if (g.ids.length === 1) {
      const q = report.query_results.find((r) => r.id === g.ids[0]);
      lines.push(`- ${g.ids[0]} [${g.status}] "${truncate(q?.query_text ?? '', 120)}": ${truncate(g.reason, 300)}`);
      continue;
    }
    const ids = g.ids.slice(0, maxIds).join(', ');
    const more = g.ids.length > maxIds ? `, and ${g.ids.length - maxIds} more` : '';
    lines.push(`- ${g.ids.length} queries [${g.status}]: ${truncate(g.reason, 300)} (${ids}${more})`);
  }
  if (rest > 0) lines.push(`- ${rest} more, for other reasons: in the report`);
  return [...lines, ''];
}
