/**
 * The detectors judged against the 7-run baseline, in the order their findings are listed. Adding a detector is
 * one file and one line here. Its own module so the replay's ablation test can switch them all off and show the
 * replay then fails (test/replay/ablation.test.ts).
 */
import { detectCoverageChanges } from './coverage-changes.ts';
import type { Detector } from './detector.ts';
import { detectMetricDrops } from './metric-drops.ts';
import { detectNewQueriesFailing, detectQueryRegressions } from './query-regressions.ts';
import { detectRankDrops } from './rank-drops.ts';
import { detectSimilarityDrops } from './similarity-drops.ts';

export const BASELINE_DETECTORS: Detector[] = [
  detectQueryRegressions,
  detectNewQueriesFailing,
  detectRankDrops,
  detectSimilarityDrops,
  detectMetricDrops,
  detectCoverageChanges,
];
