/**
 * SIMILARITY_DROPPED: a query's best similarity is below its baseline by more than the query's noise band.
 * A query flaky by its best similarity (it fell below its band and came back, twice, within its last 7 runs;
 * comparable.ts) that is below it now is FLAKY instead: reported, LOW, never alerting, like a query whose verdict
 * flips. When it fails now, query-regressions.ts reports it, so one finding per query and night.
 */

import { finding } from '../report/regression-report.ts';
import { roundTo } from '../shared/statistics.ts';
import type { Detector } from './detector.ts';

export const detectSimilarityDrops: Detector = ({ current, comparable, baseline, flakySimilarity }) => [
  ...Object.entries(comparable.queries).flatMap(([id, now]) => {
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
  }),
  ...[...flakySimilarity].flatMap(([id, usual]) => {
    const now = current.queries[id];
    if (now?.status !== 'PASS' || now.bestSimilarity === null || now.bestSimilarity >= usual.level - usual.band)
      return [];
    return [
      finding({
        kind: 'FLAKY',
        severity: 'LOW',
        message: `query ${id}: best similarity ${roundTo(now.bestSimilarity, 3)}, usually ${roundTo(usual.level, 3)} ± ${roundTo(usual.band, 3)}; it fell below that and came back at least twice within its last 7 runs (flaky: reported, not alerted)`,
        query_id: id,
        value: now.bestSimilarity,
        baseline: usual.level,
        band: usual.band,
      }),
    ];
  }),
];
