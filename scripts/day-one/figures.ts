/**
 * The figures issue 23's targets name, read from one walk (walk.ts): chunk sizes, modules against the ground truth,
 * calibrate's prediction against the first night, the failing queries, STALE_PAGES after an edit, and whether
 * coverage and freshness used the sitemap's URL form. null means "not measurable today" (printed as n/a).
 */
import type { BookJson, Report, WalkRecord } from './walk.ts';

export interface Figures {
  book: string;
  held_out: boolean | null;
  steps: { step: string; exit: number | null; expected: number[]; ok: boolean; seconds: number; error?: string }[];
  walk_completed: boolean;
  pages: number;
  chunks: number;
  chunk_tokens: {
    min: number | null;
    median: number | null;
    share_under_50: number | null;
    share_under_100: number | null;
  };
  modules: {
    derived: { name: string; pages: number }[];
    truth: { label: string; pages: number }[] | null;
    equal: boolean | null;
    /** Pages whose derived module is not their sidebar category (null truth: a page outside every category). */
    differences: { url: string; derived: string | null; truth: string | null }[] | null;
  };
  calibrate: { predicted_pass_rate: number | null; listed_would_fail: number | null };
  first_run: {
    status: string | null;
    pass_rate: number | null;
    passed: number | null;
    total: number | null;
    failing: { id: string; query: string; reason: string | null }[];
  };
  stale_pages: {
    edited_file: string | null;
    after_edit_sandbox_sitemap: boolean | null;
    after_edit_rebuilt_sitemap: boolean | null;
    rebuilt_sitemap_changed: boolean | null;
    /** STALE_PAGES after the edit (rebuilt sitemap) lists the edited page's URL. */
    names_edited_page: boolean | null;
    after_reindex: boolean | null;
    after_reindex_rebuilt_sitemap: boolean | null;
    /**
     * What the first night said of freshness when it checked no page: the report's note, and whether the terminal
     * summary and the HTML report said it too (null when the report has no note).
     */
    not_checked: { note: string; in_summary: boolean; in_html: boolean | null } | null;
  };
  url_form: {
    indexed_urls_exactly_as_published: string | null;
    indexed_urls_up_to_host_case_and_slash: string | null;
    coverage_percentage: number | null;
    coverage_pages: number | null;
    coverage_missing: number | null;
    coverage_orphans: number | null;
    coverage_matched_by: string | null;
    coverage_right: boolean | null;
    freshness_pages_checked: number | null;
    freshness_pages_expected: number | null;
    freshness_right: boolean | null;
  };
}

export function figuresOf(record: WalkRecord): Figures {
  const truth = record.input.book?.truth;
  const first = record.reports.first;
  const tokens = record.points.map((p) => p.token_count).sort((a, b) => a - b);
  const byPage = new Map<string, string | null>();
  for (const p of record.points)
    if (!byPage.has(pageKey(p.source_url))) byPage.set(pageKey(p.source_url), p.module_name);
  const derivedCounts = new Map<string, number>();
  for (const m of byPage.values()) derivedCounts.set(m ?? '(none)', (derivedCounts.get(m ?? '(none)') ?? 0) + 1);
  const steps: Figures['steps'] = record.steps.map((s) => {
    const ok = s.step === 'sandbox' ? s.exit === null : s.expected.includes(s.exit ?? Number.NaN);
    // What a step that exited unexpectedly said, so a walk that stops early says why.
    const error = ok ? {} : { error: s.stderr.trim().slice(0, 600) };
    return { step: s.step, exit: s.exit, expected: s.expected, ok, seconds: s.seconds, ...error };
  });
  return {
    book: record.input.name,
    held_out: record.input.book?.held_out ?? null,
    steps,
    walk_completed: steps.some((s) => s.step === 'run (after re-index)') && steps.every((s) => s.ok),
    pages: byPage.size,
    chunks: record.points.length,
    chunk_tokens: {
      min: tokens[0] ?? null,
      median: median(tokens),
      share_under_50: share(tokens, 50),
      share_under_100: share(tokens, 100),
    },
    modules: compareModules(byPage, derivedCounts, truth),
    calibrate: readCalibrate(record.calibrateOutput),
    first_run: {
      status: first?.status ?? null,
      pass_rate: first?.pass_rate ?? null,
      passed: first?.passed_queries ?? null,
      total: first?.total_queries ?? null,
      failing: (first?.query_results ?? [])
        .filter((q) => q.status !== 'PASS')
        .map((q) => ({ id: q.id, query: q.query_text, reason: q.fail_reason })),
    },
    stale_pages: {
      edited_file: record.editedFile,
      after_edit_sandbox_sitemap: fired(record.reports.edited),
      after_edit_rebuilt_sitemap: fired(record.reports.editedRebuilt),
      rebuilt_sitemap_changed: record.rebuiltSitemapChanged,
      names_edited_page:
        record.editedUrl === null || record.reports.editedRebuilt === undefined
          ? null
          : (record.reports.editedRebuilt.index_health?.freshness?.urls ?? []).includes(record.editedUrl),
      after_reindex: fired(record.reports.reindexed),
      after_reindex_rebuilt_sitemap: fired(record.reports.reindexedRebuilt),
      not_checked: notChecked(record, first),
    },
    url_form: urlForm(record, first),
  };
}

function compareModules(
  byPage: Map<string, string | null>,
  derivedCounts: Map<string, number>,
  truth: BookJson['truth'] | undefined,
): Figures['modules'] {
  const derived = [...derivedCounts].map(([name, pages]) => ({ name, pages }));
  if (truth === undefined) return { derived, truth: null, equal: null, differences: null };
  const differences: { url: string; derived: string | null; truth: string | null }[] = [];
  for (const doc of truth.docs) {
    const have = byPage.has(pageKey(doc.url)) ? (byPage.get(pageKey(doc.url)) ?? null) : undefined;
    if (have === undefined)
      differences.push({ url: doc.url, derived: '(page not indexed at this URL)', truth: doc.module });
    else if (have !== doc.module) differences.push({ url: doc.url, derived: have, truth: doc.module });
  }
  return { derived, truth: truth.modules, equal: differences.length === 0, differences };
}

/** calibrate prints no predicted pass rate today; if a later version prints "predicted pass rate N %", it is read. */
function readCalibrate(out: string): Figures['calibrate'] {
  const predicted = /predicted pass rate[^\d]*(\d+(?:\.\d+)?)\s*%/i.exec(out);
  const lists = [...out.matchAll(/\(would fail\):\s*(.+)$/gm)].map((m) =>
    (m[1] ?? '').split(',').filter((s) => s.trim()),
  );
  return {
    predicted_pass_rate: predicted ? Number(predicted[1]) : null,
    listed_would_fail: out === '' ? null : lists.reduce((n, l) => n + l.length, 0),
  };
}

function notChecked(record: WalkRecord, first: Report | undefined): Figures['stale_pages']['not_checked'] {
  const note = first?.index_health?.freshness?.note;
  if (note === undefined) return null;
  // The whole note, in each. The summary is plain text (NO_COLOR); the HTML may set the note's code in tags (its
  // backticks gone) and escapes <, >, & and quotes.
  const squeeze = (text: string) => text.replace(/`/g, '').replace(/\s+/g, ' ');
  const textOfHtml = (html: string) =>
    html
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;|&#x27;|&apos;/g, "'")
      .replace(/&amp;/g, '&');
  const head = squeeze(note);
  return {
    note,
    in_summary: squeeze(record.firstSummary).includes(head),
    in_html: record.firstHtml === null ? null : squeeze(textOfHtml(record.firstHtml)).includes(head),
  };
}

function fired(report: Report | undefined): boolean | null {
  return report === undefined ? null : report.errors.some((e) => e.error_type === 'STALE_PAGES');
}

function urlForm(record: WalkRecord, first: Report | undefined): Figures['url_form'] {
  const truth = record.input.book?.truth;
  const indexed = new Set(record.points.map((p) => p.source_url));
  const cov = first?.coverage_report ?? null;
  const expectedFresh = truth === undefined ? null : truth.docs.filter((d) => d.lastmod !== null).length;
  const checked = first?.index_health?.freshness?.pages_checked ?? null;
  return {
    indexed_urls_exactly_as_published:
      truth === undefined ? null : `${truth.docs.filter((d) => indexed.has(d.url)).length}/${truth.docs.length}`,
    indexed_urls_up_to_host_case_and_slash:
      truth === undefined
        ? null
        : `${truth.docs.filter((d) => [...indexed].some((u) => pageKey(u) === pageKey(d.url))).length}/${truth.docs.length}`,
    coverage_percentage: cov?.coverage_percentage ?? null,
    coverage_pages: cov?.total_sitemap_urls ?? null,
    coverage_missing: cov?.missing_urls.length ?? null,
    coverage_orphans: cov?.extra_urls.length ?? null,
    coverage_matched_by: cov?.matched_by ?? null,
    coverage_right:
      truth === undefined || cov === null
        ? null
        : cov.total_sitemap_urls === truth.docs.length && cov.missing_urls.length === 0 && cov.extra_urls.length === 0,
    freshness_pages_checked: checked,
    freshness_pages_expected: expectedFresh,
    freshness_right: expectedFresh === null || first === undefined ? null : checked === expectedFresh,
  };
}

/** A page's identity across URL forms: host in lower case, no trailing slash (the exact form is reported apart). */
function pageKey(url: string): string {
  return url.replace(/^(https?:\/\/[^/]+)/i, (h) => h.toLowerCase()).replace(/\/+$/, '');
}

function median(sorted: number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function share(sorted: number[], under: number): number | null {
  return sorted.length === 0 ? null : Math.round((sorted.filter((t) => t < under).length / sorted.length) * 1000) / 10;
}
