/** QUERY_REGRESSED: a query that passes in the baseline fails now (a stale query is the suite's problem, not this). */

import { finding } from '../report/regression-report.ts';
import type { Detector, DetectorContext } from './detector.ts';

export const detectQueryRegressions: Detector = ({ current, baseline, stale }) =>
  Object.entries(current.queries).flatMap(([id, now]) => {
    const usual = baseline.queries[id];
    if (usual?.status !== 'PASS' || now.status !== 'FAIL' || stale.has(id)) return [];
    return [
      finding({
        kind: 'QUERY_REGRESSED',
        severity: 'MEDIUM',
        message: `query ${id} fails now; it passed in the baseline runs`,
        query_id: id,
      }),
    ];
  });

/** Queries that fail in the baseline and pass now. */
export function recoveredQueries({ current, baseline }: Pick<DetectorContext, 'current' | 'baseline'>): string[] {
  return Object.entries(current.queries)
    .filter(([id, now]) => baseline.queries[id]?.status === 'FAIL' && now.status === 'PASS')
    .map(([id]) => id);
}
