import { describe, expect, it } from 'vitest';
import type { RunDigest } from '../../../functions/core/history/run-digest.ts';
import type { RunHistory } from '../../../functions/core/ports.ts';
import { compareWithStoredHistory } from '../../../functions/core/post-run/compare-history.ts';
import { buildReport, historyOf } from '../regression/reports.ts';

const ids = () => {
  let n = 0;
  return () => `id-${++n}`;
};

describe('compareWithStoredHistory', () => {
  it('asks history for the long-horizon reference’s 28 earlier runs of this collection and environment', async () => {
    const asked: Parameters<RunHistory['recentRuns']>[0][] = [];
    const history: RunHistory = {
      recentRuns: async (q) => {
        asked.push(q);
        return historyOf(7);
      },
    };
    const report = buildReport();
    const result = await compareWithStoredHistory(report, history, ids());
    expect(asked).toEqual([
      { collection: report.collection, environment: report.environment, limit: 28, before: report.timestamp },
    ]);
    expect(result.historyError).toBeNull();
    expect(result.report.regression?.compared).toBe(true);
  });

  it('still returns the report when history cannot be read, saying why and that it was not compared', async () => {
    const history: RunHistory = {
      recentRuns: async (): Promise<RunDigest[]> => {
        throw new Error('access denied to reports/book/');
      },
    };
    const result = await compareWithStoredHistory(buildReport(), history, ids());
    expect(result.historyError).toBe('access denied to reports/book/');
    expect(result.report.regression).toMatchObject({
      compared: false,
      note: 'not compared: the history of earlier runs could not be read',
    });
  });
});
