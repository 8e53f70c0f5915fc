/**
 * Benchmark metrics as seed 004's ValidationBenchmark lists them: a suite may name metrics with their own cut-offs
 * (`precision@5`, `recall@10`, `mrr`, `ndcg@10`, `hit_rate@3`), each computed with ir-metrics.ts at its cut-off.
 * Queries are then searched as deep as the deepest cut-off (`mrr` alone counts as that depth too), while their
 * PASS/FAIL judgment still looks at their own top_k.
 */
import { roundTo } from '../shared/statistics.ts';
import { parseBenchmarkMetric } from '../suite/benchmark-metric-names.ts';
import type { Relevance } from '../suite/suite.ts';
import { computeIrMetrics, type RankedItem } from './ir-metrics.ts';

/** Each metric of one ranking at its own cut-off (mrr without one at `depth`); null without judgments. */
export function computeBenchmarkMetrics(options: {
  metrics: readonly string[];
  ranking: readonly RankedItem[];
  judgments: readonly Relevance[] | null;
  depth: number;
}): Record<string, number> | null {
  if (options.metrics.length === 0) return null;
  const out: Record<string, number> = {};
  for (const raw of options.metrics) {
    const metric = parseBenchmarkMetric(raw);
    if (metric === null) continue;
    const k = metric.k ?? Math.max(1, options.depth);
    const figures = computeIrMetrics({ ranking: options.ranking, judgments: options.judgments, k });
    if (figures === null) return null;
    const value = figures[metric.field];
    out[metric.name] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
  }
  return out;
}

/** The mean of each metric over the queries that have them (judged and run); null when none has. */
export function meanBenchmarkMetrics(list: readonly (Record<string, number> | null)[]): Record<string, number> | null {
  const scored = list.filter((m): m is Record<string, number> => m !== null);
  if (scored.length === 0) return null;
  const names = Object.keys(scored[0] ?? {});
  return Object.fromEntries(
    names.map((name) => [name, roundTo(scored.reduce((sum, m) => sum + (m[name] ?? 0), 0) / scored.length, 4)]),
  );
}
