/**
 * What changed since the baseline (core/regression): each finding with its figures against the usual band, the
 * queries that recovered, and the golden queries that went stale. Absent on a report the comparison has not seen.
 */
import { worstFirst } from '../../report/findings.ts';
import type { RegressionReport } from '../../report/regression-report.ts';
import { cut, html, link, type Markup, num } from './escape.ts';

/** The regression section, or nothing when the report has none. */
export function renderRegression(regression: RegressionReport | undefined): Markup {
  if (regression === undefined) return html``;
  const findings = [...regression.findings].sort(worstFirst);
  return html`<section id="regression"><h2>What changed since the baseline${regression.compared ? `: ${findings.length} change(s)` : ''}</h2>
<p class="muted">${regression.note}${regression.baseline_runs.length > 0 ? ` · baseline of ${regression.baseline_runs.length} run(s) from ${regression.baseline_runs.at(-1)?.started_at} to ${regression.baseline_runs[0]?.started_at}` : ''}</p>
${
  findings.length === 0
    ? html`<p>${regression.compared ? 'Nothing moved beyond its usual band.' : ''}</p>`
    : html`<table><thead><tr><th>severity</th><th>what</th><th>message</th><th class="num">now</th><th class="num">usual</th><th>for</th></tr></thead><tbody>
${findings.map(
  (
    f,
  ) => html`<tr><td class="sev ${f.severity.toLowerCase()}">${f.severity}</td><td>${f.kind}${f.query_id ? html`<br><span class="muted">${f.query_id}</span>` : ''}</td>
<td>${cut(f.message, 400)}${f.urls.length > 0 ? html`<br>${f.urls.slice(0, 5).map((u) => html`${link(u)} `)}` : ''}</td>
<td class="num">${num(f.value, 3)}</td><td class="num">${f.baseline === null ? 'n/a' : `${num(f.baseline, 3)}${f.band === null ? '' : ` ± ${num(f.band, 3)}`}`}</td><td>${f.addressed_to}</td></tr>`,
)}</tbody></table>`
}
${regression.recovered_queries.length > 0 ? html`<p><b>Recovered</b> (failed in the baseline, pass now): ${regression.recovered_queries.join(', ')}</p>` : ''}
${regression.stale_queries.length > 0 ? html`<p><b>Stale golden queries</b> (their expected page left the sitemap; not counted as retrieval failures): ${regression.stale_queries.join(', ')}</p>` : ''}
${regression.score_shift ? html`<p class="muted">Best similarities vs their baseline (Wilcoxon signed-rank, ${regression.score_shift.pairs} pairs): W+ = ${num(regression.score_shift.statistic, 1)}, p = ${num(regression.score_shift.p_value, 4)}, median shift ${num(regression.score_shift.median_shift, 3)}</p>` : ''}
</section>`;
}
