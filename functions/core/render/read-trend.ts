/**
 * The trend's earlier points, read through the history port (the same one the regression comparison reads), at
 * most 13 so that with the current run the report draws two weeks of nights. Best effort: a history that cannot
 * be read costs the trend, never the report.
 */
import type { RunHistory } from '../ports.ts';
import type { ValidationReport } from '../report/report.ts';
import { type TrendPoint, trendPointFromDigest } from './trend-point.ts';

/** Headline figures of the runs before `report`, newest first, or [] when history cannot be read. */
export async function readTrendHistory(
  history: RunHistory,
  report: Pick<ValidationReport, 'collection' | 'environment' | 'timestamp'>,
  limit = 13,
): Promise<TrendPoint[]> {
  try {
    const runs = await history.recentRuns({
      collection: report.collection,
      environment: report.environment,
      limit,
      before: report.timestamp,
    });
    return runs.map(trendPointFromDigest);
  } catch {
    return [];
  }
}
