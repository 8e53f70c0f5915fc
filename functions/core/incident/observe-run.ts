/**
 * What a run says about each incident track: its breaches, or null when the run cannot judge that track (a run
 * that could not complete says nothing about quality or the suite; it neither prolongs nor ends those incidents).
 * Breach kinds are coarse on purpose (a criterion's name, a regression kind, a metric's name): a new kind is
 * worth an escalation, the same kind failing on a different query tomorrow is the same incident.
 */

import type { Breach, Track } from '../report/incident-state.ts';
import { alertsOperations } from '../report/regression-report.ts';
import type { ValidationReport } from '../report/report.ts';
import { roundTo } from '../shared/statistics.ts';

export type Observation = Record<Track, Breach[] | null>;

/**
 * The run's breaches per track; `stored` is false when its report could not be stored.
 *
 * A LOW regression finding on the quality track (SIMILARITY_DROPPED, RANK_DROPPED, COVERAGE_NEWLY_ORPHANED: one
 * query's score or one expected page's place moved while its verdict and the run's figures held) is no breach: it
 * is in the report and on the dashboard, and opens, re-opens or prolongs no incident. One query's score moving
 * within a passing run is the commonest shape of noise and nobody acts on it at 2 a.m.; a fault that matters moves
 * a verdict, a run figure or many queries at once (QUERY_REGRESSED, METRIC_DROPPED, SCORE_SHIFT, SCORE_DRIFT:
 * MEDIUM or above). It does not prolong an incident either: a noisy night after a fault would otherwise hold the
 * incident open, and the next fault on the track would be swallowed by it, untold. A breached criterion is a
 * breach whatever its severity (the suite chose it), and so is a LOW finding for the suite maintainer.
 */
export function observeRun(report: ValidationReport, stored: boolean): Observation {
  const infrastructure: Breach[] = [];
  if (report.status === 'ERROR')
    // MEDIUM: one ERROR night is most often a blip; advanceIncidents makes the second night in a row CRITICAL.
    infrastructure.push({ kind: 'RUN_ERROR', severity: 'MEDIUM', summary: `run ERROR: ${report.status_reason}` });
  if (!stored)
    infrastructure.push({ kind: 'REPORT_NOT_STORED', severity: 'HIGH', summary: 'the report could not be stored' });
  if (report.status === 'ERROR') return { infrastructure, quality: null, suite: null };

  const quality = new Map<string, Breach>();
  const suite = new Map<string, Breach>();
  const add = (into: Map<string, Breach>, breach: Breach) => {
    const known = into.get(breach.kind);
    if (!known) into.set(breach.kind, breach);
    else if (rank(breach) > rank(known)) into.set(breach.kind, { ...breach, summary: known.summary });
  };
  for (const c of report.success_criteria.filter((x) => !x.passed && !onlyNewQueries(report, x)))
    add(quality, {
      kind: `criterion:${c.name}`,
      severity: c.severity,
      summary: `${c.name.replace(/_/g, ' ')} ${figure(c.name, noFigure(report, c.name) ? null : c.value)} ${c.comparator === '>=' ? '<' : '>'} ${figure(c.name, c.threshold)}${noFigure(report, c.name) ? ' (no query completed)' : ''}`,
    });
  // A regression that breaches no criterion waits for the next run to confirm it (regression/compare-with-history.ts).
  const awaiting = report.regression?.awaiting_confirmation === true;
  for (const f of report.regression?.findings ?? []) {
    const forSuite = f.kind === 'SUITE_STALE' || f.addressed_to === 'suite maintainer';
    if (!forSuite && (!alertsOperations(f) || awaiting || f.severity === 'LOW')) continue;
    const kind = f.metric !== null && f.kind === 'METRIC_DROPPED' ? `${f.kind}:${f.metric}` : f.kind;
    add(forSuite ? suite : quality, { kind, severity: f.severity, summary: f.message });
  }
  return { infrastructure, quality: [...quality.values()], suite: [...suite.values()] };
}

/**
 * A pass-rate breach that only the suite's new failing queries (NEW_QUERY_FAILING) cause is the suite's news, not
 * retrieval's: with them set aside (as stale queries already are), would the pass rate meet its threshold?
 */
function onlyNewQueries(report: ValidationReport, c: ValidationReport['success_criteria'][number]): boolean {
  if (c.name !== 'pass_rate' || c.threshold === null) return false;
  const added = new Set(
    (report.regression?.findings ?? []).flatMap((f) =>
      f.kind === 'NEW_QUERY_FAILING' && f.query_id ? [f.query_id] : [],
    ),
  );
  if (added.size === 0) return false;
  const stale = new Set(report.regression?.stale_queries ?? []);
  const kept = report.query_results.filter((q) => !added.has(q.id) && !stale.has(q.id));
  if (kept.length === 0) return true;
  return (kept.filter((q) => q.status === 'PASS').length / kept.length) * 100 >= c.threshold;
}

/** A pass rate where no query completed is no figure: "n/a", never the 0 the criterion may hold. */
function noFigure(report: ValidationReport, name: string): boolean {
  return name === 'pass_rate' && report.passed_queries + report.failed_queries === 0;
}

function figure(name: string, value: number | null): string {
  if (value === null) return 'n/a';
  const unit = /_ms$/.test(name) ? ' ms' : /rate|coverage|completeness/.test(name) ? '%' : '';
  return `${roundTo(value, 2)}${unit}`;
}

const rank = (b: Breach) => ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'].indexOf(b.severity);
