/**
 * Every check a run performs, in the order their findings appear in the report. Adding a check is one new file
 * (implementing Check, see checks/check.ts) and one line here.
 */
import type { Check } from '../checks/check.ts';
import { coverageCheck } from '../coverage/coverage-check.ts';
import { groundingCheck } from '../grounding/grounding-check.ts';
import { annHealthCheck } from '../index-health/ann-health-check.ts';
import { driftCanaryCheck } from '../index-health/drift-canary-check.ts';
import { filterCheck } from '../index-health/filter-check.ts';
import { freshnessCheck } from '../index-health/freshness-check.ts';
import { mixedModelsCheck } from '../index-health/mixed-models-check.ts';
import { staleChunksCheck } from '../index-health/stale-chunks-check.ts';
import { collectionCheck } from '../quality/collection-check.ts';
import { qualityCheck } from '../quality/quality-check.ts';
import { modelVersionCheck } from '../queries/model-version.ts';
import { queriesCheck } from '../queries/queries-check.ts';

export const CHECKS: readonly Check[] = [
  queriesCheck,
  modelVersionCheck,
  collectionCheck,
  coverageCheck,
  qualityCheck,
  groundingCheck,
  // Index health (core/index-health): what coverage and completeness cannot see.
  staleChunksCheck,
  freshnessCheck,
  mixedModelsCheck,
  driftCanaryCheck,
  annHealthCheck,
  filterCheck,
];
