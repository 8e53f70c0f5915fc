/**
 * Stored values that break the seeds' rules: a retrieved chunk whose text is empty, whose source_url is not an
 * http(s) URL, whose token_count or chunk_index is not a whole number in range. Each such value is reported as null
 * in its result (and named in its payload_issues); this check says so once for the run, so ops see that the indexer
 * writes bad payloads, not only a reader of the JSON. No extra request: the query step's results suffice.
 */
import { defineCheck, verdict } from '../checks/check.ts';
import { searchedQueries } from './inputs.ts';

const LISTED = 10;

export const payloadIssuesCheck = defineCheck({
  name: 'payload_issues',
  description: "Every retrieved chunk's stored values keep the seeds' rules",
  needs: { searched: searchedQueries },
  errorTypes: ['INCOMPLETE_METADATA'],
  criteria: [],
  metrics: [],
  section: 'query_results',
  judge({ searched }, ctx) {
    const issues = new Map<string, string[]>();
    for (const row of searched.results.flatMap((r) => r.top_results))
      if (row.payload_issues.length > 0) issues.set(row.chunk_id, row.payload_issues);
    const examples = [...issues].slice(0, LISTED).map(([chunk_id, found]) => ({ chunk_id, issues: found }));
    return verdict({
      sections: {},
      errors:
        issues.size === 0
          ? []
          : [
              ctx.error(
                'INCOMPLETE_METADATA',
                'MEDIUM',
                `${issues.size} retrieved chunk(s) carry stored values that break the seeds' rules, e.g. ${examples[0]?.chunk_id}: ${examples[0]?.issues.join('; ')}`,
                { chunks: issues.size, examples },
              ),
            ],
    });
  },
});
