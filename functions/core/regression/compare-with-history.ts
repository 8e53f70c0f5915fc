/**
 * The post-run step: a finished report compared with its history, the same in the Lambda and the CLI.
 *
 * What happens, in order:
 * 1. The run's own SUITE_STALE findings (the suite-stale check, sitemap/suite-stale-check.ts) are kept; their
 *    queries are set aside by every detector, as the run already set them aside from its pass rate.
 * 2. Flaky (by verdict or by best similarity), new and stale queries are set aside (comparable.ts); the baseline is the median of the last 7 PASSED
 *    or FAILED runs that were not themselves regressions, over the queries shared unchanged; without one, the
 *    section says so.
 * 3. Every detector runs against the baseline, and the drift rule against the long-horizon reference
 *    (score-drift.ts); their findings, the recovered queries and the score-shift test make the `regression` section.
 * 4. Confirmation: findings that alert ops but breach no criterion, on a run whose predecessor was not a
 *    regression, are marked awaiting confirmation: they open no incident until the next run shows them too (a
 *    breached criterion pages on its first night; SCORE_DRIFT is several nights of evidence already).
 * An ERROR run is not compared: its figures are those of a run that could not complete.
 */
import { BASELINE_RUNS, buildBaseline, MIN_BASELINE_RUNS } from '../history/baseline.ts';
import { digestReport, type RunDigest } from '../history/run-digest.ts';
import { alertsOperations, type RegressionReport } from '../report/regression-report.ts';
import type { ValidationReport } from '../report/report.ts';
import { addedQueries, flakyQueries, onQueries, sharedQueries, similarityFlakyQueries } from './comparable.ts';
import { BASELINE_DETECTORS } from './detectors.ts';
import { detectQueryDrift } from './query-drift.ts';
import { recoveredQueries } from './query-regressions.ts';
import { detectScoreDrift } from './score-drift.ts';
import { detectScoreShift } from './score-shift.ts';

/** The report with its `regression` section; `history` is newest first and holds only earlier runs. */
export function compareWithHistory(report: ValidationReport, history: readonly RunDigest[] | null): ValidationReport {
  const suite =
    report.status === 'ERROR' || !report.regression
      ? { stale: new Set<string>(), findings: [] }
      : {
          stale: new Set(report.regression.stale_queries),
          findings: report.regression.findings.filter((f) => f.kind === 'SUITE_STALE'),
        };
  const section = (fields: Partial<RegressionReport> & Pick<RegressionReport, 'note'>): ValidationReport => ({
    ...report,
    regression: {
      compared: false,
      baseline_runs: [],
      findings: suite.findings,
      recovered_queries: [],
      stale_queries: [...suite.stale],
      score_shift: null,
      awaiting_confirmation: false,
      ...fields,
    },
  });
  if (history === null) return section({ note: 'not compared: the history of earlier runs could not be read' });
  if (report.status === 'ERROR')
    return section({ note: 'not compared: the run could not complete, so its figures say nothing about quality' });
  const current = digestReport(report, '') as RunDigest;
  const healthy = history.filter((r) => r.status !== 'ERROR');
  const flakySimilarity = similarityFlakyQueries(current, healthy);
  const flaky = new Set([...flakyQueries(current, healthy), ...flakySimilarity.keys()]);
  const added = addedQueries(current, healthy);
  const window = healthy.filter((r) => !r.regressed).slice(0, BASELINE_RUNS);
  const shared = sharedQueries(current, window, new Set([...suite.stale, ...flaky, ...added]));
  const [comparable, ...windowOnShared] = onQueries([current, ...window], shared) as [RunDigest, ...RunDigest[]];
  const baseline = buildBaseline(windowOnShared, BASELINE_RUNS);
  if (baseline === null) {
    const healthy = history.filter((r) => r.status !== 'ERROR').length;
    return section({
      note:
        healthy === 0
          ? 'no baseline: this is the first run with figures on record, so there is nothing to compare with yet'
          : `no baseline yet: ${healthy} earlier run(s) with figures on record, ${MIN_BASELINE_RUNS} needed`,
    });
  }
  const context = { report, current, comparable, baseline, stale: suite.stale, flaky, flakySimilarity, added };
  const shift = detectScoreShift(context);
  const leftOut = new Set([...suite.stale, ...flaky, ...added]);
  const drift = detectScoreDrift({ current, history, setAside: leftOut });
  const findings = [
    ...BASELINE_DETECTORS.flatMap((detect) => detect(context)),
    ...shift.findings,
    ...drift,
    // One query sliding alone; when they all slide, SCORE_DRIFT says so once.
    ...(drift.length > 0 ? [] : detectQueryDrift({ current, history, setAside: leftOut })),
    ...suite.findings,
  ];
  const alerting = findings.filter(alertsOperations);
  const previous = healthy[0];
  const awaiting =
    alerting.length > 0 &&
    !alerting.some((f) => f.kind === 'SCORE_DRIFT') &&
    report.success_criteria.every((c) => c.passed) &&
    !previous?.regressed;
  const setAside = shared.size < Object.keys(current.queries).length;
  return section({
    compared: true,
    note: `compared with the median of the last ${baseline.runs.length} PASSED or FAILED runs that were not regressions${setAside ? `, over the ${shared.size} queries they share unchanged (flaky, new and stale ones set aside)` : ''}${awaiting ? '; awaiting confirmation: no criterion breached and the run before was not a regression, so these findings alert only if the next run shows them too' : ''}`,
    baseline_runs: baseline.runs.map((r) => ({
      run_id: r.runId,
      status: r.status as 'PASSED' | 'FAILED',
      started_at: r.startedAt,
      location: r.location,
    })),
    findings,
    recovered_queries: recoveredQueries(context),
    score_shift: shift.test,
    awaiting_confirmation: awaiting,
  });
}
