/** RunDigest fixtures for the history and regression tests: a clean night by default, each field overridable. */
import type { QueryDigest, RunDigest } from '../../../functions/core/history/run-digest.ts';

/** A night `n` days after 2026-03-01, PASSED, with three passing queries and no coverage gap. */
export function buildDigest(n: number, overrides: Partial<RunDigest> = {}): RunDigest {
  const startedAt = new Date(Date.UTC(2026, 2, 1 + n, 2)).toISOString();
  return {
    runId: `run-${n}`,
    status: 'PASSED',
    startedAt,
    collection: 'book',
    environment: 'prod',
    location: `s3://bucket/reports/book/run-${n}.json`,
    metrics: {
      pass_rate: 100,
      mrr: 0.8,
      ndcg_at_k: 0.7,
      hit_rate: 1,
      avg_similarity: 0.6,
      p50_latency_ms: 40,
      p95_latency_ms: 60,
      p99_latency_ms: 70,
    },
    queries: { q1: query(), q2: query(), q3: query() },
    coverage: { missing: [], orphans: [] },
    embeddingModel: 'embed-english-v3.0',
    regressed: false,
    ...overrides,
  };
}

export function query(overrides: Partial<QueryDigest> = {}): QueryDigest {
  return {
    status: 'PASS',
    bestSimilarity: 0.6,
    expectedRanks: { '/docs/a': 1 },
    hash: null,
    ir: null,
    ...overrides,
  };
}

/** `count` clean nights, newest first, ending the night before night `count`. */
export function cleanHistory(count: number): RunDigest[] {
  return Array.from({ length: count }, (_, i) => buildDigest(count - 1 - i));
}
