/**
 * A query's hits as report rows (seed 001 QueryResult), each with its relevance: by the query's `relevant`
 * judgments when it has some; else by its expected_sources (grade 1); else the row is on topic (expected module
 * and chapter, when given) and scores at least min_similarity. A row takes the best judgment it matches, so every
 * chunk of a relevant page is relevant (the IR metrics count a page once: ir-metrics.ts). Scores are rounded to 4
 * decimals here, once.
 */

import { matchesChapter, matchesModule } from '../book/matching.ts';
import type { Payload, SearchHit } from '../ports.ts';
import type { QueryResult, QueryValidationResult } from '../report/query-validation.ts';
import { roundTo } from '../shared/statistics.ts';
import type { Relevance, ResolvedQuery } from '../suite/suite.ts';
import { gradeItem } from './ir-metrics.ts';

/**
 * Maps hits to ranked rows with relevance flags and grades. Rows are ordered by similarity, highest first (seed 004;
 * the index already answers so, and a stable sort keeps its order among ties).
 */
export function toQueryResults(query: ResolvedQuery, hits: readonly SearchHit[]): QueryResult[] {
  const sorted = [...hits].sort((a, b) => b.score - a.score);
  const rows = sorted.map((hit, i) => {
    const similarity = roundTo(Math.min(1, Math.max(0, hit.score)), 4);
    return {
      rank: i + 1,
      chunk_id: hit.id,
      similarity_score: similarity,
      raw_score: hit.score,
      ...readPayload(hit.payload),
    };
  });
  const judgments = judgmentsOf(query);
  const grades = judgments
    ? rows.map((r) => gradeItem(judgments, r))
    : rows.map((r) =>
        onModule(query, r) && onChapter(query, r) && r.similarity_score >= query.min_similarity ? 1 : 0,
      );
  const topGrade = judgments ? Math.max(1, ...judgments.map((j) => j.grade)) : 1;
  return rows.map((row, i) => {
    const grade = grades[i] ?? 0;
    return {
      ...row,
      confidence_score: scoreResultConfidence({
        similarity: row.similarity_score,
        minSimilarity: query.min_similarity,
        grade,
        topGrade,
      }),
      relevance: grade > 0,
      relevance_grade: grade,
    };
  });
}

/**
 * Seed 003's per-result confidence_score, "confidence in the relevance of the result": its relevance grade as a share
 * of the query's top grade, times how fully its similarity clears the query's min_similarity (capped at 1). A result
 * judged not relevant scores 0 however close its vector is: similarity says how near two vectors are, not whether
 * the chunk is what the question was after. Against the query's own threshold, 1 means "relevant, as sure as the
 * suite asks"; a relevant result at half the threshold scores 0.5. With min_similarity 0 every result clears the bar.
 */
export function scoreResultConfidence(options: {
  similarity: number;
  minSimilarity: number;
  grade: number;
  topGrade: number;
}): number {
  const { similarity, minSimilarity, grade, topGrade } = options;
  if (grade <= 0 || topGrade <= 0) return 0;
  const clearance = minSimilarity <= 0 ? 1 : Math.min(1, similarity / minSimilarity);
  return roundTo(Math.min(1, grade / topGrade) * clearance, 4);
}

/**
 * Seed 000's per-query confidence_score: the mean of its results' confidence, each weighted by its rank as nDCG
 * discounts it (1 / log2(rank + 1)): an irrelevant result at rank 1 costs more than one at rank 5, since it is what a
 * reader sees first. null when nothing came back.
 */
export function scoreQueryConfidence(
  results: readonly Pick<QueryResult, 'rank' | 'confidence_score'>[],
): number | null {
  if (results.length === 0) return null;
  const weights = results.map((r) => 1 / Math.log2(r.rank + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  return roundTo(results.reduce((sum, r, i) => sum + r.confidence_score * (weights[i] ?? 0), 0) / total, 4);
}

/** The query's relevance judgments: its `relevant` list, else its expected sources at grade 1, else none. */
export function judgmentsOf(query: ResolvedQuery): Relevance[] | null {
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
export function onTopic(q: ResolvedQuery, results: QueryResult[]): QueryResult[] {
  const topical = results.filter((r) => r.similarity_score >= q.min_similarity);
  return topical.length > 0 ? topical : results;
}
export const onModule = (q: ResolvedQuery, r: Row) =>
  q.expected_module === null || matchesModule(q.expected_module, r.module_name, r.chapter_id);
export const onChapter = (q: ResolvedQuery, r: Row) =>
  q.expected_chapter === null || matchesChapter(q.expected_chapter, r.chapter_id);

/** The payload's fields as report values; a value that breaks a seed rule becomes null and an issue, never a guess. */
function readPayload(payload: Payload) {
  const issues: string[] = [];
  const text = stringOf(payload, 'chunk_text');
  if (text === null || text.trim() === '') issues.push('chunk_text: missing or empty');
  const url = stringOf(payload, 'source_url');
  const validUrl = url !== null && isHttpUrl(url);
  if (url !== null && !validUrl) issues.push(`source_url: not an http(s) URL: ${JSON.stringify(url.slice(0, 100))}`);
  const tokens = numberOf(payload, 'token_count');
  const validTokens = tokens !== null && Number.isInteger(tokens) && tokens > 0;
  if (tokens !== null && !validTokens) issues.push(`token_count: must be a whole number > 0, got ${tokens}`);
  const index = numberOf(payload, 'chunk_index');
  const validIndex = index !== null && Number.isInteger(index) && index >= 0;
  if (index !== null && !validIndex) issues.push(`chunk_index: must be a whole number >= 0, got ${index}`);
  return {
    chunk_text: text === null || text.trim() === '' ? null : text,
    source_url: validUrl ? url : null,
    chapter_id: stringOf(payload, 'chapter_id'),
    module_name: stringOf(payload, 'module_name'),
    heading_hierarchy: stringsOf(payload, 'heading_hierarchy'),
    token_count: validTokens ? tokens : null,
    chunk_index: validIndex ? index : null,
    timestamp: stringOf(payload, 'indexed_at'),
    model_version: stringOf(payload, 'model_version'),
    payload_issues: issues,
  };
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
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

/**
 * The query stage's rows, looked up by the arguments a retrieval tool would search with (text, top_k, filters),
 * as hits again: the grounded-answer stage reuses them instead of embedding and searching a second time.
 */
export function indexSearchedHits(results: readonly QueryValidationResult[]) {
  const byArgs = new Map<string, SearchHit[]>();
  for (const r of results) {
    if (r.status === 'ERROR') continue;
    const q = r.query as Pick<ResolvedQuery, 'top_k' | 'filters'>;
    byArgs.set(
      searchKey(r.query_text, q.top_k, q.filters),
      r.top_results.map((row) => ({
        id: row.chunk_id,
        score: row.similarity_score,
        payload: Object.fromEntries(
          Object.entries({
            chunk_text: row.chunk_text,
            source_url: row.source_url,
            chapter_id: row.chapter_id,
            module_name: row.module_name,
            heading_hierarchy: row.heading_hierarchy,
          }).filter(([, v]) => v !== null),
        ),
      })),
    );
  }
  return (args: { query: string; top_k: number; filters?: ResolvedQuery['filters'] }) =>
    byArgs.get(searchKey(args.query, args.top_k, args.filters ?? {}));
}

function searchKey(text: string, topK: number, filters: ResolvedQuery['filters']): string {
  const f = filters ?? {};
  return JSON.stringify([text, topK, f.module ?? null, f.chapter ?? null, f.section ?? null, f.url ?? null]);
}
