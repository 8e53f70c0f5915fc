/**
 * QUERY_REGRESSED: a query that passes in the baseline fails now (a stale query is the suite's problem, not this).
 * A flaky query (its verdict flipped back and forth within its last 7 runs, comparable.ts) that fails now is
 * FLAKY instead: reported, LOW, never alerting (alertsOperations), so it cannot open an incident alone.
 */

import { finding } from '../report/regression-report.ts';
import type { Detector, DetectorContext } from './detector.ts';

export const detectQueryRegressions: Detector = ({ current, baseline, stale, flaky }) =>
  Object.entries(current.queries).flatMap(([id, now]) => {
    if (now.status !== 'FAIL' || stale.has(id)) return [];
    if (flaky.has(id))
      return [
        finding({
          kind: 'FLAKY',
          severity: 'LOW',
          message: `query ${id} fails now; its verdict flipped back and forth within its last 7 runs (flaky: reported, not alerted)`,
          query_id: id,
        }),
      ];
    if (baseline.queries[id]?.status !== 'PASS') return [];
    return [
      finding({
        kind: 'QUERY_REGRESSED',
        severity: 'MEDIUM',
        message: `query ${id} fails now; it passed in the baseline runs`,
        query_id: id,
      }),
    ];
  });

/**
 * NEW_QUERY_FAILING: a query new to the suite (or edited) that fails and has never passed since: for the suite's
 * maintainer (is the expectation right?), on the suite track, never a quality regression.
 */
export const detectNewQueriesFailing: Detector = ({ current, added, stale }) =>
  Object.entries(current.queries).flatMap(([id, now]) =>
    now.status === 'FAIL' && added.has(id) && !stale.has(id)
      ? [
          finding({
            kind: 'NEW_QUERY_FAILING',
            severity: 'LOW',
            addressed_to: 'suite maintainer',
            message: `query ${id} is new to the suite (or was edited) and fails: check its expectation`,
            query_id: id,
          }),
        ]
      : [],
  );

/** Queries that fail in the baseline and pass now. */
export function recoveredQueries({ current, baseline }: Pick<DetectorContext, 'current' | 'baseline'>): string[] {
  return Object.entries(current.queries)
    .filter(([id, now]) => baseline.queries[id]?.status === 'FAIL' && now.status === 'PASS')
    .map(([id]) => id);
}
