/**
 * What history keeps of a past run: the figures, per-query outcomes and coverage sets the regression detectors
 * compare with, distilled from a stored report. Read leniently (any field may be absent in an older report), so
 * a report written by an earlier version of the job still counts as history instead of breaking the run.
 */
import { matchesSource } from '../book/matching.ts';

export const RUN_METRICS = [
  'pass_rate',
  'mrr',
  'ndcg_at_k',
  'hit_rate',
  'avg_similarity',
  'p50_latency_ms',
  'p95_latency_ms',
  'p99_latency_ms',
] as const;
export type RunMetric = (typeof RUN_METRICS)[number];

export interface QueryDigest {
  status: 'PASS' | 'FAIL' | 'ERROR';
  bestSimilarity: number | null;
  /** Rank (1-based) of each expected source or relevant URL in the top results; null when it is not there. */
  expectedRanks: Record<string, number | null>;
  /**
   * A hash of the query as the suite gave it (text, expectations, thresholds): two runs compare a query's figures
   * only when it is the same query. null in a report without the query's definition.
   */
  hash: string | null;
  /** Its IR figures (reciprocal rank, nDCG@k, hit), so run-level means can be recomputed over shared queries. */
  ir: { rr: number; ndcg: number; hit: boolean } | null;
}

/**
 * A run's coverage gaps. A stored report keeps the first URLs of each list (sorted; render/url-lists.ts): when a list
 * was cut, `missingUpTo` / `orphansUpTo` is its last listed URL, and nothing is known of URLs sorting after it.
 */
export interface CoverageDigest {
  missing: string[];
  orphans: string[];
  missingUpTo?: string;
  orphansUpTo?: string;
}

export interface RunDigest {
  runId: string;
  status: 'PASSED' | 'FAILED' | 'ERROR';
  startedAt: string;
  collection: string;
  environment: string;
  /** Where the full report is (s3://... or a file path). */
  location: string;
  metrics: Partial<Record<RunMetric, number>>;
  queries: Record<string, QueryDigest>;
  coverage: CoverageDigest | null;
  embeddingModel: string | null;
  /**
   * The run was judged a quality regression against its own baseline (an alerting finding in its regression
   * section, confirmed or not): it never enters a later baseline, so the baseline stays frozen at an incident's onset.
   */
  regressed: boolean;
}

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** The digest of a report (parsed JSON), or null when it is not a report at all (no run id, status or start). */
export function digestReport(raw: unknown, location: string): RunDigest | null {
  if (!isObject(raw)) return null;
  const { run_id, status, timestamp } = raw;
  if (typeof run_id !== 'string' || typeof timestamp !== 'string') return null;
  if (status !== 'PASSED' && status !== 'FAILED' && status !== 'ERROR') return null;
  const vm = isObject(raw.validation_metrics) ? raw.validation_metrics : {};
  const metrics: RunDigest['metrics'] = {};
  const passRate = num(raw.pass_rate);
  if (passRate !== undefined && num(raw.total_queries)) metrics.pass_rate = passRate;
  for (const name of RUN_METRICS.slice(1)) {
    const value = num(vm[name]);
    if (value !== undefined) metrics[name] = value;
  }
  const queries: Record<string, QueryDigest> = {};
  for (const q of Array.isArray(raw.query_results) ? raw.query_results : []) {
    if (!isObject(q) || typeof q.id !== 'string') continue;
    if (q.status !== 'PASS' && q.status !== 'FAIL' && q.status !== 'ERROR') continue;
    queries[q.id] = {
      status: q.status,
      bestSimilarity: num(q.best_similarity) ?? null,
      expectedRanks: ranksOf(q),
      hash: isObject(q.query) ? fnv1a(canonicalJson(q.query)) : null,
      ir: irOf(q.metrics),
    };
  }
  const cov = isObject(raw.coverage_report) ? raw.coverage_report : null;
  const execution = isObject(raw.execution) ? raw.execution : {};
  return {
    runId: run_id,
    status,
    startedAt: timestamp,
    collection: typeof raw.collection === 'string' ? raw.collection : '',
    environment: typeof raw.environment === 'string' ? raw.environment : '',
    location,
    metrics,
    queries,
    coverage: cov ? coverageDigest(cov) : null,
    embeddingModel: typeof execution.embedding_model === 'string' ? execution.embedding_model : null,
    regressed: regressedIn(raw.regression),
  };
}

/** Did the stored regression section hold a finding that alerts ops (not a suite matter, FLAKY or latency)? */
function regressedIn(section: unknown): boolean {
  if (!isObject(section) || !Array.isArray(section.findings)) return false;
  return section.findings.some(
    (f) =>
      isObject(f) &&
      f.addressed_to === 'operations' &&
      f.kind !== 'FLAKY' &&
      !(f.kind === 'METRIC_DROPPED' && typeof f.metric === 'string' && f.metric.endsWith('_ms')),
  );
}

function irOf(raw: unknown): QueryDigest['ir'] {
  if (!isObject(raw)) return null;
  const rr = num(raw.reciprocal_rank);
  const ndcg = num(raw.ndcg_at_k);
  return rr === undefined || ndcg === undefined || typeof raw.hit !== 'boolean' ? null : { rr, ndcg, hit: raw.hit };
}

/** JSON with object keys sorted, so the same query hashes the same whatever order its fields were written in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** FNV-1a, 32 bits, as 8 hex digits: enough to tell an edited query from the same one. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** The expectations a resolved suite entry names: its expected sources and its relevant URLs. */
export function expectationsOf(query: unknown): string[] {
  if (!isObject(query)) return [];
  // Resolved entries judge by { kind: 'url', target }; a suite file's own shape is { url }.
  const relevant = Array.isArray(query.relevant)
    ? query.relevant.flatMap((r) => {
        if (!isObject(r)) return [];
        if (r.kind === 'url' && typeof r.target === 'string') return [r.target];
        return typeof r.url === 'string' ? [r.url] : [];
      })
    : [];
  return [...new Set([...strings(query.expected_sources), ...relevant])];
}

function ranksOf(q: Loose): Record<string, number | null> {
  const hits = (Array.isArray(q.top_results) ? q.top_results : []).filter(isObject);
  const ranks: Record<string, number | null> = {};
  for (const expected of expectationsOf(q.query)) {
    const hit = hits.find((h) => matchesSource(expected, typeof h.source_url === 'string' ? h.source_url : null));
    ranks[expected] = hit ? (num(hit.rank) ?? null) : null;
  }
  return ranks;
}

function coverageDigest(cov: Record<string, unknown>): CoverageDigest {
  const missing = strings(cov.missing_urls);
  const orphans = strings(cov.extra_urls);
  const cut = (list: string[], count: unknown) =>
    typeof count === 'number' && count > list.length && list.length > 0 ? list[list.length - 1] : undefined;
  const missingUpTo = cut(missing, cov.missing_count);
  const orphansUpTo = cut(orphans, cov.extra_count);
  return {
    missing,
    orphans,
    ...(missingUpTo === undefined ? {} : { missingUpTo }),
    ...(orphansUpTo === undefined ? {} : { orphansUpTo }),
  };
}
