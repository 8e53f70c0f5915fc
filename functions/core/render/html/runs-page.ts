/**
 * The page of past runs (issue 24 §5): reports/<collection>/index.html beside latest.json, the Synthetics "runs"
 * page in S3. The last runs of one environment, newest first, each with its status, pass rate ("n/a" where no
 * query completed: an ERROR run has none) and a link to its report, and the open incidents as this run left them.
 * Self-contained as the report is: inline CSS, no script, no external request (the same Content-Security-Policy).
 * Pure: the rows and the incident state come from the caller, read within a bound.
 */
import type { Incident, IncidentState } from '../../report/incident-state.ts';
import type { ValidationReport } from '../../report/report.ts';
import { cut, html, Markup, num } from './escape.ts';
import { REPORT_CSS } from './style.ts';

/** One past run, as the run index (or the report folder) knows it. */
export interface RunsPageRow {
  run_id: string | null;
  started_at: string;
  /** null for a run the index recorded before it kept statuses. */
  status: ValidationReport['status'] | null;
  /** null where no query completed (an ERROR run), or not recorded. */
  pass_rate: number | null;
  /** Where its report opens (a console page, or a file beside the page); null when unknown. */
  href: string | null;
}

export interface RunsPageInput {
  collection: string;
  environment: string;
  /** When the page was written: the run that wrote it finished then. */
  generated_at: string;
  runs: RunsPageRow[];
  /** The incident state after this run; null when it could not be read (the page says so). */
  incidents: IncidentState | null;
}

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'";
const TRACKS = ['quality', 'infrastructure', 'suite'] as const;

/** The whole page as a string. */
export function renderRunsPage(input: RunsPageInput): string {
  const latest = input.runs[0];
  const page: Markup = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Runs · ragwatch ${input.environment}/${input.collection}</title>
<style>${new Markup(REPORT_CSS)}</style></head>
<body><main>
<header class="verdict ${(latest?.status ?? 'unknown').toLowerCase()}">
<div class="badge">${latest?.status ?? 'NO RUN'}</div>
<div><h1>${input.environment}/${input.collection}: the last ${input.runs.length} run(s)</h1>
<p class="meta">Written ${input.generated_at} by the run that finished then · newest first</p></div>
</header>
${renderIncidents(input.incidents)}
${renderRuns(input.runs)}
<footer>ragwatch runs page · each run's JSON report is the record</footer>
</main></body></html>
`;
  return page.value;
}

function renderIncidents(state: IncidentState | null): Markup {
  if (state === null)
    return html`<section id="incidents"><h2>Open incidents</h2><p class="note">The incident state could not be read when this page was written: open incidents unknown.</p></section>`;
  const open = TRACKS.map((t) => state.open[t]).filter((i): i is Incident => i !== null);
  if (open.length === 0)
    return html`<section id="incidents"><h2>Open incidents: none</h2><p class="muted">Nothing is open on any track (quality, infrastructure, suite).</p></section>`;
  return html`<section id="incidents"><h2>Open incidents (${open.length})</h2>
<table><thead><tr><th>severity</th><th>track</th><th>since (UTC)</th><th class="num">runs</th><th>what</th></tr></thead><tbody>
${open.map(
  (i) =>
    html`<tr><td class="sev ${i.severity.toLowerCase()}">${i.severity}</td><td>${i.track}</td><td title="${i.opened.started_at}">${when(i.opened.started_at)}</td><td class="num">${i.runs}</td><td>${i.breaches.map((b) => html`${cut(b.summary, 200)}<br>`)}</td></tr>`,
)}</tbody></table></section>`;
}

function renderRuns(runs: RunsPageRow[]): Markup {
  if (runs.length === 0)
    return html`<section id="runs"><h2>Runs</h2><p class="muted">No run on record yet.</p></section>`;
  return html`<section id="runs"><h2>Runs</h2>
<table><thead><tr><th>started (UTC)</th><th>status</th><th class="num">pass rate</th><th>report</th></tr></thead><tbody>
${runs.map(
  (r) =>
    html`<tr><td title="${r.started_at}">${when(r.started_at)}</td><td>${r.status === null ? html`<span class="muted">not recorded</span>` : html`<span class="tag ${r.status === 'PASSED' ? 'pass' : r.status === 'FAILED' ? 'fail' : 'error'}">${r.status}</span>`}</td><td class="num">${passRate(r)}</td><td>${r.href === null ? html`<span class="muted">none</span>` : html`<a href="${safeHref(r.href)}" rel="noopener noreferrer">${r.run_id ?? 'report'}</a>`}</td></tr>`,
)}</tbody></table></section>`;
}

/** http(s), or a path relative to the page (a file beside it); anything else (javascript:, data:) goes nowhere. */
function safeHref(href: string): string {
  return /^https?:\/\//i.test(href) || !/^[^/?#]*:/.test(href) ? href : '#runs';
}

/** An ISO time to the minute, as people scan a list: "2026-03-14 02:00" (the full time is the cell's title). */
function when(iso: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(iso) ? iso.slice(0, 16).replace('T', ' ') : iso;
}

/** An ERROR run completed no query: its pass rate is "n/a", never 0 %. */
function passRate(r: RunsPageRow): string {
  return r.status === 'ERROR' || r.pass_rate === null ? 'n/a' : num(r.pass_rate, 2, '%');
}
