/**
 * A section whose data another part of ragwatch adds to the report (`index_health`): its shape is its own, so it is
 * rendered generically (its fields, an array of objects as a table) and only when present. And the trend of the
 * last runs' headline figures.
 */
import type { TrendPoint } from '../trend-point.ts';
import { trendChart } from './charts.ts';
import { cut, html, type Markup, num } from './escape.ts';

/** A section the report may carry, rendered from whatever fields it has; nothing when absent. */
export function renderOptionalSection(id: string, title: string, value: unknown): Markup {
  if (value === undefined || value === null) return html``;
  return html`<section id="${id}"><h2>${title}</h2>${renderValue(value, 0)}</section>`;
}

function renderValue(value: unknown, depth: number): Markup {
  if (value === null || value === undefined) return html`<span class="muted">n/a</span>`;
  if (typeof value === 'number') return html`${num(value, 3)}`;
  if (typeof value !== 'object') return html`${cut(String(value), 400)}`;
  if (depth >= 3) return html`<code>${cut(JSON.stringify(value), 300)}</code>`;
  if (Array.isArray(value)) {
    if (value.length === 0) return html`<span class="muted">none</span>`;
    const rows = value.slice(0, 100);
    if (rows.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))) {
      const keys = [...new Set(rows.flatMap((r) => Object.keys(r as object)))].slice(0, 10);
      return html`<table><thead><tr>${keys.map((k) => html`<th>${k.replace(/_/g, ' ')}</th>`)}</tr></thead><tbody>${rows.map(
        (r) =>
          html`<tr>${keys.map((k) => html`<td>${renderValue((r as Record<string, unknown>)[k], depth + 1)}</td>`)}</tr>`,
      )}</tbody></table>${value.length > rows.length ? html`<p class="muted">${value.length - rows.length} more in the JSON report.</p>` : ''}`;
    }
    return html`<ul>${rows.map((r) => html`<li>${renderValue(r, depth + 1)}</li>`)}</ul>`;
  }
  const record = value as Record<string, unknown>;
  const entries = Object.entries(record).slice(0, 50);
  return html`<dl class="fields">${entries.map(([k, v]) => html`<dt>${k.replace(/_/g, ' ')}</dt><dd>${renderField(v, record.threshold, depth)}</dd>`)}</dl>`;
}

/** The figures judged against a block's threshold, per row (the ANN check's recall per query). */
const JUDGED = ['recall', 'cosine'] as const;

/**
 * A field of a block. A list of rows each with a figure judged against the block's `threshold` shows the rows under
 * it and folds the rows at or above it into a <details>: 18 passing ANN queries need no look at 3 a.m.
 */
function renderField(value: unknown, threshold: unknown, depth: number): Markup {
  if (typeof threshold !== 'number' || !Array.isArray(value) || value.length === 0)
    return renderValue(value, depth + 1);
  const figure = (row: unknown) => {
    if (row === null || typeof row !== 'object') return undefined;
    const key = JUDGED.find((k) => typeof (row as Record<string, unknown>)[k] === 'number');
    return key === undefined ? undefined : ((row as Record<string, unknown>)[key] as number);
  };
  if (!value.every((row) => figure(row) !== undefined)) return renderValue(value, depth + 1);
  const under = value.filter((row) => (figure(row) as number) < threshold);
  const holding = value.filter((row) => (figure(row) as number) >= threshold);
  if (holding.length === 0) return renderValue(under, depth + 1);
  return html`${under.length > 0 ? renderValue(under, depth + 1) : html`<span class="muted">none under ${num(threshold, 3)}</span>`}
<details class="passing"><summary>${holding.length} at or above ${num(threshold, 3)}</summary>${renderValue(holding, depth + 1)}</details>`;
}

/** Small charts of the headline figures over the last runs, oldest first. */
export function renderTrend(points: TrendPoint[], thresholds: Record<string, number | undefined>): Markup {
  if (points.length < 2)
    return html`<section id="trend"><h2>Trend</h2><p class="muted">Only this run is on record: the trend starts with the next one.</p></section>`;
  // Dates under each chart; runs all on one day (a day of manual runs) also show their UTC time.
  const oneDay = new Set(points.map((p) => p.timestamp.slice(0, 10))).size === 1;
  const date = (p: TrendPoint) =>
    oneDay ? `${p.timestamp.slice(5, 10)} ${p.timestamp.slice(11, 16)}` : p.timestamp.slice(0, 10);
  const series = (key: keyof TrendPoint) =>
    points.map((p) => ({ label: `${p.timestamp} ${p.status}`, value: p[key] as number | null, date: date(p) }));
  const pct = { min: 0, max: 100, unit: '%' };
  const t = (name: string) => (thresholds[name] === undefined ? {} : { threshold: thresholds[name] as number });
  return html`<section id="trend"><h2>Trend over the last ${points.length} runs</h2>
<p class="muted">From ${points[0]?.timestamp} to ${points.at(-1)?.timestamp}; the dashed line is the threshold.</p>
<div class="trends">
${trendChart({ title: 'Pass rate', points: series('pass_rate'), ...pct, ...t('pass_rate') })}
${trendChart({ title: 'MRR', points: series('mrr'), min: 0, max: 1, ...t('mrr') })}
${trendChart({ title: 'nDCG@k', points: series('ndcg'), min: 0, max: 1 })}
${trendChart({ title: 'Latency p95', points: series('p95_latency_ms'), unit: ' ms', ...t('p95_latency_ms') })}
${trendChart({ title: 'Missing pages', points: series('missing_pages'), min: 0 })}
${trendChart({ title: 'Orphan pages', points: series('orphan_pages'), min: 0 })}
</div></section>`;
}
