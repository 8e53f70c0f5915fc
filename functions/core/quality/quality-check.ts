/** Metadata completeness and the token distribution of the collection's chunks. */
import { type CriterionDeclaration, defineCheck, verdict } from '../checks/check.ts';
import { optional } from '../checks/input.ts';
import { searchedQueries } from '../queries/inputs.ts';
import { collectionProfile } from './inputs.ts';
import { buildQualityMetrics, qualityErrors } from './quality.ts';

/** Seed 001: completeness = 100 by default. */
const COMPLETENESS: CriterionDeclaration = {
  name: 'completeness',
  description: 'Points whose payload has every required metadata field (%)',
  threshold: 'min_completeness',
  comparator: '>=',
  decimals: 2,
  unit: '%',
  severity: (v) => (v === null || v < 90 ? 'HIGH' : 'MEDIUM'),
  judgedWhenSkipped: true,
};

export const qualityCheck = defineCheck({
  name: 'quality',
  description: 'Every point carries every required metadata field',
  // The similarity distribution reads the searched queries when they came back; without them it is empty.
  needs: { profile: collectionProfile, searched: optional(searchedQueries) },
  errorTypes: ['INCOMPLETE_METADATA'],
  criteria: [COMPLETENESS],
  metrics: ['MetadataCompletenessPercent'],
  section: 'quality_metrics',
  judge({ profile, searched }, ctx) {
    const quality = buildQualityMetrics({
      profile,
      requiredFields: ctx.options.requiredFields,
      results: searched?.results ?? [],
      timestamp: ctx.now,
    });
    return verdict({
      sections: { quality_metrics: quality },
      errors: qualityErrors(quality, ctx.runId, ctx.newId),
      criteria: [ctx.criterion(COMPLETENESS, quality.metadata_completeness_rate)],
    });
  },
});
