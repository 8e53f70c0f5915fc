/**
 * Seed 004 QueryEmbedding: "model must match the expected Cohere model for consistency". A collection re-embedded
 * by another model of the same dimension passes the dimension check while every score compares vectors of two
 * models. The indexer stores the model on each point (`model_version`); the chunks a run retrieved are compared with
 * the embedding model it is configured with. Only configured against stored: whether the collection mixes models is
 * an index-health question.
 */
import { defineCheck, verdict } from '../checks/check.ts';
import type { ValidationError } from '../report/findings.ts';
import type { QueryValidationResult } from '../report/query-validation.ts';
import { searchedQueries } from './inputs.ts';

/** The run's check: the chunks the golden queries retrieved against the configured embedding model. */
export const modelVersionCheck = defineCheck({
  name: 'model-version',
  description: 'The chunks the golden queries retrieved were embedded with the configured embedding model',
  needs: { searched: searchedQueries },
  errorTypes: ['MODEL_MISMATCH'],
  criteria: [],
  metrics: [],
  section: 'errors',
  judge({ searched }, ctx) {
    const finding = checkModelVersion({
      configuredModel: ctx.embeddingModel,
      results: searched.results,
      runId: ctx.runId,
      newId: ctx.newId,
    });
    return verdict({ sections: {}, errors: finding ? [finding] : [] });
  },
});

/** The MODEL_MISMATCH finding when retrieved chunks were embedded by another model than the configured one, else null. */
export function checkModelVersion(options: {
  configuredModel: string;
  results: readonly Pick<QueryValidationResult, 'top_results'>[];
  runId: string;
  newId: () => string;
}): ValidationError | null {
  const { configuredModel } = options;
  const byModel = new Map<string, Set<string>>();
  for (const row of options.results.flatMap((r) => r.top_results)) {
    if (row.model_version === null) continue;
    const ids = byModel.get(row.model_version) ?? new Set<string>();
    ids.add(row.chunk_id);
    byModel.set(row.model_version, ids);
  }
  const others = [...byModel].filter(([model]) => model !== configuredModel);
  if (others.length === 0) return null;
  const chunks = others.reduce((n, [, ids]) => n + ids.size, 0);
  const checked = [...byModel.values()].reduce((n, ids) => n + ids.size, 0);
  return {
    id: options.newId(),
    validation_id: options.runId,
    error_type: 'MODEL_MISMATCH',
    severity: 'CRITICAL',
    message: `${chunks} of ${checked} retrieved chunks were embedded with ${others.map(([m]) => m).join(', ')}, not the configured ${configuredModel}: their scores compare vectors of different models`,
    details: {
      configured_model: configuredModel,
      stored_models: Object.fromEntries([...byModel].map(([m, ids]) => [m, ids.size])),
      example_chunk_ids: others.flatMap(([, ids]) => [...ids]).slice(0, 5),
    },
  };
}
