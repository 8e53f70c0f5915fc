/**
 * Filter correctness: for every query searched with a payload filter, each hit must satisfy that filter (evaluated
 * here on the payload the search returned). A hit that does not is a FILTER_VIOLATION: the index let another module
 * or chapter through (a broken payload index, a wrong field type). No extra request: the query step's hits suffice.
 */
import { type CriterionDeclaration, defineCheck, verdict } from '../checks/check.ts';
import type { FilterCondition, Payload, PayloadFilter } from '../ports.ts';
import { searchedQueries } from '../queries/inputs.ts';

const LISTED = 10;

const FILTER_VIOLATIONS: CriterionDeclaration = {
  name: 'filter_violations',
  description: 'Hits of filtered queries that do not satisfy the filter',
  threshold: 'max_filter_violations',
  comparator: '<=',
  decimals: 0,
  unit: '',
  severity: () => 'HIGH',
};

export const filterCheck = defineCheck({
  name: 'filters',
  description: 'Every hit of a filtered search satisfies its filter',
  needs: { searched: searchedQueries },
  errorTypes: ['FILTER_VIOLATION'],
  criteria: [FILTER_VIOLATIONS],
  metrics: ['FilterViolations'],
  section: 'index_health.filters',
  judge({ searched }, ctx) {
    const filtered = searched.searches.filter((s) => s.request.filter !== undefined);
    const violations = filtered.flatMap((s) =>
      s.hits
        .filter((h) => !satisfies(h.payload, s.request.filter as PayloadFilter))
        .map((h) => ({ query_id: s.queryId, point_id: h.id })),
    );
    const block = {
      filtered_queries: filtered.length,
      hits_checked: filtered.reduce((sum, s) => sum + s.hits.length, 0),
      violations: violations.length,
      examples: violations.slice(0, LISTED),
    };
    return verdict({
      sections: { index_health: { filters: block } },
      errors:
        violations.length === 0
          ? []
          : [
              ctx.error(
                'FILTER_VIOLATION',
                'HIGH',
                `${violations.length} hit(s) of filtered queries do not satisfy their filter, e.g. point ${violations[0]?.point_id} for query ${violations[0]?.query_id}`,
                { ...block },
              ),
            ],
      criteria: filtered.length === 0 ? [] : [ctx.criterion(FILTER_VIOLATIONS, violations.length)],
      applicable: filtered.length > 0,
    });
  },
});

/** Qdrant's semantics for the conditions the core sends: all of must, one of should (if any), none of must_not. */
export function satisfies(payload: Payload, filter: PayloadFilter): boolean {
  const must = filter.must ?? [];
  const should = filter.should ?? [];
  const mustNot = filter.must_not ?? [];
  return (
    must.every((c) => holds(payload, c)) &&
    (should.length === 0 || should.some((c) => holds(payload, c))) &&
    !mustNot.some((c) => holds(payload, c))
  );
}

function holds(payload: Payload, condition: FilterCondition): boolean {
  if ('is_empty' in condition) {
    const v = payload[condition.is_empty.key];
    return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
  }
  if ('is_null' in condition) return payload[condition.is_null.key] === null;
  const value = payload[condition.key];
  // A match on an array field holds when any element matches, as in Qdrant.
  const values = Array.isArray(value) ? value : [value];
  if ('any' in condition.match) {
    const wanted = condition.match.any;
    return values.some((v) => wanted.includes(v as string | number));
  }
  const wanted = condition.match.value;
  return values.some((v) => v === wanted);
}
