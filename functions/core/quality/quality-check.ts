/** Metadata completeness and the token distribution of the collection's chunks. */
import type { Check } from '../checks/check.ts';
import { outcome } from '../checks/run-context.ts';
import { searchedQueries } from '../queries/inputs.ts';
import { collectionProfile } from './inputs.ts';
import { buildQualityMetrics, qualityErrors } from './quality.ts';

export const qualityCheck: Check = {
  name: 'quality',
  async run(ctx) {
    const [profile, searched] = await Promise.all([outcome(collectionProfile(ctx)), outcome(searchedQueries(ctx))]);
    // An unreadable collection is reported once, by the collection check.
    if (!profile.ok) return { sections: { quality_metrics: null }, errors: [], criteria: { completeness: null } };
    const quality = buildQualityMetrics({
      profile: profile.value,
      requiredFields: ctx.options.requiredFields,
      results: searched.ok ? searched.value.results : [],
      timestamp: ctx.deps.clock.now().toISOString(),
    });
    return {
      sections: { quality_metrics: quality },
      errors: qualityErrors(quality, ctx.runId, ctx.deps.newId),
      criteria: { completeness: quality.metadata_completeness_rate },
    };
  },
};
