/**
 * Mixed models: the points' vectors come from more than one embedding model (model_version), so part of the index
 * answers queries in another space. Counted by the embedding-models input (one facet, else the inventory scroll).
 */
import { type CriterionDeclaration, defineCheck, verdict } from '../checks/check.ts';
import { NO_MODEL } from '../quality/page-inventory.ts';
import { embeddingModels } from './inputs.ts';

const EMBEDDING_MODELS: CriterionDeclaration = {
  name: 'embedding_models',
  description: 'Distinct embedding models among the points (model_version)',
  threshold: 'max_embedding_models',
  comparator: '<=',
  decimals: 0,
  unit: '',
  severity: () => 'HIGH',
};

export const mixedModelsCheck = defineCheck({
  name: 'embedding_models',
  description: 'Every point was embedded by one model',
  needs: { counted: embeddingModels },
  errorTypes: ['MIXED_MODELS'],
  criteria: [EMBEDDING_MODELS],
  metrics: ['EmbeddingModels'],
  section: 'index_health.embedding_models',
  judge({ counted }, ctx) {
    const all = [...counted.models]
      .map(([model, points]) => ({ model, points }))
      .sort((a, b) => b.points - a.points || a.model.localeCompare(b.model));
    // Points that do not say their model (indexed by another tool) are listed, but are not a model of their own.
    const models = all.filter((m) => m.model !== NO_MODEL);
    const threshold = ctx.criteria.max_embedding_models;
    const named = models.map((m) => `${m.model} (${m.points})`).join(', ');
    return verdict({
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
                  query_model: ctx.embeddingModel,
                },
              ),
            ],
      criteria: models.length === 0 ? [] : [ctx.criterion(EMBEDDING_MODELS, models.length)],
      applicable: models.length > 0,
    });
  },
});
