/** The HTML report's coverage and metadata quality: missing and orphan URLs, completeness per field, distributions. */
import { describe, expect, it } from 'vitest';
import { renderIndex } from '../../../../functions/core/render/html/index-section.ts';
import type { ValidationReport } from '../../../../functions/core/report/report.ts';
import { buildErrorReport, buildFailedReport, buildPassedReport } from '../../../nightly/fixtures/reports.ts';

/** The report's coverage and quality sections, which the fixtures always fill. */
function coverageOf(report: ValidationReport) {
  if (report.coverage_report === null) throw new Error('fixture has no coverage');
  return report.coverage_report;
}

function section(markup: string, id: string): string {
  return markup.split(`<section id="${id}">`)[1]?.split('</section>')[0] ?? '';
}

describe('renderIndex', () => {
  it('says coverage and quality were not computed when the run stopped before them', () => {
    const markup = renderIndex(buildErrorReport()).value;
    expect(section(markup, 'coverage')).toBe(
      '<h2>Coverage</h2>\n<p class="muted">Not computed (the run stopped before coverage).</p>',
    );
    expect(section(markup, 'quality')).toBe(
      '<h2>Metadata quality</h2>\n<p class="muted">Not computed (the run stopped before quality).</p>',
    );
  });

  it('heads coverage with the share of sitemap pages indexed and says how it was matched', () => {
    const coverage = section(renderIndex(buildFailedReport()).value, 'coverage');
    expect(coverage).toContain('<h2>Coverage: 7.41% of 27 sitemap pages indexed</h2>');
    expect(coverage).toContain(
      '<p class="muted">Sitemap <a class="url" href="https://book.example.org/sitemap.xml" rel="noopener noreferrer nofollow" target="_blank">https://book.example.org/sitemap.xml</a> · prefix /docs/ · matched by url · 4 distinct URLs in the index</p>',
    );
  });

  it('lists the missing and orphan URLs with their counts', () => {
    const coverage = section(renderIndex(buildFailedReport()).value, 'coverage');
    expect(coverage).toContain(
      '<h3>Missing (in the sitemap, not indexed): 25</h3><ul class="urls"><li><a class="url" href="https://book.example.org/docs/module-4/ch1"',
    );
    expect(coverage).toContain('<h3>Orphans (indexed, not in the sitemap): 2</h3>');
    expect(coverage.match(/<li>/g)).toHaveLength(27);
    expect(coverage).toContain('/docs/module-4/ch25</a></li></ul></div>');
  });

  it('says none when nothing is missing or orphaned', () => {
    const coverage = section(renderIndex(buildPassedReport()).value, 'coverage');
    expect(coverage).toContain('<h3>Missing (in the sitemap, not indexed): 0</h3><p class="muted">None.</p>');
    expect(coverage).toContain('<h3>Orphans (indexed, not in the sitemap): 0</h3><p class="muted">None.</p>');
  });

  it('shows the first 100 URLs of a list and says how many more the JSON report holds', () => {
    const report = buildFailedReport();
    const missing = (n: number) => Array.from({ length: n }, (_, i) => `https://book.example.org/docs/p${i}`);
    const over: ValidationReport = {
      ...report,
      coverage_report: {
        ...coverageOf(report),
        missing_urls: missing(102),
        extra_urls: missing(100),
        missing_count: 102,
        extra_count: 100,
      },
    };
    const coverage = section(renderIndex(over).value, 'coverage');
    expect(coverage.match(/<li>/g)).toHaveLength(200);
    expect(coverage.match(/more in the JSON report/g)).toEqual(['more in the JSON report']);
    expect(coverage).toContain('<p class="muted">2 more in the JSON report.</p>');
  });

  it('counts a cut list whole and says which file beside the report holds all of it', () => {
    const report = buildFailedReport();
    const missing = (n: number) => Array.from({ length: n }, (_, i) => `https://book.example.org/docs/p${i}`);
    const cut: ValidationReport = {
      ...report,
      coverage_report: {
        ...coverageOf(report),
        missing_urls: missing(100),
        missing_count: 50_000,
        full_url_lists: '.urls.json.gz',
      },
    };
    const coverage = section(renderIndex(cut).value, 'coverage');
    expect(coverage).toContain('Missing (in the sitemap, not indexed): 50000');
    expect(coverage).toContain('49900 more in the file beside this report ending .urls.json.gz');
  });

  it('shows each coverage note, escaped', () => {
    const report = buildPassedReport();
    const noted = { ...report, coverage_report: { ...coverageOf(report), notes: ['<b>2</b> URLs outside /docs/'] } };
    expect(renderIndex(noted).value).toContain('<p class="note">&lt;b&gt;2&lt;/b&gt; URLs outside /docs/</p>');
  });

  it('heads quality with the share of complete chunks and charts each field, red with its missing count', () => {
    const report = buildFailedReport();
    const quality = report.quality_metrics;
    if (quality === null) throw new Error('fixture has no quality metrics');
    quality.field_completeness = [
      { field: 'source_url', present: 40, missing: 0, completeness_rate: 100 },
      { field: 'chapter_id', present: 39, missing: 1, completeness_rate: 97.5 },
    ];
    const markup = section(renderIndex(report).value, 'quality');
    expect(markup).toContain('<h2>Metadata quality: 97.5% of 40 chunks complete</h2>');
    expect(markup).toContain('<title>Completeness per required field (%)</title>');
    expect([...markup.matchAll(/class="(bar[^"]*)"/g)].map((m) => m[1])).toEqual(['bar good', 'bar bad', 'bar', 'bar']);
    expect(markup).toContain('>100%</text>');
    expect(markup).toContain('>97.5% (1 missing)</text>');
  });

  it('draws the token and similarity distributions', () => {
    const quality = section(renderIndex(buildPassedReport()).value, 'quality');
    expect(quality).toContain('<title>Tokens per chunk</title>');
    expect(quality).toContain('>median 290</text>');
    expect(quality).toContain('<title>Similarity of retrieved chunks</title>');
    expect(quality).toContain('>p95 0.9</text>');
  });
});
