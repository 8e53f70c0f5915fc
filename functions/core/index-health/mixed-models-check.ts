/**
 * Mixed models: the points' vectors come from more than one embedding model (model_version), so part of the index
 * answers queries in another space. From the inventory's one scroll.
 */
import type { Check } from '../checks/check.ts';
import { outcome } from '../checks/run-context.ts';
import { judgeCriterion } from '../criteria/criteria.ts';
import { inventoryFailures } from './inputs.ts';
import { indexInventory, NO_MODEL } from './inventory.ts';

export const mixedModelsCheck: Check = {
  name: 'embedding_models',
  async run(ctx) {
    const inventory = await outcome(indexInventory(ctx));
    if (!inventory.ok)
      return { errors: [], failures: await inventoryFailures(ctx, 'index inventory', inventory.error) };
    const all = [...inventory.value.models]
      .map(([model, points]) => ({ model, points }))
      .sort((a, b) => b.points - a.points || a.model.localeCompare(b.model));
    // Points that do not say their model (indexed by another tool) are listed, but are not a model of their own.
    const models = all.filter((m) => m.model !== NO_MODEL);
    const threshold = ctx.criteria.max_embedding_models;
    const named = models.map((m) => `${m.model} (${m.points})`).join(', ');
    return {
      sections: { index_health: { embedding_models: { models: all, source: 'scroll' } } },
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
