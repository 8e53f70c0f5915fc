/** Sections rendered from whatever data they carry (index health), and the trend of the last runs' figures. */
import { describe, expect, it } from 'vitest';
import { renderOptionalSection, renderTrend } from '../../../../functions/core/render/html/extra-sections.ts';
import type { TrendPoint } from '../../../../functions/core/render/trend-point.ts';

function point(n: number, overrides: Partial<TrendPoint> = {}): TrendPoint {
  return {
    run_id: `r-${n}`,
    timestamp: `2026-03-1${n}T02:00:00Z`,
    status: 'PASSED',
    pass_rate: 90 + n,
    mrr: 0.8,
    ndcg: 0.7,
    p95_latency_ms: 400,
    missing_pages: 0,
    orphan_pages: 1,
    ...overrides,
  };
}

describe('renderOptionalSection', () => {
  it('renders nothing when the report does not carry the section', () => {
    expect(renderOptionalSection('index-health', 'Index health', undefined).value).toBe('');
    expect(renderOptionalSection('index-health', 'Index health', null).value).toBe('');
  });

  it('shows each field by its name in words, numbers to three decimals, missing values as n/a', () => {
    expect(
      renderOptionalSection('x', 'X', { stale_pages: 3, ratio: 0.12345, note: '<b>hi</b>', checked_at: null }).value,
    ).toBe(
      '<section id="x"><h2>X</h2><dl class="fields"><dt>stale pages</dt><dd>3</dd><dt>ratio</dt><dd>0.123</dd><dt>note</dt><dd>&lt;b&gt;hi&lt;/b&gt;</dd><dt>checked at</dt><dd><span class="muted">n/a</span></dd></dl></section>',
    );
  });

  it('cuts a long text at 400 characters', () => {
    expect(renderOptionalSection('x', 'X', 'y'.repeat(450)).value).toBe(
      `<section id="x"><h2>X</h2>${'y'.repeat(399)}…</section>`,
    );
  });

  it('renders a list of records as a table with a column per field seen in any row', () => {
    expect(
      renderOptionalSection('x', 'X', [
        { page_url: 'a', chunks: 2 },
        { page_url: 'b', model: 'm' },
      ]).value,
    ).toBe(
      '<section id="x"><h2>X</h2><table><thead><tr><th>page url</th><th>chunks</th><th>model</th></tr></thead><tbody><tr><td>a</td><td>2</td><td><span class="muted">n/a</span></td></tr><tr><td>b</td><td><span class="muted">n/a</span></td><td>m</td></tr></tbody></table></section>',
    );
  });

  it('renders a list of plain values as a bullet list, and an empty list as none', () => {
    expect(renderOptionalSection('x', 'X', ['a', 1.5, null]).value).toBe(
      '<section id="x"><h2>X</h2><ul><li>a</li><li>1.5</li><li><span class="muted">n/a</span></li></ul></section>',
    );
    expect(renderOptionalSection('x', 'X', { urls: [] }).value).toContain('<dd><span class="muted">none</span></dd>');
  });

  it('treats a list holding a nested list as plain values, not as records', () => {
    expect(renderOptionalSection('x', 'X', [{ a: 1 }, ['b']]).value).toBe(
      '<section id="x"><h2>X</h2><ul><li><dl class="fields"><dt>a</dt><dd>1</dd></dl></li><li><ul><li>b</li></ul></li></ul></section>',
    );
  });

  it('treats a list holding a missing value as plain values, not as records', () => {
    expect(renderOptionalSection('x', 'X', [{ a: 1 }, null]).value).toBe(
      '<section id="x"><h2>X</h2><ul><li><dl class="fields"><dt>a</dt><dd>1</dd></dl></li><li><span class="muted">n/a</span></li></ul></section>',
    );
  });

  it('shows lists and tables nested three levels deep as their JSON', () => {
    expect(renderOptionalSection('x', 'X', [[['a', ['b']]]]).value).toBe(
      '<section id="x"><h2>X</h2><ul><li><ul><li><ul><li>a</li><li><code>[&quot;b&quot;]</code></li></ul></li></ul></li></ul></section>',
    );
    expect(renderOptionalSection('x', 'X', [{ a: [{ b: [{ c: { d: 1 } }] }] }]).value).toContain(
      '<th>c</th></tr></thead><tbody><tr><td><code>{&quot;d&quot;:1}</code></td>',
    );
  });

  it('shows the first 100 rows of a long table and says how many more the JSON report holds', () => {
    const rows = Array.from({ length: 103 }, (_, i) => ({ n: i }));
    const markup = renderOptionalSection('x', 'X', rows).value;
    expect(markup.match(/<tr><td>/g)).toHaveLength(100);
    expect(markup).toContain('<td>99</td>');
    expect(markup).not.toContain('<td>100</td>');
    expect(markup).toContain('<p class="muted">3 more in the JSON report.</p>');
  });

  it('shows at most 10 columns and 50 fields', () => {
    const wide = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, i]));
    expect(renderOptionalSection('x', 'X', [wide]).value.match(/<th>/g)).toHaveLength(10);
    const many = Object.fromEntries(Array.from({ length: 55 }, (_, i) => [`k${i}`, i]));
    expect(renderOptionalSection('x', 'X', many).value.match(/<dt>/g)).toHaveLength(50);
  });

  it('shows a value nested three levels deep as its JSON, cut at 300 characters', () => {
    expect(renderOptionalSection('x', 'X', { a: { b: { c: { d: '<1>' } } } }).value).toBe(
      '<section id="x"><h2>X</h2><dl class="fields"><dt>a</dt><dd><dl class="fields"><dt>b</dt><dd><dl class="fields"><dt>c</dt><dd><code>{&quot;d&quot;:&quot;&lt;1&gt;&quot;}</code></dd></dl></dd></dl></dd></dl></section>',
    );
    const deep = renderOptionalSection('x', 'X', { a: { b: { c: { d: 'z'.repeat(400) } } } }).value;
    expect(deep).toContain(`<code>{&quot;d&quot;:&quot;${'z'.repeat(293)}…</code>`);
  });
});

describe('index health rows judged against a threshold', () => {
  it('shows the rows under the threshold and folds those at or above it into a details element', () => {
    const markup = renderOptionalSection('index-health', 'Index health', {
      ann: {
        recall: 0.97,
        threshold: 0.95,
        per_query: [
          { query_id: 'q1', k: 5, recall: 1 },
          { query_id: 'q2', k: 5, recall: 0.8 },
          { query_id: 'q3', k: 5, recall: 0.95 },
        ],
      },
    }).value;
    const [shown, folded] = markup.split('<details class="passing">');
    expect(shown).toContain('<td>q2</td>');
    expect(shown).not.toContain('<td>q1</td>');
    expect(folded).toMatch(/^<summary>2 at or above 0\.95<\/summary><table>/);
    expect(folded).toContain('<td>q1</td>');
    expect(folded).toContain('<td>q3</td>');
  });

  it('says none is under the threshold when every row holds, and folds nothing when none does', () => {
    const block = (recalls: number[]) =>
      renderOptionalSection('x', 'X', {
        threshold: 0.9,
        per_query: recalls.map((recall, i) => ({ query_id: `q${i}`, recall })),
      }).value;
    expect(block([1, 0.9])).toContain(
      '<span class="muted">none under 0.9</span>\n<details class="passing"><summary>2 at or above 0.9</summary>',
    );
    expect(block([0.1, 0.2])).not.toContain('<details');
  });

  it('leaves a list alone when its block has no threshold or its rows no judged figure', () => {
    expect(renderOptionalSection('x', 'X', { per_query: [{ query_id: 'q', recall: 1 }] }).value).not.toContain(
      '<details',
    );
    expect(
      renderOptionalSection('x', 'X', { threshold: 1, rows: [{ point: 'p', cosine: 1 }, { point: 'r' }] }).value,
    ).not.toContain('<details');
  });
});

describe('renderTrend', () => {
  it('says the trend starts with the next run when only this run is on record', () => {
    expect(renderTrend([point(1)], {}).value).toBe(
      '<section id="trend"><h2>Trend</h2><p class="muted">Only this run is on record: the trend starts with the next one.</p></section>',
    );
  });

  it('draws the six headline figures over the runs, from the first to the last', () => {
    const markup = renderTrend([point(1), point(2), point(3)], {}).value;
    expect(markup).toContain('<h2>Trend over the last 3 runs</h2>');
    expect(markup).toContain('From 2026-03-11T02:00:00Z to 2026-03-13T02:00:00Z; the dashed line is the threshold.');
    expect([...markup.matchAll(/<figcaption>([^<]*)<b>([^<]*)<\/b>/g)].map((m) => `${m[1]}${m[2]}`)).toEqual([
      'Pass rate: 93%',
      'MRR: 0.8',
      'nDCG@k: 0.7',
      'Latency p95: 400 ms',
      'Missing pages: 0',
      'Orphan pages: 1',
    ]);
  });

  it('labels each point with its run time and status', () => {
    const markup = renderTrend([point(1), point(2, { status: 'FAILED', pass_rate: 40 })], {}).value;
    expect(markup).toContain('<title>2026-03-12T02:00:00Z FAILED: 40%</title>');
  });

  it('draws the pass rate on a 0–100 scale and MRR on 0–1, with their thresholds', () => {
    // y = 10 + (1 - v / max) * 70 on a fixed scale from 0
    const markup = renderTrend([point(1, { pass_rate: 50, mrr: 0.5 }), point(2, { pass_rate: 100, mrr: 1 })], {
      pass_rate: 90,
      mrr: 0.9,
      p95_latency_ms: 800,
    }).value;
    const charts = markup.split('<figure').slice(1);
    expect(charts[0]).toContain('<line x1="0" x2="260" y1="17" y2="17" class="threshold"/>');
    expect(charts[0]).toContain('<polyline points="10,45 250,10"');
    expect(charts[1]).toContain('<line x1="0" x2="260" y1="17" y2="17" class="threshold"/>');
    expect(charts[1]).toContain('<polyline points="10,45 250,10"');
    expect(charts[3]).toContain('class="threshold"');
    expect(charts[2]).not.toContain('class="threshold"');
    expect(charts[4]).not.toContain('class="threshold"');
  });

  it('dates each chart with its first and last run’s day under the line', () => {
    const charts = renderTrend([point(1), point(2), point(3)], {})
      .value.split('<figure')
      .slice(1);
    expect(charts).toHaveLength(6);
    for (const chart of charts)
      expect(
        [...chart.matchAll(/<text x="([\d.]+)" y="100" text-anchor="(\w+)" class="label date">([^<]*)</g)].map((m) =>
          m.slice(1),
        ),
      ).toEqual([
        ['10', 'start', '2026-03-11'],
        ['250', 'end', '2026-03-13'],
      ]);
    expect(charts[0]).toContain('viewBox="0 0 260 104"');
  });

  it('adds the UTC time to the dates when every run is on one day', () => {
    const markup = renderTrend(
      [point(1, { timestamp: '2026-03-11T02:05:00Z' }), point(2, { timestamp: '2026-03-11T14:30:00Z' })],
      {},
    ).value;
    expect([...(markup.split('<figure')[1] ?? '').matchAll(/class="label date">([^<]*)</g)].map((m) => m[1])).toEqual([
      '03-11 02:05',
      '03-11 14:30',
    ]);
  });

  it('draws no threshold for a figure without a criterion', () => {
    expect(renderTrend([point(1), point(2)], { coverage: 100 }).value).not.toContain('class="threshold"');
  });

  it('draws missing and orphan pages from zero up', () => {
    // max is the highest value (4): y(0) = 80, y(4) = 10
    const markup = renderTrend([point(1, { missing_pages: 4 }), point(2, { missing_pages: 4 })], {}).value;
    const missing = markup.split('<figure')[5] ?? '';
    expect(missing).toContain('<polyline points="10,10 250,10"');
  });
});
