/** The top of the report: the verdict, each success criterion against its threshold, and the run's errors. */
import { type CriterionResult, worstFirst } from '../../report/findings.ts';
import type { ValidationReport } from '../../report/report.ts';
import { notEvaluatedReason } from '../criterion-state.ts';
import { cut, html, type Markup, num } from './escape.ts';

const PERCENT = /rate|coverage|completeness|percent/i;
const MS = /latency|_ms$/i;

/** A criterion's figure with its unit. */
export function criterionValue(c: CriterionResult, value: number | null): string {
  return num(value, 2, MS.test(c.name) ? ' ms' : PERCENT.test(c.name) ? '%' : '');
}

/**
 * Verdict banner, what the run was, `between` (the report puts "Act on this first" there), and the criteria table:
 * breached and not-evaluated criteria shown, those that hold folded into a <details> (a passing row needs no look).
 */
export function renderSummary(report: ValidationReport, between: Markup = html``): Markup {
  const unjudged = report.success_criteria.filter((c) => notEvaluatedReason(report, c) !== null);
  const breached = report.success_criteria.filter((c) => !c.passed && !unjudged.includes(c));
  const holding = report.success_criteria.filter((c) => c.passed && !unjudged.includes(c));
  const attention = report.success_criteria.filter((c) => !holding.includes(c));
  const headline =
    report.status === 'ERROR'
      ? 'The run could not complete'
      : breached.length > 0
        ? `${breached.length} of ${report.success_criteria.length} success criteria breached${unjudged.length > 0 ? `, ${unjudged.length} not evaluated` : ''}`
        : 'Every success criterion holds';
  return html`<header class="verdict ${report.status.toLowerCase()}">
<div class="badge">${report.status}</div>
<div><h1>${report.environment}/${report.collection}: ${headline}</h1>
<p class="reason">${cut(report.status_reason, 600)}</p>
<p class="meta">Run ${report.run_id} · started ${report.timestamp} · ${num(report.duration_seconds, 1)} s · suite ${report.suite.name} (${report.suite.query_count} queries${report.suite.set_aside?.length ? `, ${report.suite.set_aside.length} set aside: ${report.suite.set_aside.map((q) => q.id).join(', ')}` : ''}) · model ${report.execution.embedding_model}</p></div>
</header>
${between}
<section id="criteria"><h2>Success criteria</h2>
${
  report.success_criteria.length === 0
    ? html`<p class="muted">No criterion was evaluated.</p>`
    : html`${attention.length > 0 ? criteriaTable(report, attention) : ''}${
        holding.length === 0
          ? ''
          : attention.length === 0
            ? criteriaTable(report, holding)
            : html`<details class="passing"><summary>${holding.length} criteria hold</summary>${criteriaTable(report, holding)}</details>`
      }`
}
</section>`;
}

function criteriaTable(report: ValidationReport, criteria: CriterionResult[]): Markup {
  return html`<table><thead><tr><th></th><th>criterion</th><th>value</th><th>threshold</th><th>severity</th></tr></thead><tbody>
${criteria.map((c) => {
  // Not evaluated is neither a pass nor a measured breach: no figure, no severity (the findings say what failed).
  const why = notEvaluatedReason(report, c);
  return why !== null
    ? html`<tr class="unjudged"><td class="mark">–</td><td>${c.description || c.name.replace(/_/g, ' ')}</td>
<td class="num">not evaluated (${why})</td><td class="num">${c.comparator} ${criterionValue(c, c.threshold)}</td><td></td></tr>`
    : html`<tr class="${c.passed ? 'ok' : 'breach'}"><td class="mark">${c.passed ? '✔' : '✘'}</td><td>${c.description || c.name.replace(/_/g, ' ')}</td>
<td class="num">${criterionValue(c, c.value)}</td><td class="num">${c.comparator} ${criterionValue(c, c.threshold)}</td><td>${c.passed ? '' : c.severity}</td></tr>`;
})}</tbody></table>`;
}

/** Every ValidationError of the run, most severe first; a finding about the run itself says "run", not its UUID. */
export function renderErrors(report: ValidationReport): Markup {
  if (report.errors.length === 0) return html``;
  const errors = [...report.errors].sort(worstFirst);
  return html`<section id="errors"><h2>Findings (${errors.length})</h2>
<table><thead><tr><th>severity</th><th>type</th><th>about</th><th>message</th></tr></thead><tbody>
${errors
  .slice(0, 200)
  .map(
    (e) =>
      html`<tr><td class="sev ${e.severity.toLowerCase()}">${e.severity}</td><td>${e.error_type}</td><td>${e.validation_id === report.run_id ? 'run' : cut(e.validation_id, 60)}</td><td>${cut(e.message, 400)}</td></tr>`,
  )}</tbody></table>${errors.length > 200 ? html`<p class="muted">${errors.length - 200} more in the JSON report.</p>` : ''}</section>`;
}
