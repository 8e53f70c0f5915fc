/**
 * Every check a run performs, in the order their findings appear in the report. Adding a check is one new file
 * (implementing Check, see checks/check.ts) and one line here.
 */
import type { Check } from './checks/check.ts';
import { coverageCheck } from './coverage/coverage-check.ts';
import { groundingCheck } from './grounding/grounding-check.ts';
import { collectionCheck } from './quality/collection-check.ts';
import { qualityCheck } from './quality/quality-check.ts';
import { modelVersionCheck } from './queries/model-version.ts';
import { queriesCheck } from './queries/queries-check.ts';

export const CHECKS: readonly Check[] = [
  queriesCheck,
  modelVersionCheck,
  collectionCheck,
  coverageCheck,
  qualityCheck,
  groundingCheck,
];
