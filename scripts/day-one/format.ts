/** The walk's figures as lines a person reads, and one table across books (n/a: not measurable today). */
import type { Figures } from './figures.ts';

const na = (v: unknown) => (v === null || v === undefined ? 'n/a' : String(v));
const yes = (v: boolean | null) => (v === null ? 'n/a' : v ? 'yes' : 'no');

export function formatFigures(f: Figures): string {
  const lines = [
    `== ${f.book}${f.held_out ? ' (held out)' : ''}`,
    `steps: ${f.steps.map((s) => `${s.step} ${s.exit === null ? 'serving' : `exit ${s.exit}`}${s.ok ? '' : ' (UNEXPECTED)'} ${s.seconds}s`).join('; ')}`,
    `walk completed: ${yes(f.walk_completed)}`,
    ...f.steps.filter((s) => s.error).map((s) => `  ${s.step} said: ${s.error}`),
    `pages ${f.pages} · chunks ${f.chunks} · tokens per chunk: min ${na(f.chunk_tokens.min)} · median ${na(f.chunk_tokens.median)} · under 50 ${na(f.chunk_tokens.share_under_50)} % · under 100 ${na(f.chunk_tokens.share_under_100)} %`,
    `modules derived: ${f.modules.derived.map((m) => `${m.name} (${m.pages})`).join(', ')}`,
    `modules truth:   ${f.modules.truth === null ? 'n/a (no ground truth)' : f.modules.truth.map((m) => `${m.label} (${m.pages})`).join(', ')}`,
    `modules equal: ${yes(f.modules.equal)}${f.modules.differences?.length ? `; ${f.modules.differences.length} pages differ:` : ''}`,
    ...(f.modules.differences ?? []).map(
      (d) => `  ${d.url}: derived ${na(d.derived)}, sidebar ${d.truth ?? '(no category)'}`,
    ),
    `calibrate predicted pass rate: ${f.calibrate.predicted_pass_rate === null ? 'not predicted' : `${f.calibrate.predicted_pass_rate} %`} (queries it listed as would fail: ${na(f.calibrate.listed_would_fail)})`,
    `first run: ${na(f.first_run.status)}, pass rate ${na(f.first_run.pass_rate)} % (${na(f.first_run.passed)}/${na(f.first_run.total)})`,
    ...f.first_run.failing.map((q) => `  FAIL ${q.id}: "${q.query}" — ${na(q.reason)}`),
    `STALE_PAGES after editing ${na(f.stale_pages.edited_file)}: sandbox sitemap ${yes(f.stale_pages.after_edit_sandbox_sitemap)} · rebuilt sitemap ${yes(f.stale_pages.after_edit_rebuilt_sitemap)} (its lastmod moved: ${yes(f.stale_pages.rebuilt_sitemap_changed)}; names the page: ${yes(f.stale_pages.names_edited_page)}) · after re-index ${yes(f.stale_pages.after_reindex)} · after re-index, rebuilt sitemap ${yes(f.stale_pages.after_reindex_rebuilt_sitemap)}`,
    ...(f.stale_pages.not_checked === null
      ? []
      : [
          `first night: freshness not checked, said in the report (and the summary: ${yes(f.stale_pages.not_checked.in_summary)}, the HTML: ${yes(f.stale_pages.not_checked.in_html)})`,
        ]),
    `URL form: indexed URLs exactly as published ${na(f.url_form.indexed_urls_exactly_as_published)} (up to host case and trailing slash ${na(f.url_form.indexed_urls_up_to_host_case_and_slash)}) · coverage ${na(f.url_form.coverage_percentage)} % of ${na(f.url_form.coverage_pages)} pages, ${na(f.url_form.coverage_missing)} missing, ${na(f.url_form.coverage_orphans)} orphans, matched by ${na(f.url_form.coverage_matched_by)} → right: ${yes(f.url_form.coverage_right)}`,
    `freshness: ${na(f.url_form.freshness_pages_checked)} pages checked of ${na(f.url_form.freshness_pages_expected)} with a lastmod → right: ${yes(f.url_form.freshness_right)}`,
  ];
  return lines.join('\n');
}

export function formatTable(all: Figures[]): string {
  const rows: [string, (f: Figures) => string][] = [
    ['held out', (f) => yes(f.held_out)],
    ['walk completed', (f) => yes(f.walk_completed)],
    ['pages / chunks', (f) => `${f.pages} / ${f.chunks}`],
    ['median tokens', (f) => na(f.chunk_tokens.median)],
    [
      'chunks < 50 / < 100 tokens',
      (f) => `${na(f.chunk_tokens.share_under_50)} % / ${na(f.chunk_tokens.share_under_100)} %`,
    ],
    [
      'modules equal truth',
      (f) => `${yes(f.modules.equal)}${f.modules.differences ? ` (${f.modules.differences.length} differ)` : ''}`,
    ],
    [
      'calibrate predicted',
      (f) => (f.calibrate.predicted_pass_rate === null ? 'not predicted' : `${f.calibrate.predicted_pass_rate} %`),
    ],
    ['first run pass rate', (f) => `${na(f.first_run.pass_rate)} % (${f.first_run.failing.length} fail)`],
    [
      'STALE_PAGES: sandbox / rebuilt',
      (f) => `${yes(f.stale_pages.after_edit_sandbox_sitemap)} / ${yes(f.stale_pages.after_edit_rebuilt_sitemap)}`,
    ],
    [
      'STALE_PAGES after re-index',
      (f) => `${yes(f.stale_pages.after_reindex)} / ${yes(f.stale_pages.after_reindex_rebuilt_sitemap)}`,
    ],
    ['coverage % (right)', (f) => `${na(f.url_form.coverage_percentage)} (${yes(f.url_form.coverage_right)})`],
    [
      'freshness checked (right)',
      (f) =>
        `${na(f.url_form.freshness_pages_checked)}/${na(f.url_form.freshness_pages_expected)} (${yes(f.url_form.freshness_right)})`,
    ],
  ];
  const header = ['figure', ...all.map((f) => f.book)];
  const body = rows.map(([name, get]) => [name, ...all.map(get)]);
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}
