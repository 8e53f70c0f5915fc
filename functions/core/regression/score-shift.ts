/**
 * SCORE_SHIFT: the queries' best similarities fell together, each against its own baseline: the signature of a
 * silent embedding-model change, a re-index with other settings, or a query-side change. Judged with the
 * one-sided Wilcoxon signed-rank test (wilcoxon.ts) on the paired differences (best similarity now minus the
 * query's baseline median) of the queries shared with the baseline (flaky, stale and new ones left out). Pairing
 * is what lets twelve queries that all drop by 0.03 be seen, where an unpaired test of two overlapping sets of
 * twelve cannot. A shift counts when p < 0.01 AND the median difference is at most -0.02, so a large suite cannot
 * make a statistically real but harmless wobble into an alert (the noise of that median is about 0.004 for
 * twelve queries at a per-query sd of 0.01). Only a fall is a finding, like every other detector's worse direction.
 */
import { finding, type RegressionFinding, type ScoreShiftTest } from '../report/regression-report.ts';
import { median, roundTo } from '../shared/statistics.ts';
import type { DetectorContext } from './detector.ts';
import { wilcoxonLess } from './wilcoxon.ts';

const SCORE_SHIFT_P = 0.01;
const SCORE_SHIFT_MIN_MEDIAN_FALL = 0.02;

/** The test's figures (null with no pair) and the finding when it counts as a shift. */
export function detectScoreShift({ comparable, baseline }: Pick<DetectorContext, 'comparable' | 'baseline'>): {
  test: ScoreShiftTest | null;
  findings: RegressionFinding[];
} {
  const differences = Object.entries(comparable.queries).flatMap(([id, q]) => {
    const usual = baseline.queries[id]?.bestSimilarity;
    return q.bestSimilarity === null || usual === null || usual === undefined ? [] : [q.bestSimilarity - usual];
  });
  if (differences.length === 0) return { test: null, findings: [] };
  const { statistic, pValue, method } = wilcoxonLess(differences);
  const shift = median(differences) ?? 0;
  const test: ScoreShiftTest = {
    test: 'Wilcoxon signed-rank, paired, one-sided (fell)',
    method,
    statistic,
    p_value: pValue,
    pairs: differences.length,
    median_shift: shift,
  };
  if (pValue >= SCORE_SHIFT_P || shift > -SCORE_SHIFT_MIN_MEDIAN_FALL) return { test, findings: [] };
  const model = comparable.embeddingModel ? ` (embedding model reported: ${comparable.embeddingModel})` : '';
  return {
    test,
    findings: [
      finding({
        kind: 'SCORE_SHIFT',
        severity: 'HIGH',
        message: `best similarities fell together against their baseline: median ${roundTo(shift, 3)} over ${differences.length} queries, Wilcoxon W+=${statistic}, p=${pValue.toExponential(1)}${model}`,
        metric: 'best_similarity_paired',
        value: shift,
        baseline: 0,
        band: SCORE_SHIFT_P,
      }),
    ],
  };
}
