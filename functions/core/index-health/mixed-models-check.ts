/**
 * Mixed models: the points' vectors come from more than one embedding model (model_version), so part of the index
 * answers queries in another space. Counted by one exact facet on model_version where it has a keyword payload index
 * (the indexer creates one); the points without a model are then the profile's exact total minus the facet's counts.
 * Without that index (or with a facet cut at its limit), from the inventory's one scroll.
 */
import type { PayloadField } from '../book/payload.ts';
import type { Check, RunContext } from '../checks/check.ts';
import { outcome } from '../checks/run-context.ts';
import { judgeCriterion } from '../criteria/criteria.ts';
import { collectionProfile } from '../quality/inputs.ts';
import { describeCollection } from '../queries/inputs.ts';
import { inventoryFailures } from './inputs.ts';
import { indexInventory, NO_MODEL } from './inventory.ts';

const MODEL_FIELD: PayloadField = 'model_version';
/** A facet answering this many models may have been cut short: the scroll then counts them all. */
export const MODEL_FACET_LIMIT = 100;

interface ModelCounts {
  models: Map<string, number>;
  source: 'facet' | 'scroll';
}

export const mixedModelsCheck: Check = {
  name: 'embedding_models',
  async run(ctx) {
    const faceted = await outcome(facetModels(ctx));
    if (!faceted.ok)
      return { errors: [], failures: await inventoryFailures(ctx, 'embedding models facet', faceted.error) };
    let counted = faceted.value;
    if (counted === null) {
      const inventory = await outcome(indexInventory(ctx));
      if (!inventory.ok)
        return { errors: [], failures: await inventoryFailures(ctx, 'index inventory', inventory.error) };
      counted = { models: inventory.value.models, source: 'scroll' };
    }
    const all = [...counted.models]
      .map(([model, points]) => ({ model, points }))
      .sort((a, b) => b.points - a.points || a.model.localeCompare(b.model));
    // Points that do not say their model (indexed by another tool) are listed, but are not a model of their own.
    const models = all.filter((m) => m.model !== NO_MODEL);
    const threshold = ctx.criteria.max_embedding_models;
    const named = models.map((m) => `${m.model} (${m.points})`).join(', ');
    return {
      sections: { index_health: { embedding_models: { models: all, source: counted.source } } },
      errors:
        models.length <= threshold
          ? []
          : [
              ctx.error(
                'MIXED_MODELS',
                'HIGH',
                `the index holds vectors of ${models.length} embedding models: ${named}`,
                {
                  models,
                  query_model: ctx.deps.embedder.model,
                },
              ),
            ],
      verdicts:
        models.length === 0
          ? []
          : [
              judgeCriterion({
                name: 'embedding_models',
                description: 'Distinct embedding models among the points (model_version)',
                decimals: 0,
                value: models.length,
                threshold,
                comparator: '<=',
                severity: () => 'HIGH',
              }),
            ],
    };
  },
};

/** The models by facet, or null when the index cannot answer that way (no keyword index, or a facet at its limit). */
async function facetModels(ctx: RunContext): Promise<ModelCounts | null> {
  // An unreadable collection is reported by the queries and coverage checks; the scroll path stays silent on it too.
  const info = await outcome(describeCollection(ctx));
  if (!info.ok || info.value.payloadIndexes[MODEL_FIELD] !== 'keyword') return null;
  const [hits, profile] = await Promise.all([
    ctx.step('model facet', () => ctx.deps.index.facet(MODEL_FIELD, MODEL_FACET_LIMIT)),
    collectionProfile(ctx),
  ]);
  if (hits.length >= MODEL_FACET_LIMIT) return null;
  const models = new Map(hits.map((h) => [String(h.value), h.count]));
  const unlabelled = profile.totalPoints - hits.reduce((sum, h) => sum + h.count, 0);
  if (unlabelled > 0) models.set(NO_MODEL, unlabelled);
  return { models, source: 'facet' };
}
