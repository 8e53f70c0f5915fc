/**
 * Inline SVG charts for the HTML report: no script, no external resource, readable in print and offline. Each
 * chart takes plain numbers; labels go through `html`, so hostile text (a category name) stays text.
 */
import { html, type Markup, num } from './escape.ts';

export interface Bar {
  label: string;
  value: number | null;
  /** Drawn red when false, green when true, grey when undefined. */
  good?: boolean;
  note?: string;
}

const W = 560;
const finite = (v: number | null | undefined): v is number => v !== null && v !== undefined && Number.isFinite(v);
const tone = (good: boolean | undefined) => (good === undefined ? 'bar' : good ? 'bar good' : 'bar bad');

/** Horizontal bars from 0 to `max`, with an optional threshold line (e.g. pass rate per category against 90%). */
export function barChart(options: {
  bars: Bar[];
  max: number;
  unit?: string;
  threshold?: number;
  title: string;
}): Markup {
  const { bars, max, unit = '', threshold, title } = options;
  const row = 22;
  const left = 150;
  const width = W - left - 130;
  const height = bars.length * row + 8 + (threshold === undefined ? 0 : 14);
  const x = (v: number) => left + (Math.max(0, Math.min(v, max)) / max) * width;
  return html`<svg class="chart" role="img" viewBox="0 0 ${W} ${height}" width="${W}" height="${height}"><title>${title}</title>
${bars.map(
  (b, i) => html`<text x="${left - 6}" y="${i * row + 16}" text-anchor="end" class="label">${cutLabel(b.label)}</text>
<rect x="${left}" y="${i * row + 4}" width="${finite(b.value) ? Math.max(1, x(b.value) - left) : 0}" height="${row - 8}" class="${tone(b.good)}"/>
<text x="${finite(b.value) ? x(b.value) + 4 : left + 4}" y="${i * row + 16}" class="value">${num(b.value, 1, unit)}${b.note ? ` ${b.note}` : ''}</text>`,
)}
${finite(threshold) ? html`<line x1="${x(threshold)}" x2="${x(threshold)}" y1="0" y2="${height - 14}" class="threshold"/><text x="${x(threshold)}" y="${height - 2}" text-anchor="middle" class="label">threshold ${num(threshold, 1, unit)}</text>` : ''}
</svg>`;
}

/**
 * Counts of values in equal bins over [min, max] (e.g. each query's best similarity), with each threshold drawn as a
 * dashed line where it falls on the same scale: what is left of it failed.
 */
export function histogram(options: {
  values: number[];
  min: number;
  max: number;
  bins: number;
  title: string;
  thresholds?: { value: number; label: string }[];
}): Markup {
  const { values, min, max, bins, title, thresholds = [] } = options;
  const counts = new Array<number>(bins).fill(0);
  for (const v of values.filter(finite)) {
    const i = Math.min(bins - 1, Math.max(0, Math.floor(((v - min) / (max - min)) * bins)));
    counts[i] = (counts[i] ?? 0) + 1;
  }
  const top = Math.max(1, ...counts);
  const h = 120;
  const bw = (W - 40) / bins;
  return html`<svg class="chart" role="img" viewBox="0 0 ${W} ${h + 36}" width="${W}" height="${h + 36}"><title>${title}</title>
${counts.map((c, i) => {
  const bh = (c / top) * h;
  return html`<rect x="${20 + i * bw + 1}" y="${h - bh + 4}" width="${bw - 2}" height="${bh}" class="bar"/>${c > 0 ? html`<text x="${20 + i * bw + bw / 2}" y="${h - bh}" text-anchor="middle" class="value">${c}</text>` : ''}`;
})}
${[0, bins / 2, bins].map(
  (i) =>
    html`<text x="${20 + i * bw}" y="${h + 22}" text-anchor="middle" class="label">${num(min + ((max - min) * i) / bins, 2)}</text>`,
)}${thresholds
  .filter((t) => finite(t.value) && t.value >= min && t.value <= max)
  .map((t, i) => {
    const tx = 20 + ((t.value - min) / (max - min)) * (W - 40);
    return html`
<line x1="${tx}" x2="${tx}" y1="4" y2="${h + 8}" class="threshold"/><text x="${tx + 4}" y="${14 + i * 13}" class="label threshold-label">${t.label}</text>`;
  })}
</svg>`;
}

/** One distribution's summary (min, median, mean, p95, max) on a scale: a box from median to p95. */
export function rangeChart(options: {
  stats: { min: number | null; median: number | null; avg: number | null; p95: number | null; max: number | null };
  title: string;
  unit?: string;
}): Markup {
  const { stats, title, unit = '' } = options;
  if (!finite(stats.min) || !finite(stats.max)) return html`<p class="muted">${title}: no data</p>`;
  const lo = stats.min;
  const span = stats.max - lo || 1;
  const x = (v: number) => 30 + ((v - lo) / span) * (W - 60);
  const marks = (['min', 'median', 'avg', 'p95', 'max'] as const).filter((k) => finite(stats[k]));
  return html`<svg class="chart" role="img" viewBox="0 0 ${W} 70" width="${W}" height="70"><title>${title}</title>
<line x1="${x(lo)}" x2="${x(stats.max)}" y1="30" y2="30" class="axis"/>
${finite(stats.median) && finite(stats.p95) ? html`<rect x="${x(stats.median)}" y="20" width="${Math.max(2, x(stats.p95) - x(stats.median))}" height="20" class="bar"/>` : ''}
${marks.map((k, i) => {
  const v = stats[k] as number;
  return html`<line x1="${x(v)}" x2="${x(v)}" y1="16" y2="44" class="tick"/><text x="${x(v)}" y="${i % 2 === 0 ? 60 : 12}" text-anchor="middle" class="label">${k} ${num(v, 2, unit)}</text>`;
})}
</svg>`;
}

/**
 * A line over the last runs (oldest first), with an optional threshold; a point per run, each titled with its run's
 * time, and the first and last runs' dates under the line (a sparkline without dates cannot say "since Tuesday").
 */
export function trendChart(options: {
  points: { label: string; value: number | null; date?: string }[];
  title: string;
  unit?: string;
  threshold?: number;
  min?: number;
  max?: number;
}): Markup {
  const { points, title, unit = '', threshold } = options;
  const values = points.map((p) => p.value).filter(finite);
  if (values.length === 0) return html`<p class="muted">${title}: no data</p>`;
  const lo = options.min ?? Math.min(...values, finite(threshold) ? threshold : Number.POSITIVE_INFINITY);
  const hi = options.max ?? Math.max(...values, finite(threshold) ? threshold : Number.NEGATIVE_INFINITY);
  const w = 260;
  const h = 90;
  const dated = points.map((p, i) => ({ date: p.date, i })).filter((p) => p.date !== undefined);
  const ends = dated.length === 0 ? [] : dated.length === 1 ? [dated[0]] : [dated[0], dated.at(-1)];
  const dateRow = ends.length > 0 ? 14 : 0;
  const x = (i: number) => 10 + (points.length === 1 ? (w - 20) / 2 : (i / (points.length - 1)) * (w - 20));
  const y = (v: number) => 10 + (1 - (v - lo) / (hi - lo || 1)) * (h - 20);
  const path = points
    .map((p, i) => (finite(p.value) ? `${x(i)},${y(p.value)}` : null))
    .filter((p) => p !== null)
    .join(' ');
  const last = values.at(-1);
  return html`<figure class="trend"><figcaption>${title}: <b>${num(last, 2, unit)}</b></figcaption>
<svg class="chart" role="img" viewBox="0 0 ${w} ${h + dateRow}" width="${w}" height="${h + dateRow}"><title>${title}</title>
${finite(threshold) ? html`<line x1="0" x2="${w}" y1="${y(threshold)}" y2="${y(threshold)}" class="threshold"/>` : ''}
<polyline points="${path}" class="line"/>
${points.map((p, i) => (finite(p.value) ? html`<circle cx="${x(i)}" cy="${y(p.value)}" r="3" class="dot"><title>${p.label}: ${num(p.value, 2, unit)}</title></circle>` : ''))}${ends.map(
  (e, k) =>
    e === undefined
      ? ''
      : html`
<text x="${x(e.i)}" y="${h + 10}" text-anchor="${ends.length === 1 ? 'middle' : k === 0 ? 'start' : 'end'}" class="label date">${e.date}</text>`,
)}
</svg></figure>`;
}

function cutLabel(label: string): string {
  return label.length > 24 ? `${label.slice(0, 23)}…` : label;
}
