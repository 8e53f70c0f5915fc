/**
 * The post-run step: a finished report compared with its history, the same in the Lambda and the CLI.
 *
 * What happens, in order:
 * 1. The run's own SUITE_STALE findings (the suite-stale check, sitemap/suite-stale-check.ts) are kept; their
 *    queries are set aside by every detector, as the run already set them aside from its pass rate.
 * 2. The baseline from history (median of the last 7 PASSED or FAILED runs); without one, the section says so.
 * 3. Every detector runs against the baseline; their findings, the recovered queries and the score-shift test
 *    make the report's `regression` section.
 * An ERROR run is not compared: its figures are those of a run that could not complete.
 */
import { BASELINE_RUNS, buildBaseline, MIN_BASELINE_RUNS } from '../history/baseline.ts';
import { digestReport, type RunDigest } from '../history/run-digest.ts';
import type { RegressionReport } from '../report/regression-report.ts';
import type { ValidationReport } from '../report/report.ts';
import { detectCoverageChanges } from './coverage-changes.ts';
import type { Detector } from './detector.ts';
import { detectMetricDrops } from './metric-drops.ts';
import { detectQueryRegressions, recoveredQueries } from './query-regressions.ts';
import { detectRankDrops } from './rank-drops.ts';
import { detectScoreShift } from './score-shift.ts';
import { detectSimilarityDrops } from './similarity-drops.ts';

/** Adding a detector is one file and one line here. */
const DETECTORS: Detector[] = [
  detectQueryRegressions,
  detectRankDrops,
  detectSimilarityDrops,
  detectMetricDrops,
  detectCoverageChanges,
];

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
      ...fields,
    },
  });
  if (history === null) return section({ note: 'not compared: the history of earlier runs could not be read' });
  if (report.status === 'ERROR')
    return section({ note: 'not compared: the run could not complete, so its figures say nothing about quality' });
  const baseline = buildBaseline(history, BASELINE_RUNS);
  if (baseline === null) {
    const healthy = history.filter((r) => r.status !== 'ERROR').length;
    return section({
      note:
        healthy === 0
          ? 'no baseline: this is the first run with figures on record, so there is nothing to compare with yet'
          : `no baseline yet: ${healthy} earlier run(s) with figures on record, ${MIN_BASELINE_RUNS} needed`,
    });
  }
  const current = digestReport(report, '') as RunDigest;
  const context = { report, current, baseline, stale: suite.stale };
  const shift = detectScoreShift(context);
  return section({
    compared: true,
    note: `compared with the median of the last ${baseline.runs.length} PASSED or FAILED runs`,
    baseline_runs: baseline.runs.map((r) => ({
      run_id: r.runId,
      status: r.status as 'PASSED' | 'FAILED',
      started_at: r.startedAt,
      location: r.location,
    })),
    findings: [...DETECTORS.flatMap((detect) => detect(context)), ...shift.findings, ...suite.findings],
    recovered_queries: recoveredQueries(context),
    score_shift: shift.test,
  });
}
