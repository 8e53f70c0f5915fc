/** The terminal summary of a report: what a developer reads after `ragwatch run`, scannable in ten seconds. */
import { describe, expect, it } from 'vitest';
import { formatSummary, groupByReason, type SummaryFiles } from '../../functions/cli/format-summary.ts';
import type { CriterionResult, ValidationError } from '../../functions/core/report/findings.ts';
import type { ValidationReport } from '../../functions/core/report/report.ts';
import { buildErrorReport, buildFailedReport, buildPassedReport } from '../nightly/fixtures/reports.ts';

function criterion(overrides: Partial<CriterionResult>): CriterionResult {
  return {
    name: 'pass_rate',
    description: '',
    value: 0,
    threshold: 90,
    comparator: '>=',
    passed: false,
    severity: 'CRITICAL',
    ...overrides,
  };
}

function finding(overrides: Partial<ValidationError>): ValidationError {
  return {
    id: 'e',
    validation_id: buildFailedReport().run_id,
    error_type: 'STALE_CHUNKS',
    severity: 'HIGH',
    message: 'm',
    details: {},
    ...overrides,
  };
}

const FILES: SummaryFiles = {
  json: '/srv/reports/book/r.json',
  html: '/srv/reports/book/r.html',
  csv: '/srv/reports/book/r.csv',
};

/** The summary's last three lines. */
function footer(report: ValidationReport, files: SummaryFiles = FILES): string[] {
  return formatSummary(report, { files }).split('\n').slice(-3);
}

describe('formatSummary: a run that could not complete', () => {
  it('shows a pass rate of 0 with every query errored as not evaluated, never as 0 (CRITICAL)', () => {
    const report = {
      ...buildErrorReport(),
      success_criteria: [criterion({}), criterion({ name: 'coverage', value: null, severity: 'HIGH' })],
    };
    const summary = formatSummary(report);
    expect(summary).toContain('–          pass_rate                not evaluated (no query completed; >= 90 wanted)');
    expect(summary).toContain(
      '–          coverage                 not evaluated (its input could not be read; >= 90 wanted)',
    );
    expect(summary).not.toMatch(/pass_rate.*CRITICAL|coverage.*HIGH|✘/);
  });

  it('says no query completed rather than "0/2 passed (0%)"', () => {
    const summary = formatSummary(buildErrorReport());
    expect(summary).toContain('Queries  none completed, 2 errored');
    expect(summary).not.toContain('0/2 passed');
  });

  it('says a reason shared by several queries once, with their count and ids', () => {
    const summary = formatSummary(buildErrorReport());
    expect(summary).toContain('  ERROR 2 queries: Qdrant timed out after 10000 ms\n          ↳ q1, q2');
    expect(summary.match(/Qdrant timed out after 10000 ms/g)).toHaveLength(1);
  });

  it('ends with the verdict and the criteria not evaluated, the counts and the link', () => {
    expect(footer(buildErrorReport())).toEqual([
      'ERROR    1 not evaluated, 0 hold',
      'Counts   2 queries: 0 passed, 0 failed, 2 errored · 1 finding (1 CRITICAL)',
      'Report   file:///srv/reports/book/r.html',
    ]);
  });
});

describe('formatSummary: a failed run', () => {
  it('lists the breached criteria most severe first, and not those that hold', () => {
    const report = {
      ...buildFailedReport(),
      success_criteria: [
        criterion({ name: 'coverage', value: 92.3, threshold: 100, severity: 'MEDIUM' }),
        criterion({ name: 'completeness', value: 100, threshold: 100, passed: true, severity: 'HIGH' }),
        criterion({ name: 'pass_rate', value: 40, severity: 'CRITICAL' }),
      ],
    };
    const summary = formatSummary(report);
    expect(summary).toContain(
      [
        'Success criteria not met',
        '  ✘ CRITICAL pass_rate                      40 >= 90',
        '  ✘ MEDIUM   coverage                     92.3 >= 100',
      ].join('\n'),
    );
    expect(summary).not.toContain('completeness');
    expect(formatSummary(report, { all: true })).toContain('  ✔          completeness                  100 >= 100');
  });

  it('lists the failing queries only; --all lists the passing ones too', () => {
    const report = buildFailedReport();
    const summary = formatSummary(report);
    expect(summary).toContain('Queries  8/20 passed (40%), 12 failed');
    // The twelve failing queries share their reason: one line and their ids.
    expect(summary).toContain(
      '  FAIL  12 queries: best similarity 0.41 is under min_similarity 0.70\n          ↳ fail-1, fail-2, fail-3, fail-4, fail-5, fail-6, fail-7, fail-8 and 4 more',
    );
    expect(summary).not.toContain('pass-1');
    expect(formatSummary(report, { all: true })).toContain('PASS  pass-1 [keyword]');
  });

  it('says a finding repeated with the same message once, counted, and none that a section above already says', () => {
    const report = {
      ...buildFailedReport(),
      errors: [
        finding({ id: 'a', severity: 'MEDIUM', error_type: 'STALE_PAGES', message: 'page edited' }),
        finding({ id: 'b', message: 'stale chunk' }),
        finding({ id: 'c', message: 'stale chunk' }),
        finding({ id: 'd', error_type: 'COVERAGE_GAP', message: 'missing pages' }),
        finding({ id: 'e', error_type: 'CRITERION_BREACHED', message: 'pass rate' }),
      ],
    };
    const summary = formatSummary(report);
    expect(summary).toContain(
      ['Findings', '  HIGH     STALE_CHUNKS ×2: stale chunk', '  MEDIUM   STALE_PAGES: page edited'].join('\n'),
    );
    expect(summary).not.toMatch(/missing pages|pass rate$/m);
    expect(footer(report)[1]).toBe(
      'Counts   20 queries: 8 passed, 12 failed, 0 errored · 4 findings (3 HIGH, 1 MEDIUM)',
    );
  });

  it('ends with the verdict and the breached criteria by severity, then counts, then an absolute file:// link', () => {
    const lines = footer(buildFailedReport());
    expect(lines[0]).toMatch(
      /^FAILED {3}\d+ criteri(on|a) breached \((\d+ (CRITICAL|HIGH|MEDIUM|LOW)(, )?)+\), \d+ hold$/,
    );
    expect(lines[2]).toBe('Report   file:///srv/reports/book/r.html');
  });

  it('links the JSON when no HTML was written, prints the JSON and CSV paths, and says when nothing was written', () => {
    const summary = formatSummary(buildFailedReport(), { files: { ...FILES, html: null } });
    expect(summary).toContain('Files    /srv/reports/book/r.json · /srv/reports/book/r.csv');
    expect(summary.split('\n').at(-1)).toBe('Report   file:///srv/reports/book/r.json');
    expect(formatSummary(buildFailedReport()).split('\n').at(-1)).toBe(
      'Report   not written (the whole report is on stderr)',
    );
  });

  it('escapes a path into a valid file:// URL', () => {
    const files = { json: '/tmp/my reports/r#1.json', html: '/tmp/my reports/r#1.html', csv: null };
    expect(footer(buildFailedReport(), files)[2]).toBe('Report   file:///tmp/my%20reports/r%231.html');
  });
});

describe('formatSummary: a passed run', () => {
  it('is the verdict, the query line and the footer: nothing failed, so nothing is listed', () => {
    const summary = formatSummary(buildPassedReport(), { files: FILES });
    expect(summary).not.toMatch(/Success criteria|FAIL |Coverage|Quality|Findings/);
    expect(summary.split('\n').at(-3)).toBe('PASSED   3 hold');
  });
});

describe('groupByReason', () => {
  it('gathers items of one key at the first one’s place, and never gathers a null key', () => {
    const items = ['a1', 'b1', 'p', 'a2', 'p', 'b2', 'c1'];
    const key = (s: string) => (s === 'p' ? null : (s[0] ?? null));
    expect(groupByReason(items, key)).toEqual([['a1', 'a2'], ['b1', 'b2'], ['p'], ['p'], ['c1']]);
  });
});

describe('the freshness note', () => {
  it('says freshness was not checked, and why, whenever the report says so, and nothing otherwise', () => {
    // Prepare
    const note =
      'freshness not checked: the sitemap gives no <lastmod> for any of its 3 pages, so an edit ... (`showLastUpdateTime: true` in the docs options)';
    const freshness = { pages_checked: 0, stale_pages: 0, urls: [], source: 'scroll' as const };
    const base = buildPassedReport();
    const health = {
      stale_chunks: null,
      missing_chunks: null,
      embedding_models: null,
      drift_canary: null,
      ann: null,
      filters: null,
    };
    const withNote: ValidationReport = { ...base, index_health: { ...health, freshness: { ...freshness, note } } };
    const checked: ValidationReport = {
      ...base,
      index_health: { ...health, freshness: { ...freshness, pages_checked: 3 } },
    };

    // Act
    const lines = formatSummary(withNote).split('\n');

    // Assess
    expect(lines.slice(lines.indexOf('Freshness'), lines.indexOf('Freshness') + 2)).toEqual(['Freshness', `  ${note}`]);
    expect(formatSummary(checked)).not.toContain('Freshness');
    expect(formatSummary(base)).not.toContain('Freshness');
  });
});

describe('a pass_rate criterion judged on another figure', () => {
  it('is explained under the queries line, with the reason the criterion gives', () => {
    // Prepare
    const base = buildFailedReport();
    const judged = base.success_criteria.map((c) =>
      c.name === 'pass_rate'
        ? {
            ...c,
            value: 85.29,
            description: 'Queries that pass (%); 1 stale query set aside (regression.stale_queries)',
          }
        : c,
    );
    const report: ValidationReport = { ...base, pass_rate: 84.06, success_criteria: judged };

    // Act
    const text = formatSummary(report);
    const same = formatSummary({ ...report, pass_rate: 85.29 });

    // Assess
    expect(text).toContain(
      '  the pass_rate criterion judged 85.29%, not 84.06%: 1 stale query set aside (regression.stale_queries)',
    );
    expect(same).not.toContain('the pass_rate criterion judged');
  });
});

describe('formatSummary at -q and -v', () => {
  it('is the three-line footer alone with -q: verdict, counts, link', () => {
    // Prepare
    const report = buildFailedReport();

    // Act
    const quiet = formatSummary(report, { files: FILES, detail: 'quiet' });

    // Assess: exactly the normal summary's last three lines, nothing before them
    expect(quiet.split('\n')).toEqual(formatSummary(report, { files: FILES }).split('\n').slice(-3));
    expect(quiet.split('\n')).toHaveLength(3);
    expect(quiet.split('\n')[0]).toMatch(/^FAILED /);
  });

  it('adds each stage with its status and time with -v, and nothing of them without', () => {
    // Prepare: a run whose describe took 12 ms, whose queries 900 ms, and whose canary was cut
    const report = buildFailedReport();
    report.execution.stages = {
      describe: { status: 'ok', duration_ms: 12.4 },
      queries: { status: 'ok', duration_ms: 900 },
      canary_embed: { status: 'cut', duration_ms: 3000 },
    };

    // Act
    const verbose = formatSummary(report, { files: FILES, detail: 'verbose' }).split('\n');
    const normal = formatSummary(report, { files: FILES }).split('\n');

    // Assess
    const at = verbose.findIndex((l) => l.startsWith('Stages'));
    expect(verbose[at]).toBe(`Stages   3 · 1 embed call, 1 search call · ${report.duration_seconds}s in all`);
    expect(verbose.slice(at + 1, at + 4)).toEqual([
      '  describe      ok           12 ms',
      '  queries       ok          900 ms',
      '  canary_embed  cut        3000 ms',
    ]);
    expect(normal.some((l) => l.startsWith('Stages'))).toBe(false);
    expect(verbose.slice(-3)).toEqual(normal.slice(-3));
  });

  it('says no stage ran with -v when the run never started one', () => {
    const report = { ...buildErrorReport(), execution: { ...buildErrorReport().execution, stages: {} } };
    expect(formatSummary(report, { detail: 'verbose' }).split('\n')).toContain('Stages   none ran');
  });
});

describe('queries the suite sets aside', () => {
  it('are named under the queries line as not run and not counted, and nothing is said when none is', () => {
    // Prepare
    const base = buildFailedReport();
    const ids = Array.from({ length: 9 }, (_, i) => `q${i}`);
    const report: ValidationReport = {
      ...base,
      suite: { ...base.suite, set_aside: ids.map((id) => ({ id, reason: 'calibrate: not in its top 5' })) },
    };

    // Act
    const lines = formatSummary(report).split('\n');

    // Assess
    expect(lines).toContain(
      '  9 set aside in the suite (set_aside: not run, not counted): q0, q1, q2, q3, q4, q5, q6, q7 and 1 more',
    );
    expect(formatSummary(base)).not.toContain('set aside in the suite');
  });
});
