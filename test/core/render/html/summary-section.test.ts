/** The top of the HTML report: the verdict, the success criteria against their thresholds, and the findings. */
import { describe, expect, it } from 'vitest';
import { html } from '../../../../functions/core/render/html/escape.ts';
import { criterionValue, renderErrors, renderSummary } from '../../../../functions/core/render/html/summary-section.ts';
import type { CriterionResult, ValidationError } from '../../../../functions/core/report/findings.ts';
import type { ValidationReport } from '../../../../functions/core/report/report.ts';
import { buildErrorReport, buildFailedReport, buildPassedReport } from '../../../nightly/fixtures/reports.ts';

function criterion(overrides: Partial<CriterionResult>): CriterionResult {
  return {
    name: 'pass_rate',
    description: '',
    value: 40,
    threshold: 90,
    comparator: '>=',
    passed: false,
    severity: 'CRITICAL',
    ...overrides,
  };
}

function finding(severity: ValidationError['severity'], message: string): ValidationError {
  return { id: `e-${message}`, validation_id: 'run-1', error_type: 'LOW_RELEVANCE', message, severity, details: {} };
}

/** The table rows of the criteria section, one string each. */
function criteriaRows(report: ValidationReport): string[] {
  return renderSummary(report).value.match(/<tr class="(?:ok|breach)">[\s\S]*?<\/tr>/g) ?? [];
}

describe('criterionValue', () => {
  it('gives a latency figure milliseconds, a rate or a coverage a percent sign, and anything else no unit', () => {
    expect(criterionValue(criterion({ name: 'max_p95_latency_ms' }), 812.345)).toBe('812.35 ms');
    expect(criterionValue(criterion({ name: 'Search_Latency' }), 5)).toBe('5 ms');
    expect(criterionValue(criterion({ name: 'pass_rate' }), 87.5)).toBe('87.5%');
    expect(criterionValue(criterion({ name: 'coverage' }), 100)).toBe('100%');
    expect(criterionValue(criterion({ name: 'metadata_Completeness' }), 97.5)).toBe('97.5%');
    expect(criterionValue(criterion({ name: 'claim_support_percent' }), 95)).toBe('95%');
    expect(criterionValue(criterion({ name: 'min_mrr' }), 0.8)).toBe('0.8');
  });

  it('says n/a for a figure that could not be computed', () => {
    expect(criterionValue(criterion({ name: 'pass_rate' }), null)).toBe('n/a');
  });
});

describe('renderSummary', () => {
  it('says every criterion holds on a passed run, with the verdict as the badge and the banner colour', () => {
    const markup = renderSummary(buildPassedReport()).value;
    expect(markup).toContain('<header class="verdict passed">\n<div class="badge">PASSED</div>');
    expect(markup).toContain('<h1>prod/book: Every success criterion holds</h1>');
    expect(markup).toContain('<p class="reason">every success criterion holds</p>');
  });

  it('counts the breached criteria of a failed run in its headline', () => {
    const report = buildFailedReport();
    const breached = report.success_criteria.filter((c) => !c.passed).length;
    expect(renderSummary(report).value).toContain(
      `<h1>prod/book: ${breached} of ${report.success_criteria.length} success criteria breached</h1>`,
    );
  });

  it('says the run could not complete on an error run, whatever its criteria', () => {
    const markup = renderSummary(buildErrorReport()).value;
    expect(markup).toContain('<header class="verdict error">');
    expect(markup).toContain('<h1>prod/book: The run could not complete</h1>');
  });

  it('says what the run was: its id, start, duration, suite, query count and model', () => {
    expect(renderSummary(buildPassedReport()).value).toContain(
      '<p class="meta">Run 6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b · started 2026-03-14T02:00:00.000Z · 42.5 s · suite golden-queries (10 queries) · model embed-english-v3.0</p>',
    );
  });

  it('cuts a long status reason at 600 characters and escapes it', () => {
    const report = { ...buildPassedReport(), status_reason: `<b>${'x'.repeat(700)}` };
    expect(renderSummary(report).value).toContain(`<p class="reason">&lt;b&gt;${'x'.repeat(596)}…</p>`);
  });

  it('marks a breached criterion with its value, comparator, threshold and severity', () => {
    const report = { ...buildPassedReport(), success_criteria: [criterion({ description: 'Share of queries (%)' })] };
    expect(criteriaRows(report)).toEqual([
      '<tr class="breach"><td class="mark">✘</td><td>Share of queries (%)</td>\n<td class="num">40%</td><td class="num">&gt;= 90%</td><td>CRITICAL</td></tr>',
    ]);
  });

  it('ticks a criterion that holds, names it from its key when it has no description, and shows no severity', () => {
    const report = {
      ...buildPassedReport(),
      success_criteria: [
        criterion({
          name: 'max_p95_latency_ms',
          value: 300,
          threshold: 500,
          comparator: '<=',
          passed: true,
          severity: 'HIGH',
        }),
      ],
    };
    expect(criteriaRows(report)).toEqual([
      '<tr class="ok"><td class="mark">✔</td><td>max p95 latency ms</td>\n<td class="num">300 ms</td><td class="num">&lt;= 500 ms</td><td></td></tr>',
    ]);
  });

  it('shows a criterion that could not be computed as not evaluated: no figure, no severity, no ✘', () => {
    const report = buildErrorReport();
    const markup = renderSummary(report).value;
    expect(markup).toContain(
      '<tr class="unjudged"><td class="mark">–</td><td>pass_rate must be &gt;= 90</td>\n<td class="num">not evaluated (its input could not be read)</td><td class="num">&gt;= 90%</td><td></td></tr>',
    );
    expect(markup).not.toContain('CRITICAL');
  });

  it('shows a pass rate of 0 as not evaluated when no query completed, and as a breach once one did', () => {
    // Every query errored: the criterion's 0 is a count of errors, not a measurement.
    const errored = { ...buildErrorReport(), success_criteria: [criterion({ value: 0 })] };
    expect(criteriaRows(errored)).toEqual([]);
    expect(renderSummary(errored).value).toContain('not evaluated (no query completed)');
    // One query judged (and failed): the same 0 is now a measured breach.
    const judged = { ...errored, failed_queries: 1, error_queries: errored.error_queries - 1 };
    expect(criteriaRows(judged)).toEqual([
      '<tr class="breach"><td class="mark">✘</td><td>pass rate</td>\n<td class="num">0%</td><td class="num">&gt;= 90%</td><td>CRITICAL</td></tr>',
    ]);
  });

  it('counts not-evaluated criteria apart from breached ones in the headline', () => {
    const report = {
      ...buildFailedReport(),
      success_criteria: [criterion({}), criterion({ name: 'coverage', value: null })],
    };
    expect(renderSummary(report).value).toContain(
      '<h1>prod/book: 1 of 2 success criteria breached, 1 not evaluated</h1>',
    );
  });

  it('folds the criteria that hold into a details element when another is breached or not evaluated', () => {
    const report = {
      ...buildFailedReport(),
      success_criteria: [
        criterion({ name: 'coverage', value: 100, threshold: 100, passed: true }),
        criterion({}),
        criterion({ name: 'completeness', value: 100, threshold: 100, passed: true }),
      ],
    };
    const [shown, folded] = renderSummary(report).value.split(
      '<details class="passing"><summary>2 criteria hold</summary>',
    );
    expect(shown).toContain('<tr class="breach">');
    expect(shown).not.toContain('<tr class="ok">');
    expect(folded?.match(/<tr class="ok">/g)).toHaveLength(2);
    expect(folded).not.toContain('<tr class="breach">');
  });

  it('shows the criteria in one open table when every one holds', () => {
    const markup = renderSummary(buildPassedReport()).value;
    expect(markup).not.toContain('<details');
    expect(markup.match(/<tr class="ok">/g)).toHaveLength(buildPassedReport().success_criteria.length);
  });

  it('puts what it is given between the verdict and the criteria', () => {
    const markup = renderSummary(buildPassedReport(), html`<section id="act-first"></section>`).value;
    expect(markup).toMatch(/<\/header>\n<section id="act-first"><\/section>\n<section id="criteria">/);
  });

  it('says no criterion was evaluated when there is none', () => {
    const markup = renderSummary({ ...buildPassedReport(), success_criteria: [] }).value;
    expect(markup).toContain('<p class="muted">No criterion was evaluated.</p>');
    expect(markup).not.toContain('<table>');
  });
});

describe('renderErrors', () => {
  it('renders nothing when the run found nothing', () => {
    expect(renderErrors(buildPassedReport()).value).toBe('');
  });

  it('lists every finding, most severe first, with its type, subject and message', () => {
    const report = {
      ...buildPassedReport(),
      errors: [finding('LOW', 'l'), finding('MEDIUM', 'm'), finding('CRITICAL', 'c'), finding('HIGH', 'h')],
    };
    const markup = renderErrors(report).value;
    expect(markup).toContain('<h2>Findings (4)</h2>');
    expect(
      [
        ...markup.matchAll(/<td class="sev (\w+)">(\w+)<\/td><td>LOW_RELEVANCE<\/td><td>run-1<\/td><td>(\w)<\/td>/g),
      ].map((m) => m.slice(1)),
    ).toEqual([
      ['critical', 'CRITICAL', 'c'],
      ['high', 'HIGH', 'h'],
      ['medium', 'MEDIUM', 'm'],
      ['low', 'LOW', 'l'],
    ]);
  });

  it('says "run" for a finding about the run itself, and the query id for a query’s', () => {
    const report = buildPassedReport();
    const markup = renderErrors({
      ...report,
      errors: [
        { ...finding('HIGH', 'r'), validation_id: report.run_id },
        { ...finding('LOW', 'q'), validation_id: 'q7' },
      ],
    }).value;
    expect(markup).toContain('<td>LOW_RELEVANCE</td><td>run</td><td>r</td>');
    expect(markup).toContain('<td>LOW_RELEVANCE</td><td>q7</td><td>q</td>');
    expect(markup).not.toContain(report.run_id);
  });

  it('renders a single finding as the whole section, with nothing about more', () => {
    expect(renderErrors({ ...buildPassedReport(), errors: [finding('HIGH', 'm')] }).value).toBe(
      `<section id="errors"><h2>Findings (1)</h2>
<table><thead><tr><th>severity</th><th>type</th><th>about</th><th>message</th></tr></thead><tbody>
<tr><td class="sev high">HIGH</td><td>LOW_RELEVANCE</td><td>run-1</td><td>m</td></tr></tbody></table></section>`,
    );
  });

  it('cuts the subject at 60 and the message at 400 characters, escaping both', () => {
    const long = { ...finding('HIGH', `<i>${'m'.repeat(500)}`), validation_id: `<q>${'v'.repeat(100)}` };
    const markup = renderErrors({ ...buildPassedReport(), errors: [long] }).value;
    expect(markup).toContain(`<td>&lt;q&gt;${'v'.repeat(56)}…</td><td>&lt;i&gt;${'m'.repeat(396)}…</td>`);
  });

  it('shows the first 200 findings and says how many more the JSON report holds', () => {
    const errors = Array.from({ length: 203 }, (_, i) => finding('LOW', `f${i}`));
    const markup = renderErrors({ ...buildPassedReport(), errors }).value;
    expect(markup.match(/<td class="sev low">/g)).toHaveLength(200);
    expect(markup).toContain('<p class="muted">3 more in the JSON report.</p>');
  });

  it('says nothing about more findings when there are exactly 200', () => {
    const errors = Array.from({ length: 200 }, (_, i) => finding('LOW', `f${i}`));
    const markup = renderErrors({ ...buildPassedReport(), errors }).value;
    expect(markup.match(/<td class="sev low">/g)).toHaveLength(200);
    expect(markup).not.toContain('more in the JSON report');
  });
});

describe('renderSummary: queries set aside', () => {
  it('names them beside the count of queries run, and says nothing when none is', () => {
    const base = buildPassedReport();
    const aside: ValidationReport = {
      ...base,
      suite: { ...base.suite, set_aside: [{ id: 'wrong-page', reason: 'calibrate: not in its top 5' }] },
    };
    expect(renderSummary(aside).value).toContain(`(${base.suite.query_count} queries, 1 set aside: wrong-page)`);
    expect(renderSummary(base).value).toContain(`(${base.suite.query_count} queries)`);
  });
});
