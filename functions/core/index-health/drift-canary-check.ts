/**
 * Embedding drift canary: a fixed sample of stored points (the collection's first, in its own order) read back with
 * its vector, its
 * chunk text re-embedded as a search document (the canary input), and each cosine with the stored vector compared
 * with a threshold. Below it, the embedding service no longer produces the index's space (a model changed under the
 * same name): every query vector is then compared with vectors of another model.
 */
import { type CriterionDeclaration, defineCheck, verdict } from '../checks/check.ts';
import { roundTo } from '../shared/statistics.ts';
import { canarySample } from './inputs.ts';

const CANARY_COSINE: CriterionDeclaration = {
  name: 'canary_cosine',
  description: 'Lowest cosine between a stored vector and its chunk re-embedded',
  threshold: 'min_canary_cosine',
  comparator: '>=',
  decimals: 4,
  unit: '',
  severity: () => 'CRITICAL',
};

export const driftCanaryCheck = defineCheck({
  name: 'drift_canary',
  description: 'Stored chunks embedded again today land where their stored vectors are',
  needs: { canary: canarySample },
  errorTypes: ['EMBEDDING_DRIFT'],
  criteria: [CANARY_COSINE],
  metrics: ['CanaryMinCosine'],
  section: 'index_health.drift_canary',
  judge({ canary }, ctx) {
    const threshold = ctx.criteria.min_canary_cosine;
    const cosines = canary.map((p) => ({
      point_id: p.pointId,
      source_url: p.sourceUrl,
      cosine: roundTo(cosine(p.stored, p.embedded), 4),
    }));
    const minCosine = cosines.length === 0 ? null : Math.min(...cosines.map((c) => c.cosine));
    const drifted = cosines.filter((c) => c.cosine < threshold);
    const block = { sampled: cosines.length, min_cosine: minCosine, threshold, drifted };
    return verdict({
      sections: { index_health: { drift_canary: block } },
      errors:
        drifted.length === 0
          ? []
          : [
              ctx.error(
                'EMBEDDING_DRIFT',
                'CRITICAL',
                `${drifted.length} of ${cosines.length} stored chunks re-embedded with ${ctx.embeddingModel} have cosine ${minCosine} < ${threshold} with their stored vectors: query vectors no longer live in the index's space`,
                { ...block, embedding_model: ctx.embeddingModel },
              ),
            ],
      // Nothing sampled (an empty collection) has nothing to judge.
      criteria: minCosine === null ? [] : [ctx.criterion(CANARY_COSINE, minCosine)],
      applicable: minCosine !== null,
    });
  },
});

function cosine(a: number[], b: number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
