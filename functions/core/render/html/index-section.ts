/**
 * Is the index whole: sitemap coverage with its missing and orphan URLs, metadata completeness per field, and the
 * token and similarity distributions. URLs come from the sitemap and the index: links only when http(s).
 */
import type { ValidationReport } from '../../report/report.ts';
import { barChart, rangeChart } from './charts.ts';
import { html, link, type Markup, num } from './escape.ts';

const SHOWN_URLS = 100;

/** Coverage lists and quality charts. */
export function renderIndex(report: ValidationReport): Markup {
  const coverage = report.coverage_report;
  const quality = report.quality_metrics;
  return html`<section id="coverage"><h2>Coverage${coverage ? `: ${num(coverage.coverage_percentage, 2)}% of ${coverage.total_sitemap_urls} sitemap pages indexed` : ''}</h2>
${
  coverage === null
    ? html`<p class="muted">Not computed (the run stopped before coverage).</p>`
    : html`<p class="muted">Sitemap ${link(coverage.sitemap_url)} · prefix ${coverage.path_prefix} · matched by ${coverage.matched_by} · ${coverage.distinct_indexed_urls} distinct URLs in the index</p>
${coverage.notes.map((n) => html`<p class="note">${n}</p>`)}
<div class="cols">${urlList('Missing (in the sitemap, not indexed)', coverage.missing_urls, coverage.missing_count, coverage.full_url_lists)}${urlList('Orphans (indexed, not in the sitemap)', coverage.extra_urls, coverage.extra_count, coverage.full_url_lists)}</div>`
}</section>
<section id="quality"><h2>Metadata quality${quality ? `: ${num(quality.metadata_completeness_rate, 2)}% of ${quality.total_chunks} chunks complete` : ''}</h2>
${
  quality === null
    ? html`<p class="muted">Not computed (the run stopped before quality).</p>`
    : html`<div class="cols"><div><h3>Completeness per required field</h3>
${barChart({
  title: 'Completeness per required field (%)',
  max: 100,
  unit: '%',
  bars: quality.field_completeness.map((f) => ({
    label: f.field,
    value: f.completeness_rate,
    good: f.missing === 0,
    note: f.missing > 0 ? `(${f.missing} missing)` : '',
  })),
})}</div>
<div><h3>Tokens per chunk</h3>${rangeChart({ title: 'Tokens per chunk', stats: quality.token_distribution })}
<h3>Similarity of retrieved chunks</h3>${rangeChart({ title: 'Similarity of retrieved chunks', stats: quality.similarity_distribution })}</div></div>`
}</section>`;
}

/** `count` is the whole list's; past what is shown, the rest is in the JSON report or, cut there, in `fullLists`. */
function urlList(title: string, urls: string[], count: number, fullLists: string | null): Markup {
  const shown = urls.slice(0, SHOWN_URLS);
  const where =
    fullLists === null
      ? 'in the JSON report'
      : `in the file beside this report ending ${fullLists} (every list, gzipped JSON)`;
  return html`<div><h3>${title}: ${count}</h3>${
    count === 0
      ? html`<p class="muted">None.</p>`
      : html`<ul class="urls">${shown.map((u) => html`<li>${link(u)}</li>`)}</ul>${count > shown.length ? html`<p class="muted">${count - shown.length} more ${where}.</p>` : ''}`
  }</div>`;
}
