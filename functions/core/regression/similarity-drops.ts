/** SIMILARITY_DROPPED: a query's best similarity is below its baseline by more than the query's noise band. */

import { finding } from '../report/regression-report.ts';
import { roundTo } from '../shared/statistics.ts';
import type { Detector } from './detector.ts';

export const detectSimilarityDrops: Detector = ({ comparable, baseline }) =>
  Object.entries(comparable.queries).flatMap(([id, now]) => {
    const usual = baseline.queries[id];
    if (!usual || usual.bestSimilarity === null || now.bestSimilarity === null) return [];
    if (now.bestSimilarity >= usual.bestSimilarity - usual.similarityBand) return [];
    return [
      finding({
        kind: 'SIMILARITY_DROPPED',
        severity: 'LOW',
        message: `query ${id}: best similarity ${roundTo(now.bestSimilarity, 3)}, usually ${roundTo(usual.bestSimilarity, 3)} ± ${roundTo(usual.similarityBand, 3)}`,
        query_id: id,
        value: now.bestSimilarity,
        baseline: usual.bestSimilarity,
        band: usual.similarityBand,
      }),
    ];
  });
