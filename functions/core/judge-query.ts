/**
 * The verdict on one golden query: its hits as report rows with relevance, the figures (best and mean similarity,
 * module and chapter match, expected sources, IR metrics), and PASS / FAIL / ERROR with a reason and typed errors.
 * Relevance of a row: by the query's `relevant` judgments when it has some; else by its expected_sources (grade 1);
 * else the row is on topic (expected module and chapter, when given) and scores at least min_similarity.
 * Scores are rounded to 4 decimals before anything is compared, so the verdict agrees with the figures reported.
 */
import { roundTo } from './distribution.ts';
import { computeIrMetrics, gradeRanking } from './ir-metrics.ts';
import { matchesChapter, matchesModule, matchesSource } from './matching.ts';
import type { Payload, SearchHit } from './ports.ts';
import type {
  ErrorType,
  LatencyBreakdown,
  QueryResult,
  QueryValidationResult,
  Severity,
  ValidationError,
} from './report.ts';
import type { Relevance, ResolvedQuery } from './suite.ts';

export interface QueryFailure {
  errorType: 'EMBEDDING_FAILED' | 'RETRIEVAL_FAILED' | 'TIMEOUT';
  message: string;
}

/** One evaluated criterion; a failed one becomes a reason and a ValidationError. */
interface Check {
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
  latency: LatencyBreakdown;
  timestamp: string;
  newId: () => string;
}): { result: QueryValidationResult; errors: ValidationError[] } {
  const { query, latency, failure } = options;
  const results = toQueryResults(query, options.hits ?? []);
  const scores = results.map((r) => r.similarity_score);
  const found = query.expected_sources.filter((s) => results.some((r) => matchesSource(s, r.source_url)));
  const total = query.expected_sources.length;
  // A judged query that returned nothing still scores (zeros), so run means count it as trec_eval does.
  const metrics = computeIrMetrics({ ranking: results, judgments: judgmentsOf(query), k: query.top_k });

  const checks: Check[] = failure
    ? [failureCheck(failure, latency)]
    : results.length === 0
      ? [noResultsCheck(query)]
      : evaluateChecks(query, results, latency, found, metrics?.precision_at_k);
  const failed = checks.filter((c) => !c.passed);
  const status = failure ? 'ERROR' : failed.length > 0 ? 'FAIL' : 'PASS';

  const result: QueryValidationResult = {
    id: query.id,
    query_text: query.query_text,
    query_category: query.category,
    description: query.description,
    query: structuredClone({ ...query }),
    status,
    passed: status === 'PASS',
    pass_reason: status === 'PASS' ? describePass(query, results, checks, found.length) : null,
    fail_reason: status === 'PASS' ? null : failed.map((c) => c.reason).join('; '),
    top_results: results,
    best_similarity: scores.length === 0 ? null : Math.max(...scores),
    avg_similarity: scores.length === 0 ? null : roundTo(scores.reduce((a, b) => a + b, 0) / scores.length, 4),
    module_match: query.expected_module === null ? null : onTopic(query, results).some((r) => onModule(query, r)),
    chapter_match: query.expected_chapter === null ? null : onTopic(query, results).some((r) => onChapter(query, r)),
    expected_sources_found: found.length,
    total_expected_sources: total,
    sources_match_ratio: total === 0 ? null : roundTo(found.length / total, 4),
    missing_expected_sources: query.expected_sources.filter((s) => !found.includes(s)),
    metrics,
    latency,
    criteria_evaluations: failure ? {} : Object.fromEntries(checks.map((c) => [c.name, c.passed])),
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

function evaluateChecks(
  query: ResolvedQuery,
  results: QueryResult[],
  latency: LatencyBreakdown,
  found: string[],
  judgedPrecision: number | undefined,
): Check[] {
  const best = Math.max(...results.map((r) => r.similarity_score));
  const n = results.length;
  const checks: Check[] = [
    check('similarity', best >= query.min_similarity, 'LOW_RELEVANCE', 'MEDIUM', {
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
    checks.push(
      check(
        'module',
        topical.some((r) => onModule(query, r)),
        'METADATA_MISMATCH',
        'MEDIUM',
        {
          reason: `expected module '${query.expected_module}' not ${among} (got: ${got.join(', ') || 'none'})`,
          details: { expected_module: query.expected_module, found_modules: got },
        },
      ),
    );
  }
  if (query.expected_chapter !== null) {
    const got = distinctValues(topical.map((r) => r.chapter_id));
    checks.push(
      check(
        'chapter',
        topical.some((r) => onChapter(query, r)),
        'METADATA_MISMATCH',
        'MEDIUM',
        {
          reason: `expected chapter '${query.expected_chapter}' not ${among} (got: ${got.join(', ') || 'none'})`,
          details: { expected_chapter: query.expected_chapter, found_chapters: got },
        },
      ),
    );
  }
  if (query.criteria.require_expected_sources === true) {
    const missing = query.expected_sources.filter((s) => !found.includes(s));
    const total = query.expected_sources.length;
    checks.push(
      check('expected_sources', missing.length === 0, 'MISSING_EXPECTED_SOURCE', 'MEDIUM', {
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
    checks.push(
      check('precision', precision >= minPrecision, 'LOW_PRECISION', 'MEDIUM', {
        reason: `precision@${query.top_k} ${formatScore(precision)} < ${formatScore(minPrecision)}`,
        details: { precision_at_k: precision, min_precision: minPrecision, k: query.top_k },
      }),
    );
  }
  const maxLatency = query.criteria.max_latency_ms;
  if (maxLatency !== undefined) {
    checks.push(
      check('latency', latency.total_ms <= maxLatency, 'LATENCY_EXCEEDED', 'LOW', {
        reason: `latency ${roundTo(latency.total_ms, 1)} ms > ${maxLatency} ms`,
        details: { ...latency, max_latency_ms: maxLatency },
      }),
    );
  }
  return checks;
}

function failureCheck(failure: QueryFailure, latency: LatencyBreakdown): Check {
  return check('retrieval', false, failure.errorType, 'HIGH', {
    reason: failure.message,
    details: { total_ms: latency.total_ms },
  });
}

function noResultsCheck(query: ResolvedQuery): Check {
  return check('results', false, 'NO_RESULTS', 'HIGH', {
    reason: `no results returned (top_k=${query.top_k})`,
    details: { top_k: query.top_k, filters: query.filters },
  });
}

function check(
  name: string,
  passed: boolean,
  errorType: ErrorType,
  severity: Severity,
  what: { reason: string; details: Record<string, unknown> },
): Check {
  return { name, passed, errorType, severity, ...what };
}

function describePass(query: ResolvedQuery, results: QueryResult[], checks: Check[], found: number): string {
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
  for (const c of checks) {
    if (c.name === 'precision') parts.push(`precision@${query.top_k}=${formatScore(Number(c.details.precision_at_k))}`);
    if (c.name === 'latency') parts.push(`latency ${roundTo(Number(c.details.total_ms), 1)} ms`);
  }
  return parts.join('; ');
}

function toQueryResults(query: ResolvedQuery, hits: readonly SearchHit[]): QueryResult[] {
  const rows = hits.map((hit, i) => ({
    rank: i + 1,
    chunk_id: hit.id,
    chunk_text: stringOf(hit.payload, 'chunk_text') ?? '',
    similarity_score: roundTo(hit.score, 4),
    source_url: stringOf(hit.payload, 'source_url'),
    chapter_id: stringOf(hit.payload, 'chapter_id'),
    module_name: stringOf(hit.payload, 'module_name'),
    heading_hierarchy: stringsOf(hit.payload, 'heading_hierarchy'),
    token_count: numberOf(hit.payload, 'token_count'),
    chunk_index: numberOf(hit.payload, 'chunk_index'),
  }));
  const judgments = judgmentsOf(query);
  const grades = judgments
    ? gradeRanking({ ranking: rows, judgments })
    : rows.map((r) =>
        onModule(query, r) && onChapter(query, r) && r.similarity_score >= query.min_similarity ? 1 : 0,
      );
  return rows.map((row, i) => ({ ...row, relevance: (grades[i] ?? 0) > 0, relevance_grade: grades[i] ?? 0 }));
}

/** The query's relevance judgments: its `relevant` list, else its expected sources at grade 1, else none. */
function judgmentsOf(query: ResolvedQuery): Relevance[] | null {
  if (query.relevant !== null && query.relevant.length > 0) return query.relevant;
  if (query.expected_sources.length > 0)
    return query.expected_sources.map((target) => ({ kind: 'url' as const, target, grade: 1 }));
  return null;
}

type Row = Pick<QueryResult, 'module_name' | 'chapter_id'>;
/**
 * The results a module or chapter match is judged on: those scoring at least min_similarity, since an off-topic
 * chunk at rank 5 must not make a stale expectation pass; all of them when none does (LOW_RELEVANCE says that).
 */
function onTopic(q: ResolvedQuery, results: QueryResult[]): QueryResult[] {
  const topical = results.filter((r) => r.similarity_score >= q.min_similarity);
  return topical.length > 0 ? topical : results;
}
const onModule = (q: ResolvedQuery, r: Row) =>
  q.expected_module === null || matchesModule(q.expected_module, r.module_name, r.chapter_id);
const onChapter = (q: ResolvedQuery, r: Row) =>
  q.expected_chapter === null || matchesChapter(q.expected_chapter, r.chapter_id);

/** Two decimals, as people write similarities, unless that would hide a difference (0.6999 is not 0.70). */
function formatScore(value: number): string {
  const short = value.toFixed(2);
  return Number(short) === value ? short : String(value);
}

function distinctValues(values: (string | null)[]): string[] {
  return [...new Set(values.filter((v): v is string => v !== null))];
}

function stringOf(payload: Payload, key: string): string | null {
  const value = payload[key];
  return typeof value === 'string' ? value : null;
}

function numberOf(payload: Payload, key: string): number | null {
  const value = payload[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function stringsOf(payload: Payload, key: string): string[] | null {
  const value = payload[key];
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null;
}
