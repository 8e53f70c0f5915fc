/**
 * Benchmark metrics as seed 004's ValidationBenchmark lists them: a suite may name metrics with their own cut-offs
 * (`precision@5`, `recall@10`, `mrr`, `ndcg@10`, `hit_rate@3`), each computed with ir-metrics.ts at its cut-off.
 * Queries are then searched as deep as the deepest cut-off (`mrr` alone counts as that depth too), while their
 * PASS/FAIL judgment still looks at their own top_k.
 */
import { roundTo } from '../quality/distribution.ts';
import type { IrMetrics } from '../report/report.ts';
import type { Relevance } from '../suite/suite.ts';
import { computeIrMetrics, type RankedItem } from './ir-metrics.ts';

/** A metric name the suite may list: precision@k, recall@k, ndcg@k, hit_rate@k (k 1..50), mrr or mrr@k. */
export const BENCHMARK_METRIC = /^(?:(precision|recall|ndcg|hit_rate)@([1-9]\d?)|(mrr)(?:@([1-9]\d?))?)$/i;

interface ParsedMetric {
  name: string;
  field: keyof Pick<IrMetrics, 'precision_at_k' | 'recall_at_k' | 'ndcg_at_k' | 'reciprocal_rank' | 'hit'>;
  k: number | null;
}

const FIELDS: Record<string, ParsedMetric['field']> = {
  precision: 'precision_at_k',
  recall: 'recall_at_k',
  ndcg: 'ndcg_at_k',
  hit_rate: 'hit',
  mrr: 'reciprocal_rank',
};

/** Parses a metric name (case aside); null for a name that is not one of the supported forms or a k over 50. */
export function parseBenchmarkMetric(raw: string): ParsedMetric | null {
  const match = BENCHMARK_METRIC.exec(raw.trim());
  if (match === null) return null;
  const kind = (match[1] ?? match[3] ?? '').toLowerCase();
  const k = match[2] ?? match[4];
  const depth = k === undefined ? null : Number(k);
  if (depth !== null && depth > 50) return null;
  const field = FIELDS[kind];
  return field === undefined ? null : { name: `${kind}${depth === null ? '' : `@${depth}`}`, field, k: depth };
}

/** How deep to search for these metrics: the deepest cut-off (0 when none is given). */
export function benchmarkDepth(metrics: readonly string[]): number {
  return Math.max(0, ...metrics.map((m) => parseBenchmarkMetric(m)?.k ?? 0));
}

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
