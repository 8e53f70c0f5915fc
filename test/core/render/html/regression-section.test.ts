/** The HTML report's "what changed since the baseline": each finding against its usual band, recoveries, stale queries. */
import { describe, expect, it } from 'vitest';
import { renderRegression } from '../../../../functions/core/render/html/regression-section.ts';
import type { RegressionReport } from '../../../../functions/core/report/regression-report.ts';
import { buildMrrDrop, buildRegression } from '../../../nightly/fixtures/reports.ts';

function regression(overrides: Partial<RegressionReport> = {}): RegressionReport {
  return buildRegression({
    note: 'compared with 2 healthy runs',
    baseline_runs: [
      { run_id: 'r-2', status: 'PASSED', started_at: '2026-03-13T02:00:00Z', location: 's3://b/r-2.json' },
      { run_id: 'r-1', status: 'PASSED', started_at: '2026-03-12T02:00:00Z', location: 's3://b/r-1.json' },
    ],
    ...overrides,
  });
}

describe('renderRegression', () => {
  it('renders nothing for a report the comparison has not seen', () => {
    expect(renderRegression(undefined).value).toBe('');
  });

  it('says nothing moved when the comparison found no change, and names the baseline oldest to newest', () => {
    const markup = renderRegression(regression()).value;
    expect(markup).toContain('<h2>What changed since the baseline: 0 change(s)</h2>');
    expect(markup).toContain(
      '<p class="muted">compared with 2 healthy runs · baseline of 2 run(s) from 2026-03-12T02:00:00Z to 2026-03-13T02:00:00Z</p>',
    );
    expect(markup).toContain('<p>Nothing moved beyond its usual band.</p>');
    expect(markup).not.toContain('<table>');
  });

  it('counts no change and claims no stability when there was no baseline to compare with', () => {
    const markup = renderRegression(regression({ compared: false, note: 'no baseline yet', baseline_runs: [] })).value;
    expect(markup).toContain('<h2>What changed since the baseline</h2>');
    expect(markup).toContain('<p class="muted">no baseline yet</p>');
    expect(markup).toContain('<p></p>');
    expect(markup).not.toContain('Nothing moved');
  });

  it('lists the findings most severe first, each with its figure against baseline ± band and who should act', () => {
    const markup = renderRegression(
      regression({
        findings: [
          buildMrrDrop({ severity: 'LOW', kind: 'SIMILARITY_DROPPED', message: 'low one' }),
          buildMrrDrop({ severity: 'CRITICAL', kind: 'QUERY_REGRESSED', query_id: 'q-<7>', message: 'critical one' }),
          buildMrrDrop({ severity: 'MEDIUM', message: 'medium one', addressed_to: 'suite maintainer' }),
        ],
      }),
    ).value;
    const rows = markup.match(/<tr><td class="sev[\s\S]*?<\/tr>/g) ?? [];
    expect(rows).toEqual([
      '<tr><td class="sev critical">CRITICAL</td><td>QUERY_REGRESSED<br><span class="muted">q-&lt;7&gt;</span></td>\n<td>critical one</td>\n<td class="num">0.61</td><td class="num">0.9 ± 0.05</td><td>operations</td></tr>',
      '<tr><td class="sev medium">MEDIUM</td><td>METRIC_DROPPED</td>\n<td>medium one</td>\n<td class="num">0.61</td><td class="num">0.9 ± 0.05</td><td>suite maintainer</td></tr>',
      '<tr><td class="sev low">LOW</td><td>SIMILARITY_DROPPED</td>\n<td>low one</td>\n<td class="num">0.61</td><td class="num">0.9 ± 0.05</td><td>operations</td></tr>',
    ]);
    expect(markup).toContain('<h2>What changed since the baseline: 3 change(s)</h2>');
  });

  it('shows a baseline without a band, and n/a for a figure or a baseline that could not be computed', () => {
    const markup = renderRegression(
      regression({ findings: [buildMrrDrop({ band: null }), buildMrrDrop({ value: null, baseline: null })] }),
    ).value;
    expect(markup).toContain('<td class="num">0.61</td><td class="num">0.9</td>');
    expect(markup).toContain('<td class="num">n/a</td><td class="num">n/a</td>');
  });

  it('links the first five URLs of a finding and cuts its message at 400 characters', () => {
    const urls = Array.from({ length: 7 }, (_, i) => `https://book.example.org/docs/p${i}`);
    const markup = renderRegression(regression({ findings: [buildMrrDrop({ urls, message: 'x'.repeat(450) })] })).value;
    expect(markup).toContain(`<td>${'x'.repeat(399)}…<br><a class="url" href="https://book.example.org/docs/p0"`);
    expect(markup.match(/<a class="url"/g)).toHaveLength(5);
    expect(markup).not.toContain('p5');
  });

  it('names the recovered and the stale golden queries', () => {
    const markup = renderRegression(
      regression({ recovered_queries: ['q-1', 'q-2'], stale_queries: ['q-9', 'q-10'] }),
    ).value;
    expect(markup).toContain('<p><b>Recovered</b> (failed in the baseline, pass now): q-1, q-2</p>');
    expect(markup).toContain(
      '<p><b>Stale golden queries</b> (their expected page left the sitemap; not counted as retrieval failures): q-9, q-10</p>',
    );
  });

  it('leaves out recoveries, stale queries and the score shift when there are none', () => {
    expect(renderRegression(regression()).value).toBe(
      `<section id="regression"><h2>What changed since the baseline: 0 change(s)</h2>
<p class="muted">compared with 2 healthy runs · baseline of 2 run(s) from 2026-03-12T02:00:00Z to 2026-03-13T02:00:00Z</p>
<p>Nothing moved beyond its usual band.</p>



</section>`,
    );
  });

  it('names the baseline from its oldest run to its newest, whatever its length', () => {
    const run = (day: number) => ({
      run_id: `r-${day}`,
      status: 'PASSED' as const,
      started_at: `2026-03-${day}T02:00:00Z`,
      location: `s3://b/r-${day}.json`,
    });
    expect(renderRegression(regression({ baseline_runs: [run(13), run(12), run(11)] })).value).toContain(
      'baseline of 3 run(s) from 2026-03-11T02:00:00Z to 2026-03-13T02:00:00Z',
    );
  });

  it('shows the similarity distribution shift against the baseline', () => {
    const markup = renderRegression(
      regression({
        score_shift: {
          test: 'two-sample Kolmogorov-Smirnov',
          statistic: 0.41234,
          p_value: 0.012345,
          sample_sizes: [20, 140],
          median_shift: -0.0625,
        },
      }),
    ).value;
    expect(markup).toContain(
      '<p class="muted">Similarity distribution vs baseline: KS D = 0.412, p = 0.0123, median shift -0.063</p>',
    );
  });
});
