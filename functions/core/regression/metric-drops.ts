/**
 * METRIC_DROPPED: a run-level figure (pass rate, MRR, nDCG, hit rate, mean best similarity, latency percentiles)
 * moved beyond its baseline's noise band in the worse direction. Queries set aside as stale are left out of the
 * figures here, so a rotted expectation does not read as a retrieval drop.
 */
import { RUN_METRICS, type RunDigest, type RunMetric } from '../history/run-digest.ts';
import { meanIrMetrics } from '../queries/ir-metrics.ts';
import { finding } from '../report/regression-report.ts';
import type { ValidationReport } from '../report/report.ts';
import { roundTo } from '../shared/statistics.ts';
import type { Detector } from './detector.ts';

const LABELS: Record<RunMetric, string> = {
  pass_rate: 'pass rate (%)',
  mrr: 'MRR',
  ndcg_at_k: 'nDCG@k',
  hit_rate: 'hit rate',
  avg_similarity: 'mean best similarity',
  p50_latency_ms: 'p50 latency (ms)',
  p95_latency_ms: 'p95 latency (ms)',
  p99_latency_ms: 'p99 latency (ms)',
};

export const detectMetricDrops: Detector = ({ report, current, baseline, stale }) => {
  const figures = figuresWithout(report, current, stale);
  return RUN_METRICS.flatMap((name) => {
    const usual = baseline.metrics[name];
    const value = figures[name];
    if (!usual || value === undefined) return [];
    const beyond = usual.worse === 'lower' ? value < usual.median - usual.band : value > usual.median + usual.band;
    if (!beyond) return [];
    const latency = name.endsWith('_ms');
    return [
      finding({
        kind: 'METRIC_DROPPED',
        // Latency on shared infrastructure is the noisiest figure and rarely the reason answers are wrong.
        severity: latency ? 'LOW' : 'MEDIUM',
        message: `${LABELS[name]} is ${roundTo(value, 3)}, outside its usual ${roundTo(usual.median, 3)} ± ${roundTo(usual.band, 3)}`,
        metric: name,
        value,
        baseline: usual.median,
        band: usual.band,
      }),
    ];
  });
};

/** The run's figures, with pass rate and IR means recomputed without the stale queries when there are any. */
export function figuresWithout(
  report: ValidationReport,
  current: RunDigest,
  stale: ReadonlySet<string>,
): RunDigest['metrics'] {
  if (stale.size === 0) return current.metrics;
  const kept = report.query_results.filter((q) => !stale.has(q.id));
  const means = meanIrMetrics(kept.map((q) => q.metrics));
  const figures: RunDigest['metrics'] = { ...current.metrics };
  if (kept.length > 0) figures.pass_rate = (kept.filter((q) => q.status === 'PASS').length / kept.length) * 100;
  for (const name of ['mrr', 'ndcg_at_k', 'hit_rate'] as const) {
    const value = means[name];
    if (value === null) delete figures[name];
    else figures[name] = value;
  }
  return figures;
}
