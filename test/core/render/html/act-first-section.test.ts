/**
 * "Act on this first": the findings by type, most severe first, each with one line of what to do, a docs link and a
 * link to its detail in the report; a breached criterion only when nothing explains it.
 */
import { describe, expect, it } from 'vitest';
import { FINDING_ACTIONS } from '../../../../functions/core/render/finding-actions.ts';
import {
  ACT_FIRST_LIMIT,
  groupFindings,
  renderActFirst,
} from '../../../../functions/core/render/html/act-first-section.ts';
import type { ErrorType, Severity, ValidationError } from '../../../../functions/core/report/findings.ts';
import { emptyIndexHealth } from '../../../../functions/core/report/index-health-report.ts';
import type { ValidationReport } from '../../../../functions/core/report/report.ts';
import { buildErrorReport, buildPassedReport, RUN_ID } from '../../../nightly/fixtures/reports.ts';

let n = 0;
function finding(error_type: ErrorType, severity: Severity, about = RUN_ID, message = 'm'): ValidationError {
  n += 1;
  return { id: `e-${n}`, validation_id: about, error_type, message, severity, details: {} };
}

function withErrors(errors: ValidationError[]): ValidationReport {
  return { ...buildPassedReport(), status: 'FAILED', errors };
}

/** The types of the listed groups, in order, as the page shows them. */
function listed(markup: string): string[] {
  return [...markup.matchAll(/<li><span class="sev \w+">(\w+)<\/span> <b>(\w+)<\/b>/g)].map((m) => `${m[1]} ${m[2]}`);
}

describe('groupFindings', () => {
  it('groups by type, most severe first, the larger group first at one severity, then by name', () => {
    const groups = groupFindings([
      finding('LOW_RELEVANCE', 'MEDIUM', 'q1'),
      finding('STALE_PAGES', 'MEDIUM'),
      finding('LOW_RELEVANCE', 'MEDIUM', 'q2'),
      finding('ORPHAN_URLS', 'LOW'),
      finding('EMBEDDING_DRIFT', 'CRITICAL'),
      finding('COVERAGE_GAP', 'MEDIUM'),
      finding('MIXED_MODELS', 'HIGH'),
    ]);
    expect(groups.map((g) => [g.severity, g.type, g.findings.length])).toEqual([
      ['CRITICAL', 'EMBEDDING_DRIFT', 1],
      ['HIGH', 'MIXED_MODELS', 1],
      ['MEDIUM', 'LOW_RELEVANCE', 2],
      ['MEDIUM', 'COVERAGE_GAP', 1],
      ['MEDIUM', 'STALE_PAGES', 1],
      ['LOW', 'ORPHAN_URLS', 1],
    ]);
  });

  it('gives a group the severity of its most severe finding and lists that finding first', () => {
    const [group] = groupFindings([
      finding('ANN_RECALL_LOW', 'MEDIUM', RUN_ID, 'some'),
      finding('ANN_RECALL_LOW', 'HIGH', RUN_ID, 'overall'),
    ]);
    expect(group?.severity).toBe('HIGH');
    expect(group?.findings.map((f) => f.message)).toEqual(['overall', 'some']);
  });

  it('leaves breached criteria out when another finding explains them, and keeps them when none does', () => {
    const breach = finding('CRITERION_BREACHED', 'CRITICAL');
    expect(groupFindings([breach, finding('LOW_RELEVANCE', 'MEDIUM', 'q1')]).map((g) => g.type)).toEqual([
      'LOW_RELEVANCE',
    ]);
    expect(groupFindings([breach]).map((g) => g.type)).toEqual(['CRITERION_BREACHED']);
  });
});

describe('renderActFirst', () => {
  it('says there is nothing to do on a run without findings', () => {
    expect(renderActFirst(buildPassedReport()).value).toBe(
      '<section id="act-first" class="act"><h2>Act on this first</h2><p>Nothing: no finding in this run, every criterion holds.</p></section>',
    );
  });

  it('shows the first groups by severity and says how many kinds more the findings table holds', () => {
    const types: ErrorType[] = ['COVERAGE_GAP', 'ORPHAN_URLS', 'STALE_PAGES', 'MIXED_MODELS', 'LOW_PRECISION'];
    const errors = [
      ...types.map((t) => finding(t, 'MEDIUM')),
      finding('INDEX_ANOMALY', 'HIGH', 'q3'),
      finding('EMBEDDING_DRIFT', 'CRITICAL'),
    ];
    const markup = renderActFirst(withErrors(errors)).value;
    expect(listed(markup)).toEqual([
      'CRITICAL EMBEDDING_DRIFT',
      'HIGH INDEX_ANOMALY',
      'MEDIUM COVERAGE_GAP',
      'MEDIUM LOW_PRECISION',
      'MEDIUM MIXED_MODELS',
    ]);
    expect(listed(markup)).toHaveLength(ACT_FIRST_LIMIT);
    expect(markup).toContain('<p class="muted">2 more kind(s) of finding under <a href="#errors">Findings</a>.</p>');
  });

  it('says nothing about more when every group is shown', () => {
    const markup = renderActFirst(withErrors([finding('COVERAGE_GAP', 'MEDIUM')])).value;
    expect(markup).not.toContain('more kind(s)');
    expect(markup).toMatch(/<\/ol>\n\n<\/section>$/);
  });

  it('gives each group its most severe message, what to do, and whom it is about: "run" or the queries', () => {
    const markup = renderActFirst(
      withErrors([
        finding('COVERAGE_GAP', 'MEDIUM', RUN_ID, '1 of 14 sitemap pages is not indexed'),
        ...['q1', 'q2', 'q3', 'q4', 'q5'].map((q) => finding('LOW_RELEVANCE', 'MEDIUM', q, `best similarity of ${q}`)),
      ]),
    ).value;
    expect(markup).toContain(
      `<b>COVERAGE_GAP</b> <span class="muted">· run</span>\n<div class="what">1 of 14 sitemap pages is not indexed</div>\n<div class="do"><b>Do:</b> ${FINDING_ACTIONS.COVERAGE_GAP.action}`,
    );
    expect(markup).toContain(
      '<b>LOW_RELEVANCE</b> <span class="muted">· 5 findings: q1, q2, q3, q4, …</span>\n<div class="what">best similarity of q1</div>',
    );
  });

  it('links the docs section under the docs root, and shows it as text without one or with a root not http(s) or file', () => {
    const report = withErrors([finding('ORPHAN_URLS', 'LOW')]);
    expect(renderActFirst(report, 'https://example.org/ragwatch/blob/main/').value).toContain(
      '<a class="docs" href="https://example.org/ragwatch/blob/main/README.md#indexing-and-what-each-point-carries" title="README.md#indexing-and-what-each-point-carries" rel="noopener noreferrer" target="_blank">docs: README.md</a>',
    );
    expect(renderActFirst(report, 'file:///opt/ragwatch').value).toContain(
      'href="file:///opt/ragwatch/README.md#indexing-and-what-each-point-carries"',
    );
    for (const root of [undefined, 'javascript:alert(1)//']) {
      const markup = renderActFirst(report, root).value;
      expect(markup).toContain('<span class="muted">docs: README.md § indexing-and-what-each-point-carries</span>');
      expect(markup).not.toContain('class="docs"');
    }
  });

  it('links each group to the part of the report that holds its detail, the findings table when that part is absent', () => {
    const errors = [
      finding('EMBEDDING_DRIFT', 'CRITICAL'),
      finding('UNSUPPORTED_CLAIM', 'HIGH', 'a1'),
      finding('LOW_RELEVANCE', 'MEDIUM', 'q1'),
      finding('ORPHAN_URLS', 'LOW'),
      finding('TIMEOUT', 'LOW'),
    ];
    const details = (r: ValidationReport) =>
      [...renderActFirst(r).value.matchAll(/<a href="#([\w-]+)">details<\/a>/g)].map((m) => m[1]);
    expect(details(withErrors(errors))).toEqual(['errors', 'errors', 'queries', 'coverage', 'errors']);
    const full = { ...withErrors(errors), index_health: emptyIndexHealth() };
    expect(details(full)).toEqual(['index-health', 'errors', 'queries', 'coverage', 'errors']);
  });

  it('escapes what the findings say and about whom', () => {
    const markup = renderActFirst(
      withErrors([finding('LOW_RELEVANCE', 'HIGH', '<q>', '<script>alert(1)</script>')]),
    ).value;
    expect(markup).toContain('· &lt;q&gt;</span>');
    expect(markup).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(markup).not.toContain('<script>');
  });

  it('puts the run error of an ERROR run first', () => {
    expect(listed(renderActFirst(buildErrorReport()).value)).toEqual(['CRITICAL RUN_FAILED']);
  });

  it('says only that there is no finding on a run that did not pass', () => {
    expect(renderActFirst({ ...buildPassedReport(), status: 'FAILED', errors: [] }).value).toContain(
      '<p>Nothing: no finding in this run.</p>',
    );
  });

  it("says how many of a group are of which severity when they differ, so the badge is not read as every finding's", () => {
    // The demo's METADATA_MISMATCH: a query not searched (HIGH) and a stale expectation (MEDIUM).
    const mixed = renderActFirst(
      withErrors([
        finding('METADATA_MISMATCH', 'MEDIUM', 'stale-expectation'),
        finding('METADATA_MISMATCH', 'HIGH', 'missing-module'),
      ]),
    ).value;
    expect(mixed).toContain(
      '<span class="sev high">HIGH</span> <b>METADATA_MISMATCH</b> <span class="muted">· 2 findings: 1 HIGH (missing-module), 1 MEDIUM (stale-expectation)</span>',
    );
    const many = renderActFirst(
      withErrors([
        ...['q1', 'q2', 'q3', 'q4', 'q5'].map((q) => finding('LOW_RELEVANCE', 'MEDIUM', q)),
        finding('LOW_RELEVANCE', 'LOW', 'q6'),
        finding('LOW_RELEVANCE', 'CRITICAL', 'q7'),
      ]),
    ).value;
    expect(many).toContain('· 7 findings: 1 CRITICAL (q7), 5 MEDIUM (q1, q2, q3, …), 1 LOW (q6)</span>');
    // Three subjects of one severity are all named, with no ellipsis.
    const three = renderActFirst(
      withErrors([
        ...['q1', 'q2', 'q3'].map((q) => finding('LOW_RELEVANCE', 'MEDIUM', q)),
        finding('LOW_RELEVANCE', 'HIGH', 'q4'),
      ]),
    ).value;
    expect(three).toContain('· 4 findings: 1 HIGH (q4), 3 MEDIUM (q1, q2, q3)</span>');
    // Two findings about the run itself, of two severities: counted, not shown as one "run".
    expect(
      renderActFirst(withErrors([finding('ANN_RECALL_LOW', 'MEDIUM'), finding('ANN_RECALL_LOW', 'HIGH')])).value,
    ).toContain('· 2 findings: 1 HIGH (run), 1 MEDIUM (run)</span>');
    // One severity: the badge says it; the subjects as before.
    const same = renderActFirst(
      withErrors([finding('UNSUPPORTED_CLAIM', 'HIGH', 'a1'), finding('UNSUPPORTED_CLAIM', 'HIGH', 'a2')]),
    ).value;
    expect(same).toContain('· 2 findings: a1, a2</span>');
    // Several findings about one subject are counted too, not shown as one.
    expect(
      renderActFirst(
        withErrors([finding('UNSUPPORTED_CLAIM', 'HIGH', 'a1'), finding('UNSUPPORTED_CLAIM', 'HIGH', 'a1')]),
      ).value,
    ).toContain('· 2 findings: a1</span>');
    expect(same).not.toMatch(/\d (CRITICAL|HIGH|MEDIUM|LOW) \(/);
  });

  it('names up to four subjects without an ellipsis, and marks the severity in lower case for the style', () => {
    const markup = renderActFirst(
      withErrors(['q1', 'q2', 'q3', 'q4'].map((q) => finding('LOW_RELEVANCE', 'CRITICAL', q))),
    ).value;
    expect(markup).toContain('<li><span class="sev critical">CRITICAL</span>');
    expect(markup).toContain('· 4 findings: q1, q2, q3, q4</span>');
  });

  it('takes an http or upper-case root, trims its trailing slashes, and refuses one that only contains a URL', () => {
    const report = withErrors([finding('ORPHAN_URLS', 'LOW')]);
    const href = (root: string) => /class="docs" href="([^"]*)"/.exec(renderActFirst(report, root).value)?.[1];
    expect(href('http://intranet/ragwatch//')).toBe(
      'http://intranet/ragwatch/README.md#indexing-and-what-each-point-carries',
    );
    expect(href('HTTPS://git.internal/r')).toBe(
      'HTTPS://git.internal/r/README.md#indexing-and-what-each-point-carries',
    );
    expect(href('see https://git.internal/r')).toBeUndefined();
  });

  it('sends each kind of finding to the part of the report that details it', () => {
    const full: ValidationReport = {
      ...withErrors([]),
      index_health: emptyIndexHealth(),
      // Only its presence matters here: the section it renders exists.
      grounding_report: {} as NonNullable<ValidationReport['grounding_report']>,
    };
    const section = (type: ErrorType) =>
      /<a href="#([\w-]+)">details<\/a>/.exec(renderActFirst({ ...full, errors: [finding(type, 'HIGH')] }).value)?.[1];
    const expected: Partial<Record<ErrorType, string>> = {
      COVERAGE_GAP: 'coverage',
      ORPHAN_URLS: 'coverage',
      SITEMAP_TRUNCATED: 'coverage',
      SITEMAP_URL_REFUSED: 'coverage',
      INCOMPLETE_METADATA: 'quality',
      SMALL_CHUNKS: 'quality',
      STALE_CHUNKS: 'index-health',
      MISSING_CHUNKS: 'index-health',
      STALE_PAGES: 'index-health',
      MIXED_MODELS: 'index-health',
      EMBEDDING_DRIFT: 'index-health',
      ANN_RECALL_LOW: 'index-health',
      FILTER_VIOLATION: 'index-health',
      NO_RELEVANT_DOCUMENTS: 'grounding',
      UNSUPPORTED_CLAIM: 'grounding',
      CRITERION_BREACHED: 'criteria',
      LOW_RELEVANCE: 'queries',
      METADATA_MISMATCH: 'queries',
      MISSING_EXPECTED_SOURCE: 'queries',
      LOW_PRECISION: 'queries',
      LATENCY_EXCEEDED: 'queries',
      NO_RESULTS: 'queries',
      UNEXPECTED_MATCH: 'queries',
      CATEGORY_EXPECTATION_MISSED: 'queries',
      TIMEOUT: 'errors',
      RUN_FAILED: 'errors',
      SITEMAP_FAILED: 'errors',
    };
    expect(Object.fromEntries(Object.keys(expected).map((t) => [t, section(t as ErrorType)]))).toEqual(expected);
  });
});
