/**
 * trec_eval-style IR metrics for one ranking against graded relevance judgments, and their means over a run.
 * Conventions: P@k divides by k even when fewer than k came back; recall divides by every judged-relevant target;
 * reciprocal rank is that of the first relevant result within k (0 if none); nDCG@k uses linear gain (the grade)
 * and a log2(rank + 1) discount, its ideal built from every judged grade, sorted, cut at k. The ranking is taken
 * in the order the index returned it: tied scores are not re-sorted, because that order is what a reader sees.
 * Each judgment is credited once: the second chunk of an already-credited URL is not relevant again.
 */

import { matchesSource, normaliseUrl } from '../book/matching.ts';
import type { IrMetrics } from '../report/query-validation.ts';
import type { ValidationMetrics } from '../report/validation-metrics.ts';
import { roundTo } from '../shared/statistics.ts';
import type { Relevance } from '../suite/suite.ts';

/** What the metrics need of a retrieved item; QueryResult fits. */
export interface RankedItem {
  chunk_id: string;
  source_url: string | null;
}

const DECIMALS = 4;

/** The grade each ranked item earns (0 = not relevant); an item takes the best judgment it matches that no earlier item took. */
export function gradeRanking(options: { ranking: readonly RankedItem[]; judgments: readonly Relevance[] }): number[] {
  const open = dedupeJudgments(options.judgments);
  return options.ranking.map((item) => {
    let best = -1;
    open.forEach((judgment, i) => {
      const grade = open[best]?.grade ?? 0;
      if (judgment.grade > grade && matchesItem(judgment, item)) best = i;
    });
    const taken = open[best];
    if (taken === undefined) return 0;
    open.splice(best, 1);
    return taken.grade;
  });
}

/** The grade of one item on its own: the best judgment it matches, whatever else in the ranking matched it too. */
export function gradeItem(judgments: readonly Relevance[], item: RankedItem): number {
  return judgments.reduce((best, j) => (j.grade > best && matchesItem(j, item) ? j.grade : best), 0);
}

/** IR metrics at k for one ranking; null when the query has no judgments (it cannot be scored). */
export function computeIrMetrics(options: {
  ranking: readonly RankedItem[];
  judgments: readonly Relevance[] | null;
  k: number;
}): IrMetrics | null {
  const { k } = options;
  const judgments = dedupeJudgments(options.judgments ?? []);
  if (judgments.length === 0) return null;
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`computeIrMetrics: k must be a whole number >= 1, got ${k}`);
  const grades = gradeRanking({ ranking: options.ranking.slice(0, k), judgments });
  const firstRelevant = grades.findIndex((g) => g > 0);
  const retrieved = grades.filter((g) => g > 0).length;
  const ideal = judgments.map((j) => j.grade).sort((a, b) => b - a);
  return {
    k,
    judged_relevant: judgments.length,
    retrieved_relevant: retrieved,
    precision_at_k: roundTo(retrieved / k, DECIMALS),
    recall_at_k: roundTo(retrieved / judgments.length, DECIMALS),
    reciprocal_rank: firstRelevant === -1 ? 0 : roundTo(1 / (firstRelevant + 1), DECIMALS),
    ndcg_at_k: roundTo(discountedGain(grades, k) / discountedGain(ideal, k), DECIMALS),
    hit: retrieved > 0,
  };
}

export type MeanIrMetrics = Pick<
  ValidationMetrics,
  'judged_queries' | 'overall_precision' | 'overall_recall' | 'mrr' | 'ndcg_at_k' | 'hit_rate'
>;

/** Means over the judged queries (null entries are unjudged and skipped); every mean is null when none was judged. */
export function meanIrMetrics(list: readonly (IrMetrics | null)[]): MeanIrMetrics {
  const judged = list.filter((m): m is IrMetrics => m !== null);
  const mean = (pick: (m: IrMetrics) => number) =>
    judged.length === 0 ? null : roundTo(judged.reduce((sum, m) => sum + pick(m), 0) / judged.length, DECIMALS);
  return {
    judged_queries: judged.length,
    overall_precision: mean((m) => m.precision_at_k),
    overall_recall: mean((m) => m.recall_at_k),
    mrr: mean((m) => m.reciprocal_rank),
    ndcg_at_k: mean((m) => m.ndcg_at_k),
    hit_rate: mean((m) => (m.hit ? 1 : 0)),
  };
}

function discountedGain(grades: readonly number[], k: number): number {
  return grades.slice(0, k).reduce((sum, grade, i) => sum + grade / Math.log2(i + 2), 0);
}

function matchesItem(judgment: Relevance, item: RankedItem): boolean {
  return judgment.kind === 'chunk_id'
    ? judgment.target === item.chunk_id
    : matchesSource(judgment.target, item.source_url);
}

/** The same target judged twice counts once, at its higher grade; order is kept so ties go to the first listed. */
function dedupeJudgments(judgments: readonly Relevance[]): Relevance[] {
  const byKey = new Map<string, Relevance>();
  for (const j of judgments) {
    // A grade of 0 is a judgment of "not relevant": it must not enter the ideal ranking.
    if (!(j.grade > 0)) continue;
    const key = `${j.kind}:${j.kind === 'url' ? normaliseUrl(j.target) : j.target}`;
    const seen = byKey.get(key);
    if (seen === undefined || j.grade > seen.grade) byKey.set(key, j);
  }
  return [...byKey.values()];
}
