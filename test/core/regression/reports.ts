/** A report and its history for the regression tests: the passed fixture, with each query expecting one page. */
import { digestReport, type RunDigest } from '../../../functions/core/history/run-digest.ts';
import type { QueryResult } from '../../../functions/core/report/query-validation.ts';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import { buildPassedReport } from '../../nightly/fixtures/reports.ts';

export const BOOK = 'https://book.example.org';

export function hit(rank: number, url: string, score = 0.8): QueryResult {
  return {
    rank,
    chunk_id: `c-${rank}-${url}`,
    chunk_text: 'text',
    similarity_score: score,
    source_url: url,
    chapter_id: null,
    module_name: null,
    heading_hierarchy: null,
    token_count: null,
    chunk_index: null,
    raw_score: score,
    confidence_score: 1,
    timestamp: null,
    model_version: null,
    payload_issues: [],
    relevance: true,
    relevance_grade: 1,
  };
}

/** Ten passing queries q1..q10; query qN expects /docs/intro at rank 1 and scores 0.8 + N/100. */
export function buildReport(): ValidationReport {
  const report = structuredClone(buildPassedReport());
  for (const [i, q] of report.query_results.entries()) {
    // As the suite resolves it (suite.ts): relevance judged by { kind, target, grade }.
    q.query = { id: q.id, relevant: [{ kind: 'url', target: '/docs/intro', grade: 3 }] };
    q.best_similarity = 0.8 + i / 100;
    q.top_results = [hit(1, `${BOOK}/docs/intro`, q.best_similarity)];
    q.metrics = {
      k: 5,
      judged_relevant: 1,
      retrieved_relevant: 1,
      precision_at_k: 0.2,
      recall_at_k: 1,
      reciprocal_rank: 1,
      ndcg_at_k: 1,
      hit: true,
    };
  }
  report.validation_metrics.mrr = 1;
  report.validation_metrics.ndcg_at_k = 1;
  report.validation_metrics.hit_rate = 1;
  return report;
}

/** `count` earlier runs like buildReport(), one a night before `report`, newest first. */
export function historyOf(count: number, tweak: (r: ValidationReport) => void = () => {}): RunDigest[] {
  return Array.from({ length: count }, (_, i) => {
    const r = buildReport();
    r.run_id = `00000000-0000-4000-8000-0000000000${String(i).padStart(2, '0')}`;
    r.timestamp = new Date(Date.parse(r.timestamp) - (i + 1) * 86_400_000).toISOString();
    tweak(r);
    return digestReport(r, `s3://b/${r.run_id}.json`) as RunDigest;
  });
}

export function query(report: ValidationReport, id: string) {
  const q = report.query_results.find((r) => r.id === id);
  if (!q) throw new Error(`no query ${id}`);
  return q;
}
