/**
 * The HTML report's rendering: every value from the report is escaped (book text is hostile), the page can make no
 * request, optional sections appear only when the report has them, and the wording never misleads (no "0%" for a
 * run without queries).
 */

import { describe, expect, it } from 'vitest';
import { highlightCitations } from '../../../../functions/core/render/html/grounding-section.ts';
import { renderReportHtml } from '../../../../functions/core/render/html/render-html.ts';
import { buildTrendPoint } from '../../../../functions/core/render/trend-point.ts';
import type { AgentResponse } from '../../../../functions/core/report/grounding-report.ts';
import { emptyIndexHealth } from '../../../../functions/core/report/index-health-report.ts';
import type { QueryResult } from '../../../../functions/core/report/query-validation.ts';
import type { ValidationReport } from '../../../../functions/core/report/report.ts';
import {
  buildFailedReport,
  buildMrrDrop,
  buildPassedReport,
  buildRegression,
  buildSecretsFailureReport,
  RUN_ID,
} from '../../../nightly/fixtures/reports.ts';

const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>"\'&';

function chunk(overrides: Partial<QueryResult> = {}): QueryResult {
  return {
    rank: 1,
    chunk_id: 'c-1',
    chunk_text: HOSTILE,
    similarity_score: 0.41,
    source_url: 'https://book.example.org/docs/intro',
    chapter_id: 'intro',
    module_name: 'basics',
    heading_hierarchy: ['Intro', HOSTILE],
    token_count: 120,
    chunk_index: 0,
    raw_score: 0.41,
    confidence_score: 1,
    timestamp: null,
    model_version: null,
    payload_issues: [],
    relevance: false,
    relevance_grade: 0,
    ...overrides,
  };
}

function failedWithChunks(): ValidationReport {
  const report = buildFailedReport();
  const failing = report.query_results.find((q) => q.status !== 'PASS');
  if (failing === undefined) throw new Error('fixture has no failing query');
  failing.query_text = HOSTILE;
  failing.fail_reason = HOSTILE;
  failing.top_results = [chunk(), chunk({ rank: 2, source_url: 'javascript:alert(3)' })];
  return report;
}

describe('renderReportHtml', () => {
  it('escapes chunk text, headings, query text and reasons, so book text cannot become markup', () => {
    // Act
    const page = renderReportHtml(failedWithChunks());

    // Assess
    expect(page).not.toContain('<script');
    expect(page).not.toContain('<img');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&quot;&#39;&amp;');
  });

  it('links only http(s) URLs: a javascript: URL is shown as text', () => {
    // Act
    const page = renderReportHtml(failedWithChunks());

    // Assess
    expect(page).toContain('<span class="url">javascript:alert(3)</span>');
    expect(page).not.toContain('href="javascript:');
    expect(page).toContain('href="https://book.example.org/docs/intro" rel="noopener noreferrer nofollow"');
  });

  it('forbids every request with a Content-Security-Policy and carries no script or external resource', () => {
    // Act
    const page = renderReportHtml(failedWithChunks());

    // Assess
    expect(page).toContain(
      '<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; img-src data:; form-action &#39;none&#39;; base-uri &#39;none&#39;">',
    );
    expect(page).not.toMatch(/<(script|link|iframe|img|object|embed|base)\b|<[^>]*\s(src|srcset)=/i);
  });

  it('shows the verdict and marks each breached criterion with its value and threshold', () => {
    // Act
    const page = renderReportHtml(buildFailedReport());

    // Assess
    expect(page).toContain('<div class="badge">FAILED</div>');
    expect(page).toMatch(
      /<tr class="breach"><td class="mark">✘<\/td><td>Share of golden queries that pass \(%\)|<tr class="breach"><td class="mark">✘/,
    );
    expect(page.match(/<tr class="breach">/g)?.length).toBe(
      buildFailedReport().success_criteria.filter((c) => !c.passed).length,
    );
  });

  it('says no query ran for a failed run, instead of a 0% pass rate', () => {
    // Prepare
    const report = buildSecretsFailureReport('Secrets Manager refused: AccessDenied');

    // Act
    const page = renderReportHtml(report);

    // Assess
    expect(page).toContain('<div class="badge">ERROR</div>');
    expect(page).toContain('No query ran.');
    expect(page).not.toContain('0 of 0 passed');
  });

  it('renders what changed since the baseline when the report has a regression section, and nothing when not', () => {
    // Prepare
    const withRegression: ValidationReport = {
      ...buildFailedReport(),
      regression: buildRegression({
        note: 'compared with 7 healthy runs',
        findings: [buildMrrDrop({ message: HOSTILE })],
        recovered_queries: ['q-7'],
      }),
    };

    // Act
    const withIt = renderReportHtml(withRegression);
    const without = renderReportHtml(buildFailedReport());

    // Assess
    expect(withIt).toContain('<section id="regression"><h2>What changed since the baseline: 1 change(s)</h2>');
    expect(withIt).toContain('<td class="sev high">HIGH</td><td>METRIC_DROPPED</td>');
    expect(withIt).toContain('<td>&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(withIt).toContain('<td class="num">0.61</td><td class="num">0.9 ± 0.05</td><td>operations</td>');
    expect(withIt).toContain('<b>Recovered</b> (failed in the baseline, pass now): q-7');
    expect(without).not.toContain('id="regression"');
  });

  it('renders index health when the report has it', () => {
    // Act
    const page = renderReportHtml({
      ...buildPassedReport(),
      index_health: {
        ...emptyIndexHealth(),
        freshness: { pages_checked: 13, stale_pages: 3, urls: [], source: 'facet' },
      },
    });

    // Assess
    expect(page).toContain(
      '<section id="index-health"><h2>Index health</h2><dl class="fields"><dt>stale chunks</dt><dd><span class="muted">n/a</span></dd><dt>missing chunks</dt><dd><span class="muted">n/a</span></dd><dt>freshness</dt><dd><dl class="fields"><dt>pages checked</dt><dd>13</dd><dt>stale pages</dt><dd>3</dd>',
    );
  });

  it('draws the trend of earlier runs, and says when this run is the only one on record', () => {
    // Prepare
    const report = buildFailedReport();
    const earlier = { ...buildTrendPoint(buildPassedReport()), run_id: 'r-0', timestamp: '2026-03-13T02:00:00.000Z' };

    // Act
    const withHistory = renderReportHtml(report, { history: [earlier] });
    const alone = renderReportHtml(report);

    // Assess
    expect(withHistory).toContain('<h2>Trend over the last 2 runs</h2>');
    expect(withHistory).toContain('<polyline points="');
    expect(alone).toContain('Only this run is on record: the trend starts with the next one.');
  });
});

describe('renderReportHtml: the page around the sections', () => {
  /** The targets of the page's navigation links, in order. */
  const nav = (page: string) =>
    [...(page.split('<nav>')[1]?.split('</nav>')[0] ?? '').matchAll(/href="#([\w-]+)"/g)].map((m) => m[1]);

  it('names the verdict, environment, collection and start in the page title', () => {
    expect(renderReportHtml(buildFailedReport())).toContain(
      '<title>FAILED · ragwatch prod/book · 2026-03-14T02:00:00.000Z</title>',
    );
  });

  it('links only the sections the report has', () => {
    expect(renderReportHtml(buildPassedReport())).toContain(
      '<nav><a href="#criteria">criteria</a><a href="#trend">trend</a><a href="#queries">queries</a><a href="#coverage">coverage</a><a href="#quality">quality</a><a href="#errors">findings</a></nav>',
    );
  });

  it('links the changes, index health and grounded answers when the report has them', () => {
    const report = {
      ...buildPassedReport(),
      regression: {
        compared: false,
        note: 'no baseline',
        baseline_runs: [],
        findings: [],
        recovered_queries: [],
        stale_queries: [],
        score_shift: null,
      },
      index_health: emptyIndexHealth(),
      grounding_report: { responses: [] } as unknown as ValidationReport['grounding_report'],
    };
    expect(nav(renderReportHtml(report))).toEqual([
      'criteria',
      'regression',
      'trend',
      'queries',
      'coverage',
      'quality',
      'index-health',
      'grounding',
      'errors',
    ]);
  });

  it('closes with the schema version, run id and finish time', () => {
    expect(renderReportHtml(buildFailedReport())).toContain(
      `<footer>ragwatch report · schema 2 · run ${RUN_ID} · finished 2026-03-14T02:00:42.500Z · the JSON report beside this file is the record</footer>`,
    );
  });

  it('draws each criterion’s threshold on its trend', () => {
    const report = buildFailedReport();
    const earlier = { ...buildTrendPoint(buildPassedReport()), run_id: 'r-0', timestamp: '2026-03-13T02:00:00.000Z' };
    const trend = renderReportHtml(report, { history: [earlier] }).split('<section id="trend">')[1] ?? '';
    // pass_rate >= 90 on a 0..100 scale: y = 10 + (1 - 0.9) * 70
    expect(trend.split('<figure')[1]).toContain('<line x1="0" x2="260" y1="17" y2="17" class="threshold"/>');
  });
});

describe('highlightCitations', () => {
  const response = (text: string, citations: AgentResponse['citations']) => ({ response_text: text, citations });

  it('marks each cited span and lists the chunks it cites', () => {
    // Act
    const markup = highlightCitations(
      response('Qdrant stores vectors. It is fast.', [
        { start: 0, end: 22, text: 'Qdrant stores vectors.', document_ids: ['c-1'] },
      ]),
    ).value;

    // Assess
    expect(markup).toBe(
      '<p><mark title="cites c-1">Qdrant stores vectors.</mark><sup>[1]</sup> It is fast.</p><ol class="citations"><li value="1">c-1</li></ol>',
    );
  });

  it('ignores a citation whose offsets fall outside the answer, and escapes the answer', () => {
    // Act
    const markup = highlightCitations(
      response('<b>x</b>', [{ start: 2, end: 99, text: '', document_ids: ['c-9'] }]),
    ).value;

    // Assess
    expect(markup).toBe('<p>&lt;b&gt;x&lt;/b&gt;</p>');
  });
});
