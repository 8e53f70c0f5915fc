/**
 * The benchmark metrics a suite may name (seed 004's ValidationBenchmark: `precision@5`, `recall@10`, `mrr`,
 * `ndcg@10`, `hit_rate@3`), each with its own cut-off: the names as the suite writes them, and how deep they make
 * the queries search. Computing them is the query stage's (queries/benchmark-metrics.ts).
 */
import type { IrMetrics } from '../report/query-validation.ts';

/** A metric name the suite may list: precision@k, recall@k, ndcg@k, hit_rate@k (k 1..50), mrr or mrr@k. */
const BENCHMARK_METRIC = /^(?:(precision|recall|ndcg|hit_rate)@([1-9]\d?)|(mrr)(?:@([1-9]\d?))?)$/i;

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
