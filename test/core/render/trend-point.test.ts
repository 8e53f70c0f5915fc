/** A run's headline figures for the trend: from this run's report, from earlier runs' digests, and in run order. */
import { describe, expect, it } from 'vitest';
import type { RunHistory } from '../../../functions/core/ports.ts';
import { readTrendHistory } from '../../../functions/core/render/read-trend.ts';
import {
  buildTrendPoint,
  orderTrend,
  type TrendPoint,
  trendPointFromDigest,
} from '../../../functions/core/render/trend-point.ts';
import { buildErrorReport, buildFailedReport, buildPassedReport, RUN_ID } from '../../nightly/fixtures/reports.ts';
import { buildDigest } from '../history/digests.ts';

function point(runId: string, timestamp: string): TrendPoint {
  return {
    run_id: runId,
    timestamp,
    status: 'PASSED',
    pass_rate: 100,
    mrr: null,
    ndcg: null,
    p95_latency_ms: null,
    missing_pages: null,
    orphan_pages: null,
  };
}

describe('buildTrendPoint', () => {
  it('takes the pass rate, MRR, nDCG, p95 latency and missing and orphan page counts of the report', () => {
    expect(buildTrendPoint(buildFailedReport())).toEqual({
      run_id: RUN_ID,
      timestamp: '2026-03-14T02:00:00.000Z',
      status: 'FAILED',
      pass_rate: 40,
      mrr: 0.8,
      ndcg: 0.7,
      p95_latency_ms: 60,
      missing_pages: 25,
      orphan_pages: 2,
    });
  });

  it('has no pass rate, and no page counts, for a run that could not complete', () => {
    expect(buildTrendPoint(buildErrorReport())).toMatchObject({
      status: 'ERROR',
      pass_rate: null,
      mrr: null,
      missing_pages: null,
      orphan_pages: null,
    });
  });

  it('has no pass rate for a run that ran no query, rather than a 0 that would read as every query failing', () => {
    const report = { ...buildPassedReport(), total_queries: 0, pass_rate: 0 };
    expect(buildTrendPoint(report).pass_rate).toBeNull();
  });

  it('keeps the pass rate of a run with a single query', () => {
    const report = { ...buildPassedReport(), total_queries: 1, pass_rate: 100 };
    expect(buildTrendPoint(report).pass_rate).toBe(100);
  });
});

describe('trendPointFromDigest', () => {
  it('takes the same figures from an earlier run’s digest', () => {
    const digest = buildDigest(3, { coverage: { missing: ['a', 'b'], orphans: ['c'] }, status: 'FAILED' });
    expect(trendPointFromDigest(digest)).toEqual({
      run_id: 'run-3',
      timestamp: '2026-03-04T02:00:00.000Z',
      status: 'FAILED',
      pass_rate: 100,
      mrr: 0.8,
      ndcg: 0.7,
      p95_latency_ms: 60,
      missing_pages: 2,
      orphan_pages: 1,
    });
  });

  it('reads a figure the digest lacks as not computed', () => {
    const digest = buildDigest(3, { metrics: {}, coverage: null });
    expect(trendPointFromDigest(digest)).toMatchObject({
      pass_rate: null,
      mrr: null,
      ndcg: null,
      p95_latency_ms: null,
      missing_pages: null,
      orphan_pages: null,
    });
  });
});

describe('orderTrend', () => {
  const current = point('now', '2026-03-14T02:00:00Z');

  it('puts earlier runs oldest first and the current run last', () => {
    const ordered = orderTrend([point('b', '2026-03-13T02:00:00Z'), point('a', '2026-03-12T02:00:00Z')], current);
    expect(ordered.map((p) => p.run_id)).toEqual(['a', 'b', 'now']);
  });

  it('keeps one point per run, and never the current run twice', () => {
    const ordered = orderTrend(
      [point('a', '2026-03-12T02:00:00Z'), point('a', '2026-03-12T02:00:00Z'), point('now', '2026-03-10T02:00:00Z')],
      current,
    );
    expect(ordered.map((p) => p.run_id)).toEqual(['a', 'now']);
  });

  it('keeps a run started at the same time as the current one and drops a run started after it', () => {
    const ordered = orderTrend(
      [point('same', '2026-03-14T02:00:00Z'), point('later', '2026-03-15T02:00:00Z')],
      current,
    );
    expect(ordered.map((p) => p.run_id)).toEqual(['same', 'now']);
  });

  it('draws at most the last 14 runs, the newest earlier ones kept', () => {
    const earlier = Array.from({ length: 20 }, (_, i) => point(`r${i}`, `2026-02-${String(i + 1).padStart(2, '0')}`));
    const ordered = orderTrend(earlier, current);
    expect(ordered).toHaveLength(14);
    expect(ordered.map((p) => p.run_id).slice(0, 2)).toEqual(['r7', 'r8']);
    expect(orderTrend(earlier, current, 3).map((p) => p.run_id)).toEqual(['r18', 'r19', 'now']);
  });
});

describe('readTrendHistory', () => {
  it('asks the history for the runs of this collection and environment before this run, 13 by default', async () => {
    const asked: unknown[] = [];
    const history: RunHistory = {
      recentRuns: async (query) => {
        asked.push(query);
        return [buildDigest(2), buildDigest(1)];
      },
    };
    const points = await readTrendHistory(history, buildPassedReport());
    expect(asked).toEqual([{ collection: 'book', environment: 'prod', limit: 13, before: '2026-03-14T02:00:00.000Z' }]);
    expect(points.map((p) => p.run_id)).toEqual(['run-2', 'run-1']);
  });

  it('passes on a smaller limit', async () => {
    const asked: { limit: number }[] = [];
    const history: RunHistory = {
      recentRuns: async (query) => {
        asked.push(query);
        return [];
      },
    };
    await readTrendHistory(history, buildPassedReport(), 5);
    expect(asked.map((q) => q.limit)).toEqual([5]);
  });

  it('gives no earlier point, instead of failing the report, when the history cannot be read', async () => {
    const history: RunHistory = {
      recentRuns: async () => {
        throw new Error('S3 AccessDenied');
      },
    };
    await expect(readTrendHistory(history, buildPassedReport())).resolves.toEqual([]);
  });
});
