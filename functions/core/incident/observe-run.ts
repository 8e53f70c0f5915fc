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

/** The run's breaches per track; `stored` is false when its report could not be stored. */
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
  for (const c of report.success_criteria.filter((x) => !x.passed))
    add(quality, {
      kind: `criterion:${c.name}`,
      severity: c.severity,
      summary: `${c.name.replace(/_/g, ' ')} ${figure(c.name, c.value)} ${c.comparator === '>=' ? '<' : '>'} ${figure(c.name, c.threshold)}`,
    });
  for (const f of report.regression?.findings ?? []) {
    if (f.kind !== 'SUITE_STALE' && !alertsOperations(f)) continue;
    const kind = f.metric !== null && f.kind === 'METRIC_DROPPED' ? `${f.kind}:${f.metric}` : f.kind;
    add(f.kind === 'SUITE_STALE' ? suite : quality, { kind, severity: f.severity, summary: f.message });
  }
  return { infrastructure, quality: [...quality.values()], suite: [...suite.values()] };
}

function figure(name: string, value: number | null): string {
  if (value === null) return 'n/a';
  const unit = /_ms$/.test(name) ? ' ms' : /rate|coverage|completeness/.test(name) ? '%' : '';
  return `${roundTo(value, 2)}${unit}`;
}

const rank = (b: Breach) => ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'].indexOf(b.severity);
