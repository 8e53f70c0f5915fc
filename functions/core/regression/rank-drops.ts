/**
 * RANK_DROPPED: an expected document that ranked in the top results in the baseline is out of them now, or has
 * fallen by more than RANK_DROP_PLACES places. A drop of a place or two is the ordinary reshuffle when chunks are
 * added near it; three places is a different answer.
 */

import { finding } from '../report/regression-report.ts';
import type { Detector } from './detector.ts';

const RANK_DROP_PLACES = 3;

export const detectRankDrops: Detector = ({ comparable, baseline }) =>
  Object.entries(comparable.queries).flatMap(([id, now]) => {
    const usual = baseline.queries[id];
    if (!usual || now.status === 'ERROR') return [];
    return Object.entries(usual.expectedRanks).flatMap(([expected, was]) => {
      if (was === null || !(expected in now.expectedRanks)) return [];
      const rank = now.expectedRanks[expected] ?? null;
      if (rank !== null && rank - was <= RANK_DROP_PLACES) return [];
      const where = rank === null ? 'is out of the top results' : `fell to rank ${rank}`;
      return [
        finding({
          kind: 'RANK_DROPPED',
          severity: 'LOW',
          message: `query ${id}: ${expected} ${where} (usually rank ${was})`,
          query_id: id,
          value: rank,
          baseline: was,
          band: RANK_DROP_PLACES,
          urls: [expected],
        }),
      ];
    });
  });
