/**
 * SCORE_SHIFT: the distribution of the queries' best similarities moved as a whole, the signature of a silent
 * embedding-model change or a re-index with different settings. Judged with the two-sample Kolmogorov-Smirnov
 * test (ks-test.ts) of this run's best similarities against each query's baseline median; a shift counts when
 * the test rejects "same distribution" at p < 0.01 AND the median fell by at least 0.05, so a large suite cannot
 * make a statistically real but harmless 0.01 drift into an alert. Only a fall is a finding, like every other
 * detector's worse direction: a rise is what the first clean night after an incident looks like against a
 * baseline that still holds broken nights (the test's figures are kept in the section either way). One broken module moves a few queries, not the
 * whole distribution: that is QUERY_REGRESSED's business.
 */

import { finding, type RegressionFinding, type ScoreShiftTest } from '../report/regression-report.ts';
import { median, roundTo } from '../shared/statistics.ts';
import type { DetectorContext } from './detector.ts';
import { twoSampleKs } from './ks-test.ts';

const SCORE_SHIFT_P = 0.01;
const SCORE_SHIFT_MIN_MEDIAN_MOVE = 0.05;

/** The test's figures (null when a sample is empty) and the finding when it counts as a shift. */
export function detectScoreShift({ current, baseline }: Pick<DetectorContext, 'current' | 'baseline'>): {
  test: ScoreShiftTest | null;
  findings: RegressionFinding[];
} {
  const now = Object.values(current.queries).flatMap((q) => (q.bestSimilarity === null ? [] : [q.bestSimilarity]));
  const usual = baseline.bestSimilarities;
  if (now.length === 0 || usual.length === 0) return { test: null, findings: [] };
  const { statistic, pValue } = twoSampleKs(now, usual);
  const shift = (median(now) ?? 0) - (median(usual) ?? 0);
  const test: ScoreShiftTest = {
    test: 'two-sample Kolmogorov-Smirnov',
    statistic,
    p_value: pValue,
    sample_sizes: [now.length, usual.length],
    median_shift: shift,
  };
  if (pValue >= SCORE_SHIFT_P || shift > -SCORE_SHIFT_MIN_MEDIAN_MOVE) return { test, findings: [] };
  const model = current.embeddingModel ? ` (embedding model reported: ${current.embeddingModel})` : '';
  return {
    test,
    findings: [
      finding({
        kind: 'SCORE_SHIFT',
        severity: 'HIGH',
        message: `best similarities fell as a whole: median ${roundTo(shift, 3)}, KS D=${roundTo(statistic, 3)}, p=${pValue.toExponential(1)}${model}`,
        metric: 'best_similarity_distribution',
        value: statistic,
        baseline: median(usual),
        band: SCORE_SHIFT_P,
      }),
    ],
  };
}
