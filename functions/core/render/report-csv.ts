/**
 * The per-query rows of a report as CSV (seed 001 ExportFormats: JSON and CSV), for a spreadsheet: one row per
 * golden query, RFC 4180 quoting, CRLF line ends. Query text and reasons may carry book text: a cell that starts
 * with = + - @ (or a tab or CR) is prefixed with ' so a spreadsheet shows it instead of running it as a formula.
 * Every row ends with the run's id, start time, collection and environment, so the CSVs of many runs (or
 * deployments) concatenate into one sheet that still says which run each row came from.
 */
import type { QueryValidationResult } from '../report/query-validation.ts';
import type { ValidationReport } from '../report/report.ts';

// Each column is named by its path in the JSON report's query result (docs/DATA-MODEL.md's notation), so a CSV
// column and a JSON field never differ in name: `metrics.precision_at_k` is `query_results[].metrics.precision_at_k`.
const COLUMNS: [string, (q: QueryValidationResult) => unknown][] = [
  ['id', (q) => q.id],
  ['query_category', (q) => q.query_category],
  ['status', (q) => q.status],
  ['query_text', (q) => q.query_text],
  ['pass_reason', (q) => q.pass_reason],
  ['fail_reason', (q) => q.fail_reason],
  ['error_types', (q) => q.error_types.join(' ')],
  ['best_similarity', (q) => q.best_similarity],
  ['mean_top_k_similarity', (q) => q.mean_top_k_similarity],
  ['semantic_alignment_score', (q) => q.semantic_alignment_score],
  ['module_match', (q) => q.module_match],
  ['chapter_match', (q) => q.chapter_match],
  ['expected_sources_found', (q) => q.expected_sources_found],
  ['total_expected_sources', (q) => q.total_expected_sources],
  ['metrics.precision_at_k', (q) => q.metrics?.precision_at_k],
  ['metrics.recall_at_k', (q) => q.metrics?.recall_at_k],
  ['metrics.reciprocal_rank', (q) => q.metrics?.reciprocal_rank],
  ['metrics.ndcg_at_k', (q) => q.metrics?.ndcg_at_k],
  ['latency.embedding_ms', (q) => q.latency.embedding_ms],
  ['latency.search_ms', (q) => q.latency.search_ms],
  ['latency.post_processing_ms', (q) => q.latency.post_processing_ms],
  ['latency.total_ms', (q) => q.latency.total_ms],
  ['top_results[0].source_url', (q) => q.top_results[0]?.source_url],
  ['top_results[0].similarity_score', (q) => q.top_results[0]?.similarity_score],
];

/** The run's own columns, the same on every row, after the query's. */
const RUN_COLUMNS: [string, (r: RunFields) => unknown][] = [
  ['run_id', (r) => r.run_id],
  ['run_started_at', (r) => r.timestamp],
  ['collection', (r) => r.collection],
  ['environment', (r) => r.environment],
];

type RunFields = Pick<ValidationReport, 'run_id' | 'timestamp' | 'collection' | 'environment'>;

/** The CSV text: a header row, then one row per query in report order. */
export function renderQueryRowsCsv(report: Pick<ValidationReport, 'query_results'> & RunFields): string {
  const lines = [[...COLUMNS, ...RUN_COLUMNS].map(([name]) => name).join(',')];
  const run = RUN_COLUMNS.map(([, get]) => cell(get(report)));
  for (const q of report.query_results) lines.push([...COLUMNS.map(([, get]) => cell(get(q))), ...run].join(','));
  return `${lines.join('\r\n')}\r\n`;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}
