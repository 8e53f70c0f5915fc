/**
 * The verdict on one golden query: its hits as report rows with relevance, the figures (best and mean similarity,
 * module and chapter match, expected sources, IR metrics), and PASS / FAIL / ERROR with a reason and typed errors.
 * Rows and their relevance come from query-results.ts, with scores rounded to 4 decimals before anything is
 * compared, so the verdict agrees with the figures reported.
 */

import { matchesSource } from '../book/matching.ts';
import type { SearchHit } from '../ports.ts';
import type { ErrorType, Severity, ValidationError } from '../report/findings.ts';
import type { LatencyBreakdown, QueryResult, QueryValidationResult } from '../report/query-validation.ts';
import { roundTo } from '../shared/statistics.ts';
import type { ResolvedQuery } from '../suite/suite.ts';
import { computeBenchmarkMetrics } from './benchmark-metrics.ts';
import { type BookCatalog, describeUnknown, resolveChapter, resolveModule } from './catalog.ts';
import { computeIrMetrics } from './ir-metrics.ts';
import { judgmentsOf, onChapter, onModule, onTopic, scoreQueryConfidence, toQueryResults } from './query-results.ts';

export interface QueryFailure {
  errorType: 'EMBEDDING_FAILED' | 'RETRIEVAL_FAILED' | 'TIMEOUT' | 'RATE_LIMITED' | 'INDEX_ANOMALY';
  message: string;
}

/** One evaluated criterion; a failed one becomes a reason and a ValidationError. */
interface QueryCriterion {
  name: string;
  passed: boolean;
  errorType: ErrorType;
  severity: Severity;
  reason: string;
  details: Record<string, unknown>;
}

/** Judges one query from its hits (or its failure); hits null without a failure is treated as no results. */
export function judgeQuery(options: {
  query: ResolvedQuery;
  hits: readonly SearchHit[] | null;
  failure?: QueryFailure;
  /** Filter values the index does not have: the query was not searched (catalog.ts). */
  unknownFilters?: string[];
  /** The index's modules and chapters, to say when an expectation names one the index does not have. */
  catalog?: BookCatalog;
  latency: LatencyBreakdown;
  timestamp: string;
  newId: () => string;
}): { result: QueryValidationResult; errors: ValidationError[] } {
  const { query, latency, failure, catalog } = options;
  const unknownFilters = options.unknownFilters ?? [];
  const searched = options.hits ?? [];
  // Searched deeper than top_k for a benchmark cut-off: the verdict still looks at the top_k results only.
  const results = toQueryResults(query, searched.slice(0, query.top_k));
  const scores = results.map((r) => r.similarity_score);
  const found = query.expected_sources.filter((s) => results.some((r) => matchesSource(s, r.source_url)));
  const total = query.expected_sources.length;
  // A judged query that returned nothing still scores (zeros), so run means count it as trec_eval does; a query
  // that could not run or was not searched has no ranking to score, and no figures.
  const ran = failure === undefined && unknownFilters.length === 0;
  const metrics = ran ? computeIrMetrics({ ranking: results, judgments: judgmentsOf(query), k: query.top_k }) : null;
  const benchmark =
    ran && query.benchmark_metrics !== undefined
      ? computeBenchmarkMetrics({
          metrics: query.benchmark_metrics,
          ranking: toQueryResults(query, searched),
          judgments: judgmentsOf(query),
          depth: query.search_limit ?? query.top_k,
        })
      : null;

  const criteria: QueryCriterion[] = failure
    ? [failureCriterion(failure, latency)]
    : unknownFilters.length > 0
      ? [unknownFilterCriterion(query, unknownFilters)]
      : results.length === 0
        ? [noResultsCriterion(query)] // a probe too: an index that returns nothing proves nothing about it
        : query.expect_match === false
          ? [probeCriterion(query, results)]
          : judgeCriteria(query, results, latency, found, metrics?.precision_at_k, catalog);
  const failed = criteria.filter((c) => !c.passed);
  // Seed 000: a result "must have at least one result or an error status": nothing back is ERROR, not FAIL.
  const status = failure || results.length === 0 ? 'ERROR' : failed.length > 0 ? 'FAIL' : 'PASS';

  const result: QueryValidationResult = {
    id: query.id,
    query_text: query.query_text,
    query_category: query.category,
    description: query.description,
    query: structuredClone({ ...query }),
    status,
    passed: status === 'PASS',
    pass_reason: status === 'PASS' ? describePass(query, results, criteria, found.length) : null,
    fail_reason: status === 'PASS' ? null : failed.map((c) => c.reason).join('; '),
    top_results: results,
    best_similarity: scores.length === 0 ? null : Math.max(...scores),
    mean_top_k_similarity: mean(scores),
    semantic_alignment_score: scoreSemanticAlignment(results),
    confidence_score: scoreQueryConfidence(results),
    module_match: query.expected_module === null ? null : onTopic(query, results).some((r) => onModule(query, r)),
    chapter_match: query.expected_chapter === null ? null : onTopic(query, results).some((r) => onChapter(query, r)),
    expected_sources_found: found.length,
    total_expected_sources: total,
    sources_match_ratio: total === 0 ? null : roundTo(found.length / total, 4),
    missing_expected_sources: query.expected_sources.filter((s) => !found.includes(s)),
    metrics,
    ...(query.benchmark_metrics === undefined ? {} : { benchmark_metrics: benchmark }),
    latency,
    criteria_evaluations: failure ? {} : Object.fromEntries(criteria.map((c) => [c.name, c.passed])),
    error_types: [...new Set(failed.map((c) => c.errorType))],
    timestamp: options.timestamp,
  };
  const errors = failed.map((c) => ({
    id: options.newId(),
    validation_id: query.id,
    error_type: c.errorType,
    message: `Query '${query.id}': ${c.reason}`,
    severity: c.severity,
    details: { query_text: query.query_text, ...c.details },
  }));
  return { result, errors };
}

/**
 * Seed 003's semantic_alignment_score: the share of the similarity the retriever spent on its top results that
 * went to results judged relevant, Σ similarity(relevant) / Σ similarity(all). The query's intent is what the suite
 * says a good answer is (its relevance judgments, or its expected module and chapter at min_similarity); this asks
 * how much of what the retriever was most sure of serves that intent: 1 when every result does, 0 when none does,
 * and a relevant result at rank 1 counts more than one the retriever barely kept. null when nothing came back.
 */
export function scoreSemanticAlignment(results: readonly QueryResult[]): number | null {
  if (results.length === 0) return null;
  const total = results.reduce((sum, r) => sum + r.similarity_score, 0);
  if (total === 0) return 0;
  const relevant = results.filter((r) => r.relevance).reduce((sum, r) => sum + r.similarity_score, 0);
  return roundTo(relevant / total, 4);
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : roundTo(values.reduce((a, b) => a + b, 0) / values.length, 4);
}

function judgeCriteria(
  query: ResolvedQuery,
  results: QueryResult[],
  latency: LatencyBreakdown,
  found: string[],
  judgedPrecision: number | undefined,
  catalog: BookCatalog | undefined,
): QueryCriterion[] {
  const best = Math.max(...results.map((r) => r.similarity_score));
  const n = results.length;
  const criteria: QueryCriterion[] = [
    criterion('similarity', best >= query.min_similarity, 'LOW_RELEVANCE', 'MEDIUM', {
      reason: `best similarity ${formatScore(best)} < ${formatScore(query.min_similarity)}`,
      details: { best_similarity: best, min_similarity: query.min_similarity },
    }),
  ];
  const topical = onTopic(query, results);
  const among =
    topical.length === results.length
      ? `in top ${n}`
      : `among the ${topical.length} of top ${n} scoring >= ${formatScore(query.min_similarity)}`;
  if (query.expected_module !== null) {
    const got = distinctValues(topical.map((r) => r.module_name));
    criteria.push(
      criterion(
        'module',
        topical.some((r) => onModule(query, r)),
        'METADATA_MISMATCH',
        'MEDIUM',
        {
          reason:
            catalog !== undefined && resolveModule(query.expected_module, catalog) === null
              ? `expected ${describeUnknown('module', query.expected_module, catalog)}`
              : `expected module '${query.expected_module}' not ${among} (got: ${got.join(', ') || 'none'})`,
          details: { expected_module: query.expected_module, found_modules: got },
        },
      ),
    );
  }
  if (query.expected_chapter !== null) {
    const got = distinctValues(topical.map((r) => r.chapter_id));
    criteria.push(
      criterion(
        'chapter',
        topical.some((r) => onChapter(query, r)),
        'METADATA_MISMATCH',
        'MEDIUM',
        {
          reason:
            catalog !== undefined && resolveChapter(query.expected_chapter, catalog).length === 0
              ? `expected ${describeUnknown('chapter', query.expected_chapter, catalog)}`
              : `expected chapter '${query.expected_chapter}' not ${among} (got: ${got.join(', ') || 'none'})`,
          details: { expected_chapter: query.expected_chapter, found_chapters: got },
        },
      ),
    );
  }
  if (query.criteria.require_expected_sources === true) {
    const missing = query.expected_sources.filter((s) => !found.includes(s));
    const total = query.expected_sources.length;
    criteria.push(
      criterion('expected_sources', missing.length === 0, 'MISSING_EXPECTED_SOURCE', 'MEDIUM', {
        reason: `expected sources not in top ${n}: ${missing.join(', ')} (${found.length}/${total} found)`,
        details: {
          missing_expected_sources: missing,
          expected_sources_found: found.length,
          total_expected_sources: total,
        },
      }),
    );
  }
  const minPrecision = query.criteria.min_precision;
  if (minPrecision !== undefined) {
    // Without judgments, precision is that of the rows judged relevant by module and similarity.
    const precision = judgedPrecision ?? roundTo(results.filter((r) => r.relevance).length / query.top_k, 4);
    criteria.push(
      criterion('precision', precision >= minPrecision, 'LOW_PRECISION', 'MEDIUM', {
        reason: `precision@${query.top_k} ${formatScore(precision)} < ${formatScore(minPrecision)}`,
        details: { precision_at_k: precision, min_precision: minPrecision, k: query.top_k },
      }),
    );
  }
  const maxLatency = query.criteria.max_latency_ms;
  if (maxLatency !== undefined) {
    // What the watched system spent answering: embedding + search. ragwatch's own judging (post_processing_ms) is
    // not the system's latency, so it is left out of the budget (it is in total_ms, reported beside).
    const retrieval = roundTo(latency.embedding_ms + latency.search_ms, 1);
    criteria.push(
      criterion('latency', retrieval <= maxLatency, 'LATENCY_EXCEEDED', 'LOW', {
        reason: `embedding + search latency ${retrieval} ms > ${maxLatency} ms`,
        details: { ...latency, retrieval_ms: retrieval, max_latency_ms: maxLatency },
      }),
    );
  }
  return criteria;
}

function failureCriterion(failure: QueryFailure, latency: LatencyBreakdown): QueryCriterion {
  return criterion('retrieval', false, failure.errorType, 'HIGH', {
    reason: failure.message,
    details: { total_ms: latency.total_ms },
  });
}

// Not "no results": the suite names something the index does not have, which a person must fix or investigate.
function unknownFilterCriterion(query: ResolvedQuery, unknown: string[]): QueryCriterion {
  return criterion('filters', false, 'METADATA_MISMATCH', 'HIGH', {
    reason: `not searched: filter ${unknown.join('; filter ')}`,
    details: { filters: query.filters, unknown_filters: unknown },
  });
}

// An out-of-domain probe: the book cannot answer it, so no result may look like an answer. One that does means
// min_similarity no longer separates the book's pages from everything else.
function probeCriterion(query: ResolvedQuery, results: QueryResult[]): QueryCriterion {
  const best = Math.max(...results.map((r) => r.similarity_score));
  return criterion('probe', best < query.min_similarity, 'UNEXPECTED_MATCH', 'MEDIUM', {
    reason: `out-of-domain probe matched: best similarity ${formatScore(best)} >= ${formatScore(query.min_similarity)} (${results[0]?.source_url ?? 'no URL'})`,
    details: { best_similarity: best, min_similarity: query.min_similarity },
  });
}

function noResultsCriterion(query: ResolvedQuery): QueryCriterion {
  return criterion('results', false, 'NO_RESULTS', 'HIGH', {
    reason: `no results returned (top_k=${query.top_k})`,
    details: { top_k: query.top_k, filters: query.filters },
  });
}

function criterion(
  name: string,
  passed: boolean,
  errorType: ErrorType,
  severity: Severity,
  what: { reason: string; details: Record<string, unknown> },
): QueryCriterion {
  return { name, passed, errorType, severity, ...what };
}

function describePass(query: ResolvedQuery, results: QueryResult[], criteria: QueryCriterion[], found: number): string {
  if (query.expect_match === false) {
    const best = Math.max(...results.map((r) => r.similarity_score));
    return `Out-of-domain probe: best similarity ${formatScore(best)} < ${formatScore(query.min_similarity)}`;
  }
  const { expected_module: module, expected_chapter: chapter } = query;
  const top = results.filter((r) => r.relevance).sort((a, b) => b.similarity_score - a.similarity_score)[0];
  const best = Math.max(...results.map((r) => r.similarity_score));
  // Seed 001's wording when one relevant chunk is itself on topic; otherwise each criterion is named on its own.
  const moduleHere = module !== null && top !== undefined && onModule(query, top);
  const chapterHere = chapter !== null && top !== undefined && onChapter(query, top);
  const where = [moduleHere ? `expected module '${module}'` : '', chapterHere ? `chapter '${chapter}'` : '']
    .filter((s) => s !== '')
    .join(', ');
  const lead = top
    ? `Found relevant chunk (similarity=${formatScore(top.similarity_score)})`
    : `Best similarity ${formatScore(best)} >= ${formatScore(query.min_similarity)}`;
  const parts = [where === '' ? lead : `${lead} in ${where}`];
  if (module !== null && !moduleHere) parts.push(`expected module '${module}' in top ${results.length}`);
  if (chapter !== null && !chapterHere) parts.push(`expected chapter '${chapter}' in top ${results.length}`);
  if (top === undefined) parts.push('no chunk judged relevant');
  if (query.expected_sources.length > 0) parts.push(`${found}/${query.expected_sources.length} expected sources found`);
  for (const c of criteria) {
    if (c.name === 'precision') parts.push(`precision@${query.top_k}=${formatScore(Number(c.details.precision_at_k))}`);
    if (c.name === 'latency') parts.push(`embedding + search latency ${c.details.retrieval_ms} ms`);
  }
  return parts.join('; ');
}

/** Two decimals, as people write similarities, unless that would hide a difference (0.6999 is not 0.70). */
function formatScore(value: number): string {
  const short = value.toFixed(2);
  return Number(short) === value ? short : String(value);
}

/** The values found, once each; a result without one (null, or '' for a page in no module) names none. */
function distinctValues(values: (string | null)[]): string[] {
  return [...new Set(values.filter((v): v is string => v !== null && v.trim() !== ''))];
}
