/**
 * The golden queries: pass rate per category against the threshold, each failing query with why and the chunks it
 * got, and the latency split. Chunk text comes from the book: it is escaped like everything else.
 */
import type { QueryValidationResult } from '../../report/query-validation.ts';
import type { ValidationReport } from '../../report/report.ts';
import { barChart, histogram } from './charts.ts';
import { cut, html, link, type Markup, num } from './escape.ts';

const SHOWN_FAILURES = 50;
const SHOWN_CHUNKS = 3;

/** Per-category pass rates, failing queries first, then the similarity histogram and latency figures. */
export function renderQueries(report: ValidationReport): Markup {
  if (report.total_queries === 0)
    return html`<section id="queries"><h2>Golden queries</h2><p class="muted">No query ran.</p></section>`;
  const threshold = report.success_criteria.find((c) => c.name === 'pass_rate')?.threshold;
  const categories = Object.entries(report.validation_metrics.by_category).sort(([a], [b]) => a.localeCompare(b));
  const failing = report.query_results.filter((q) => q.status !== 'PASS');
  const vm = report.validation_metrics;
  // No query completed (every one errored): there is no pass rate, and "0 of 21 passed (0 %)" would read as all failed.
  const heading =
    report.passed_queries + report.failed_queries === 0
      ? html`Golden queries: pass rate n/a (no query completed; ${report.error_queries} of ${report.total_queries} errored)`
      : html`Golden queries: ${report.passed_queries} of ${report.total_queries} passed (${num(report.pass_rate, 2, '%')})`;
  return html`<section id="queries"><h2>${heading}</h2>
<div class="cols"><div><h3>Pass rate per category</h3>
${barChart({
  title: 'Pass rate per category (%)',
  max: 100,
  unit: '%',
  ...(threshold === undefined ? {} : { threshold }),
  bars: categories.map(([name, c]) => ({
    label: name,
    value: c.pass_rate,
    note: `(${c.passed}/${c.total})`,
    ...(threshold === undefined ? {} : { good: c.pass_rate >= threshold }),
  })),
})}</div>
<div><h3>Best similarity per query</h3>
${histogram({
  title: 'Best similarity per query',
  values: report.query_results.map((q) => q.best_similarity).filter((v): v is number => v !== null),
  min: 0,
  max: 1,
  bins: 20,
  thresholds: similarityThresholds(report.query_results),
})}</div></div>
<p class="figures">MRR <b>${num(vm.mrr, 3)}</b> · nDCG@k <b>${num(vm.ndcg_at_k, 3)}</b> · recall@k <b>${num(vm.overall_recall, 3)}</b> · precision@k <b>${num(vm.overall_precision, 3)}</b> · hit rate <b>${num(vm.hit_rate, 3)}</b> · latency per query (share of its batched calls) p50 <b>${num(vm.p50_latency_ms, 0, ' ms')}</b> p95 <b>${num(vm.p95_latency_ms, 0, ' ms')}</b> p99 <b>${num(vm.p99_latency_ms, 0, ' ms')}</b></p>
<h3>Failing queries (${failing.length})</h3>
${failing.length === 0 ? html`<p class="muted">None.</p>` : html`${failureTable(failing)}${failing.slice(0, SHOWN_FAILURES).map(renderFailingQuery)}`}
${failing.length > SHOWN_FAILURES ? html`<p class="muted">${failing.length - SHOWN_FAILURES} more in the JSON and CSV reports.</p>` : ''}
</section>`;
}

/**
 * The min_similarity lines to draw on the histogram: each distinct value the queries use, the most used first, at
 * most 3 (a suite usually has one default and a few overrides), labelled with how many queries use it.
 */
export function similarityThresholds(queries: QueryValidationResult[]): { value: number; label: string }[] {
  const counts = new Map<number, number>();
  for (const q of queries) {
    // The suite entry as resolved: min_similarity is always set there, but the report types it as a loose record.
    const value = q.query.min_similarity;
    if (typeof value === 'number' && Number.isFinite(value)) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts]
    .sort(([a, n], [b, m]) => m - n || a - b)
    .slice(0, 3)
    .map(([value, n]) => ({
      value,
      label: `min_similarity ${num(value, 2)}${counts.size > 1 ? ` (${n} ${n === 1 ? 'query' : 'queries'})` : ''}`,
    }));
}

/** One line per failing query: what an on-call engineer reads first. */
function failureTable(failing: QueryValidationResult[]): Markup {
  return html`<table class="failures"><thead><tr><th>query</th><th>category</th><th>status</th><th>why</th><th class="num">best</th></tr></thead><tbody>
${failing
  .slice(0, SHOWN_FAILURES)
  .map(
    (q) =>
      html`<tr><td><a href="#q-${anchor(q.id)}">${q.id}</a></td><td>${q.query_category}</td><td><span class="tag ${q.status.toLowerCase()}">${q.status}</span></td><td>${cut(q.fail_reason ?? 'no reason given', 200)}</td><td class="num">${num(q.best_similarity, 3)}</td></tr>`,
  )}</tbody></table>`;
}

function renderFailingQuery(q: QueryValidationResult): Markup {
  return html`<article class="query" id="q-${anchor(q.id)}"><h4><span class="tag ${q.status.toLowerCase()}">${q.status}</span> ${q.id} <span class="muted">[${q.query_category}]</span></h4>
<p class="question">“${cut(q.query_text, 300)}”</p>
<p class="why"><b>Why:</b> ${cut(q.fail_reason ?? 'no reason given', 600)}${q.error_types.length > 0 ? html` <span class="muted">(${q.error_types.join(', ')})</span>` : ''}</p>
<p class="muted">best similarity ${num(q.best_similarity, 3)} · module match ${flag(q.module_match)} · chapter match ${flag(q.chapter_match)} · expected sources ${q.expected_sources_found}/${q.total_expected_sources} · ${num(q.latency.total_ms, 0, ' ms')}</p>
${q.missing_expected_sources.length > 0 ? html`<p><b>Missing expected sources:</b> ${q.missing_expected_sources.slice(0, 10).map((u) => html`${link(u)} `)}</p>` : ''}
${
  q.top_results.length === 0
    ? html`<p class="muted">No chunk came back.</p>`
    : html`<ol class="chunks">${q.top_results.slice(0, SHOWN_CHUNKS).map(
        (
          r,
        ) => html`<li><span class="score">${num(r.similarity_score, 3)}</span> ${relevanceTag(q, r.relevance)} ${link(r.source_url)}
<br><span class="muted">${r.module_name ?? 'no module'} / ${r.chapter_id ?? 'no chapter'}${r.heading_hierarchy ? ` · ${r.heading_hierarchy.join(' › ')}` : ''}</span>
<details><summary>chunk text</summary><blockquote>${cut(r.chunk_text, 600)}</blockquote></details></li>`,
      )}</ol>`
}
</article>`;
}

/**
 * A hit's relevance badge. A query without relevance judgments (its metrics null) has no known relevance: its hits
 * are "unjudged", in grey, never a red "not relevant" that reads as a fault found.
 */
function relevanceTag(q: QueryValidationResult, relevant: boolean): Markup {
  if (q.metrics === null) return html`<span class="tag unjudged">unjudged</span>`;
  return relevant ? html`<span class="tag pass">relevant</span>` : html`<span class="tag fail">not relevant</span>`;
}

/** An id usable in a fragment: query ids come from the suite, so anything unusual becomes '-'. */
function anchor(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '-');
}

function flag(value: boolean | null): string {
  return value === null ? 'n/a' : value ? 'yes' : 'no';
}
