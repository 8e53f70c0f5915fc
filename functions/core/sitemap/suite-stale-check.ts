/**
 * SUITE_STALE: golden-set rot. A query whose expected source or relevant URL no longer names any page of the book's
 * sitemap (a page renamed or removed) fails however well retrieval works: the suite is wrong, not the index. Low
 * severity, addressed to whoever maintains the suite. The queries check sets such a query aside when it judges the
 * pass rate, from the same input; this check names them in the report's `regression` section, which the comparison
 * with history (core/regression) completes after the run.
 */
import { defineCheck, verdict } from '../checks/check.ts';
import { finding } from '../report/regression-report.ts';
import { staleQueries } from './inputs.ts';

export const suiteStaleCheck = defineCheck({
  name: 'suite_stale',
  description: "Every golden query's expected pages are still in the book's sitemap",
  needs: { stale: staleQueries },
  errorTypes: [],
  criteria: [],
  metrics: [],
  section: 'regression.stale_queries',
  judge({ stale }) {
    const findings = [...stale.stale].map(([queryId, gone]) =>
      finding({
        kind: 'SUITE_STALE',
        severity: 'LOW',
        addressed_to: 'suite maintainer',
        message: `query ${queryId} expects ${gone.join(', ')}, no longer in the book's sitemap: update the suite (the query is not counted as a retrieval failure)`,
        query_id: queryId,
        urls: gone,
      }),
    );
    return verdict({
      sections:
        stale.pages === 0
          ? {}
          : {
              regression: {
                compared: false,
                note: 'not compared with the history of earlier runs',
                baseline_runs: [],
                findings,
                recovered_queries: [],
                stale_queries: [...stale.stale.keys()],
                score_shift: null,
              },
            },
      errors: [],
      // Without a page in the sitemap no expectation can be judged stale.
      applicable: stale.pages > 0,
    });
  },
});
