/** The HTML report's golden queries: pass rate per category, each failing query with why and what came back. */
import { describe, expect, it } from 'vitest';
import { renderQueries, similarityThresholds } from '../../../../functions/core/render/html/queries-section.ts';
import type { QueryResult, QueryValidationResult } from '../../../../functions/core/report/query-validation.ts';
import type { ValidationReport } from '../../../../functions/core/report/report.ts';
import { buildFailedReport, buildPassedReport, buildQuery } from '../../../nightly/fixtures/reports.ts';
import { hit as regressionHit } from '../../regression/reports.ts';

/** A retrieved chunk from a page of the book's first module; relevance and text as given. */
/** IR metrics of a query that has relevance judgments. */
const JUDGED = {
  k: 5,
  judged_relevant: 1,
  retrieved_relevant: 1,
  precision_at_k: 0.2,
  recall_at_k: 1,
  reciprocal_rank: 1,
  ndcg_at_k: 1,
  hit: true,
};

function hit(rank: number, overrides: Partial<QueryResult> = {}): QueryResult {
  return {
    ...regressionHit(rank, `https://book.example.org/docs/p${rank}`, 0.5),
    chunk_text: `chunk ${rank}`,
    chapter_id: 'ch1',
    module_name: 'basics',
    heading_hierarchy: ['Intro', 'Setup'],
    relevance: false,
    relevance_grade: 0,
    ...overrides,
  };
}

function withQueries(queries: QueryValidationResult[]): ValidationReport {
  return { ...buildFailedReport(), query_results: queries };
}

/** The article of one failing query. */
function article(markup: string, id: string): string {
  return markup.split(`<article class="query" id="q-${id}">`)[1]?.split('</article>')[0] ?? '';
}

describe('renderQueries', () => {
  it('says no query ran instead of a pass rate when the run has none', () => {
    expect(renderQueries({ ...buildPassedReport(), total_queries: 0 }).value).toBe(
      '<section id="queries"><h2>Golden queries</h2><p class="muted">No query ran.</p></section>',
    );
  });

  it('heads the section with the passed count and the pass rate', () => {
    expect(renderQueries(buildFailedReport()).value).toContain('<h2>Golden queries: 8 of 20 passed (40%)</h2>');
  });

  it('says n/a, never 0 %, when every query errored, and a rate as soon as one completed', () => {
    const errored = { ...buildFailedReport(), passed_queries: 0, failed_queries: 0, error_queries: 20, pass_rate: 0 };
    expect(renderQueries(errored).value).toContain(
      '<h2>Golden queries: pass rate n/a (no query completed; 20 of 20 errored)</h2>',
    );
    const oneFailed = { ...errored, failed_queries: 1, error_queries: 19 };
    expect(renderQueries(oneFailed).value).toContain('<h2>Golden queries: 0 of 20 passed (0%)</h2>');
  });

  it('charts each category in name order, green at or over the pass-rate threshold and red under it', () => {
    const report = buildFailedReport();
    const keyword = report.validation_metrics.by_category.keyword;
    if (keyword === undefined) throw new Error('fixture has no keyword category');
    report.validation_metrics.by_category = {
      zeta: { ...keyword, total: 10, passed: 9, pass_rate: 90 },
      alpha: { ...keyword, total: 10, passed: 8, pass_rate: 89.99 },
    };
    const markup = renderQueries(report).value;
    expect([...markup.matchAll(/class="label">([a-z]+)<\/text>/g)].map((m) => m[1])).toEqual(['alpha', 'zeta']);
    expect([...markup.matchAll(/<rect [^>]*class="(bar[^"]*)"/g)].slice(0, 2).map((m) => m[1])).toEqual([
      'bar bad',
      'bar good',
    ]);
    expect(markup).toContain('>90% (9/10)</text>');
    expect(markup).toContain('class="label">threshold 90%</text>');
    expect(markup).toContain('<title>Pass rate per category (%)</title>');
  });

  it('takes the threshold from the pass-rate criterion, wherever it is in the list', () => {
    const report = buildFailedReport();
    report.success_criteria = [...report.success_criteria].reverse();
    expect(renderQueries(report).value).toContain('class="label">threshold 90%</text>');
  });

  it('draws the categories without colour or threshold when the run has no pass-rate criterion', () => {
    const markup = renderQueries({ ...buildFailedReport(), success_criteria: [] }).value;
    expect(markup).not.toContain('threshold');
    expect(markup).not.toMatch(/bar (good|bad)/);
  });

  it('counts each query with a best similarity in the histogram, leaving out those without one', () => {
    const report = withQueries([
      buildQuery({ id: 'a', best: 0.97 }),
      buildQuery({ id: 'b', best: 0.96 }),
      buildQuery({ id: 'c', status: 'ERROR' }),
    ]);
    const histogram = renderQueries(report).value.split('<h3>Best similarity per query</h3>')[1] ?? '';
    expect(histogram).toContain('<title>Best similarity per query</title>');
    expect([...histogram.matchAll(/class="value">(\d+)<\/text>/g)].map((m) => m[1])).toEqual(['2']);
    expect(histogram).toContain('<rect x="515" y="4" width="24" height="120" class="bar"/>');
  });

  it('gives the run-wide retrieval and latency figures', () => {
    expect(renderQueries(buildFailedReport()).value).toContain(
      '<p class="figures">MRR <b>0.8</b> · nDCG@k <b>0.7</b> · recall@k <b>0.75</b> · precision@k <b>0.6</b> · hit rate <b>0.9</b> · latency per query (share of its batched calls) p50 <b>53 ms</b> p95 <b>60 ms</b> p99 <b>61 ms</b></p>',
    );
  });

  it('says none when every query passed', () => {
    const markup = renderQueries(buildPassedReport()).value;
    expect(markup).toContain('<h3>Failing queries (0)</h3>\n<p class="muted">None.</p>');
    expect(markup).not.toContain('<table class="failures">');
  });

  it('lists each failing query in a table row linking to its details, with its status, reason and best score', () => {
    const failing = { ...buildQuery({ id: 'q 1/<x>', status: 'ERROR', reason: 'r' }), fail_reason: null };
    const markup = renderQueries(withQueries([buildQuery({ id: 'ok' }), failing])).value;
    expect(markup).toContain('<h3>Failing queries (1)</h3>');
    expect(markup).toContain(
      '<tr><td><a href="#q-q-1--x-">q 1/&lt;x&gt;</a></td><td>semantic</td><td><span class="tag error">ERROR</span></td><td>no reason given</td><td class="num">n/a</td></tr>',
    );
    expect(markup).toContain('<article class="query" id="q-q-1--x-">');
  });

  it('cuts the reason at 200 characters in the table and 600 in the details', () => {
    const markup = renderQueries(
      withQueries([buildQuery({ id: 'q1', status: 'FAIL', reason: 'z'.repeat(700) })]),
    ).value;
    expect(markup).toContain(`<td>${'z'.repeat(199)}…</td>`);
    expect(article(markup, 'q1')).toContain(`<b>Why:</b> ${'z'.repeat(599)}…`);
  });

  it('details a failing query: question, why with its error types, best score, matches, sources and latency', () => {
    const query: QueryValidationResult = {
      ...buildQuery({ id: 'q1', status: 'FAIL', reason: 'best similarity 0.41 is under 0.70', best: 0.41 }),
      query_text: 'How do I <install>?',
      error_types: ['LOW_RELEVANCE', 'MISSING_EXPECTED_SOURCE'],
      module_match: false,
      chapter_match: null,
      expected_sources_found: 1,
      total_expected_sources: 3,
    };
    const details = article(renderQueries(withQueries([query])).value, 'q1');
    expect(details).toContain('<h4><span class="tag fail">FAIL</span> q1 <span class="muted">[semantic]</span></h4>');
    expect(details).toContain('<p class="question">“How do I &lt;install&gt;?”</p>');
    expect(details).toContain(
      '<p class="why"><b>Why:</b> best similarity 0.41 is under 0.70 <span class="muted">(LOW_RELEVANCE, MISSING_EXPECTED_SOURCE)</span></p>',
    );
    expect(details).toContain(
      '<p class="muted">best similarity 0.41 · module match no · chapter match n/a · expected sources 1/3 · 53 ms</p>',
    );
  });

  it('shows no error types when a failing query has none, and yes for a matching module', () => {
    const query = { ...buildQuery({ id: 'q1', status: 'FAIL' }), error_types: [], module_match: true };
    const details = article(renderQueries(withQueries([query])).value, 'q1');
    expect(details).toContain('0.70</p>');
    expect(details).not.toContain('<span class="muted">(');
    expect(details).toContain('module match yes');
  });

  it('links the first ten missing expected sources', () => {
    const query = {
      ...buildQuery({ id: 'q1', status: 'FAIL' }),
      missing_expected_sources: Array.from({ length: 12 }, (_, i) => `https://book.example.org/docs/m${i}`),
    };
    const details = article(renderQueries(withQueries([query])).value, 'q1');
    expect(details).toContain(
      '<p><b>Missing expected sources:</b> <a class="url" href="https://book.example.org/docs/m0"',
    );
    expect(details.match(/href="https:\/\/book\.example\.org\/docs\/m/g)).toHaveLength(10);
  });

  it('says no chunk came back when the search returned nothing, and gives no reason it does not have', () => {
    const query = { ...buildQuery({ id: 'q1', status: 'ERROR' }), fail_reason: null, error_types: [] };
    const markup = renderQueries(withQueries([query])).value;
    expect(
      article(markup, 'q1'),
    ).toBe(`<h4><span class="tag error">ERROR</span> q1 <span class="muted">[semantic]</span></h4>
<p class="question">“What does q1 cover?”</p>
<p class="why"><b>Why:</b> no reason given</p>
<p class="muted">best similarity n/a · module match no · chapter match n/a · expected sources 0/0 · 53 ms</p>

<p class="muted">No chunk came back.</p>
`);
    expect(markup).toMatch(/<\/article>\n\n<\/section>$/);
  });

  it('shows the first three chunks with score, relevance, source, module, chapter, headings and text', () => {
    const query = {
      ...buildQuery({ id: 'q1', status: 'FAIL' }),
      metrics: JUDGED,
      top_results: [
        hit(1, { similarity_score: 0.81234, relevance: true, chunk_text: `<p>${'t'.repeat(700)}` }),
        hit(2, { module_name: null, chapter_id: null, heading_hierarchy: null }),
        hit(3),
        hit(4),
      ],
    };
    const details = article(renderQueries(withQueries([query])).value, 'q1');
    const chunks = details.match(/<li>[\s\S]*?<\/li>/g) ?? [];
    expect(chunks).toHaveLength(3);
    expect(chunks[0]).toContain(
      '<li><span class="score">0.812</span> <span class="tag pass">relevant</span> <a class="url" href="https://book.example.org/docs/p1"',
    );
    expect(chunks[0]).toContain('<br><span class="muted">basics / ch1 · Intro › Setup</span>');
    expect(chunks[0]).toContain(`<blockquote>&lt;p&gt;${'t'.repeat(596)}…</blockquote>`);
    expect(chunks[1]).toContain('<span class="tag fail">not relevant</span>');
    expect(chunks[1]).toContain('<span class="muted">no module / no chapter</span>');
  });

  it('badges the hits of a query without relevance judgments "unjudged", never "not relevant"', () => {
    const query = {
      ...buildQuery({ id: 'q1', status: 'FAIL' }),
      metrics: null,
      top_results: [hit(1, { relevance: true }), hit(2, { relevance: false })],
    };
    const chunks = article(renderQueries(withQueries([query])).value, 'q1').match(/<li>[\s\S]*?<\/li>/g) ?? [];
    expect(chunks.map((c) => c.match(/<span class="tag (\w+)">([\w ]+)<\/span>/)?.slice(1))).toEqual([
      ['unjudged', 'unjudged'],
      ['unjudged', 'unjudged'],
    ]);
  });

  it('details the first 50 failing queries and says how many more the JSON and CSV reports hold', () => {
    const failing = Array.from({ length: 52 }, (_, i) => buildQuery({ id: `f${i}`, status: 'FAIL' }));
    const markup = renderQueries(withQueries(failing)).value;
    expect(markup).toContain('<h3>Failing queries (52)</h3>');
    expect(markup.match(/<article class="query"/g)).toHaveLength(50);
    expect(markup.match(/<tr><td><a href/g)).toHaveLength(50);
    expect(markup).toContain('<p class="muted">2 more in the JSON and CSV reports.</p>');
  });

  it('says nothing about more failing queries when there are exactly 50', () => {
    const failing = Array.from({ length: 50 }, (_, i) => buildQuery({ id: `f${i}`, status: 'FAIL' }));
    const markup = renderQueries(withQueries(failing)).value;
    expect(markup.match(/<article class="query"/g)).toHaveLength(50);
    expect(markup).not.toContain('more in the JSON and CSV reports');
  });
});

describe('similarityThresholds', () => {
  const withMin = (id: string, min: unknown): QueryValidationResult => {
    const q = buildQuery({ id });
    return { ...q, query: { ...q.query, min_similarity: min } };
  };

  it('draws one unlabelled-by-count line when every query shares its min_similarity', () => {
    expect(similarityThresholds([withMin('a', 0.7), withMin('b', 0.7)])).toEqual([
      { value: 0.7, label: 'min_similarity 0.7' },
    ]);
  });

  it('draws the three most used values, the most used first, each with its count', () => {
    const queries = [
      withMin('a', 0.5),
      withMin('b', 0.7),
      withMin('c', 0.7),
      withMin('d', 0.6),
      withMin('e', 0.2),
      withMin('f', 0.7),
      withMin('g', 0.5),
      withMin('h', 'not a number'),
    ];
    expect(similarityThresholds(queries)).toEqual([
      { value: 0.7, label: 'min_similarity 0.7 (3 queries)' },
      { value: 0.5, label: 'min_similarity 0.5 (2 queries)' },
      { value: 0.2, label: 'min_similarity 0.2 (1 query)' },
    ]);
  });

  it('marks the threshold on the best-similarity histogram of the report', () => {
    const report = buildFailedReport();
    report.query_results = report.query_results.map((q) => ({ ...q, query: { ...q.query, min_similarity: 0.7 } }));
    const markup = renderQueries(report).value;
    const histogram = markup.split('<h3>Best similarity per query</h3>')[1]?.split('</svg>')[0] ?? '';
    expect(histogram).toMatch(
      /<line x1="[\d.]+" x2="[\d.]+" y1="4" y2="128" class="threshold"\/><text [^>]*class="label threshold-label">min_similarity 0\.7<\/text>/,
    );
  });
});
