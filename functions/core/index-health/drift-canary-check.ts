/**
 * Embedding drift canary: a fixed sample of stored points (inventory.ts picks it) is read back with its vector and
 * chunk text, the text re-embedded as a search document, and each cosine with the stored vector compared with a
 * threshold. Below it, the embedding service no longer produces the index's space (a model changed under the same
 * name): every query vector is then compared with vectors of another model. Cost: one retrieve and one embed call.
 */
import { CANARY_FIELDS } from '../book/payload.ts';
import type { Check } from '../checks/check.ts';
import { outcome } from '../checks/run-context.ts';
import { judgeCriterion } from '../criteria/criteria.ts';
import { describeError } from '../shared/errors.ts';
import { roundTo } from '../shared/statistics.ts';
import { inventoryFailures } from './inputs.ts';
import { indexInventory } from './inventory.ts';

export const driftCanaryCheck: Check = {
  name: 'drift_canary',
  async run(ctx) {
    const threshold = ctx.criteria.min_canary_cosine;
    const inventory = await outcome(indexInventory(ctx));
    if (!inventory.ok)
      return { errors: [], failures: await inventoryFailures(ctx, 'index inventory', inventory.error) };
    const measured = await outcome(
      (async () => {
        const { sampleIds } = inventory.value;
        const ids = sampleIds.slice(0, ctx.deps.embedder.maxBatchSize);
        if (ids.length === 0) return [];
        const points = await ctx.step('canary retrieve', () => ctx.deps.index.retrieve(ids, CANARY_FIELDS));
        const withText = points.filter((p) => typeof p.payload.chunk_text === 'string' && p.vector.length > 0);
        if (withText.length === 0) return [];
        const embedded = await ctx.step('canary embed', () =>
          ctx.deps.embedder.embedDocuments(withText.map((p) => p.payload.chunk_text as string)),
        );
        return withText.map((p, i) => ({
          point_id: p.id,
          source_url: typeof p.payload.source_url === 'string' ? p.payload.source_url : null,
          cosine: roundTo(cosine(p.vector, embedded.vectors[i] ?? []), 4),
        }));
      })(),
    );
    if (!measured.ok) return { errors: [], failures: [`drift canary: ${describeError(measured.error)}`] };
    const cosines = measured.value;
    const minCosine = cosines.length === 0 ? null : Math.min(...cosines.map((c) => c.cosine));
    const drifted = cosines.filter((c) => c.cosine < threshold);
    const block = { sampled: cosines.length, min_cosine: minCosine, threshold, drifted };
    return {
      sections: { index_health: { drift_canary: block } },
      errors:
        drifted.length === 0
          ? []
          : [
              ctx.error(
                'EMBEDDING_DRIFT',
                'CRITICAL',
                `${drifted.length} of ${cosines.length} stored chunks re-embedded with ${ctx.deps.embedder.model} have cosine ${minCosine} < ${threshold} with their stored vectors: query vectors no longer live in the index's space`,
                { ...block, embedding_model: ctx.deps.embedder.model },
              ),
            ],
      // Nothing sampled (an empty collection) has nothing to judge.
      verdicts:
        minCosine === null
          ? []
          : [
              judgeCriterion({
                name: 'canary_cosine',
                description: 'Lowest cosine between a stored vector and its chunk re-embedded',
                decimals: 4,
                value: minCosine,
                threshold,
                comparator: '>=',
                severity: () => 'CRITICAL',
              }),
            ],
    };
  },
};

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
