/**
 * METRIC_DROPPED: a run-level figure (pass rate, MRR, nDCG, hit rate, mean best similarity, latency percentiles)
 * moved beyond its baseline's noise band in the worse direction. The figures are the run's and its baseline's over
 * the queries they share unchanged (comparable.ts): stale, flaky and new queries left out, so a rotted
 * expectation, a query at its threshold or a suite change does not read as a retrieval drop.
 */
import { RUN_METRICS, type RunMetric } from '../history/run-digest.ts';
import { finding } from '../report/regression-report.ts';
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

export const detectMetricDrops: Detector = ({ comparable, baseline }) => {
  const figures = comparable.metrics;
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
