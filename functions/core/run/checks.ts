/**
 * Every check a run performs, in the order their findings appear in the report. Adding a check is one new file
 * (a Check, see checks/check.ts), its test, and one line here; test/core/run/checks.test.ts holds each check's
 * declaration against everything downstream (schema, error types, criteria, metrics, dashboard, README, bounds).
 */
import type { Check } from '../checks/check.ts';
import { coverageCheck } from '../coverage/coverage-check.ts';
import { groundingCheck } from '../grounding/grounding-check.ts';
import { annHealthCheck } from '../index-health/ann-health-check.ts';
import { driftCanaryCheck } from '../index-health/drift-canary-check.ts';
import { filterCheck } from '../index-health/filter-check.ts';
import { freshnessCheck } from '../index-health/freshness-check.ts';
import { missingChunksCheck } from '../index-health/missing-chunks-check.ts';
import { mixedModelsCheck } from '../index-health/mixed-models-check.ts';
import { staleChunksCheck } from '../index-health/stale-chunks-check.ts';
import { chunkSizeCheck } from '../quality/chunk-size-check.ts';
import { qualityCheck } from '../quality/quality-check.ts';
import { modelVersionCheck } from '../queries/model-version.ts';
import { payloadIssuesCheck } from '../queries/payload-issues-check.ts';
import { queriesCheck } from '../queries/queries-check.ts';
import { sitemapCheck } from '../sitemap/sitemap-check.ts';
import { suiteStaleCheck } from '../sitemap/suite-stale-check.ts';

export const CHECKS: readonly Check[] = [
  queriesCheck,
  modelVersionCheck,
  payloadIssuesCheck,
  sitemapCheck,
  coverageCheck,
  qualityCheck,
  chunkSizeCheck,
  groundingCheck,
  // Index health (core/index-health): what coverage and completeness cannot see.
  staleChunksCheck,
  missingChunksCheck,
  freshnessCheck,
  mixedModelsCheck,
  driftCanaryCheck,
  annHealthCheck,
  filterCheck,
  suiteStaleCheck,
];

/** How each criterion's figures are written in a message ('%', ' ms'), from the checks' declarations. */
export const CRITERION_UNITS: Readonly<Record<string, string>> = Object.fromEntries(
  CHECKS.flatMap((c) => c.criteria.map((d) => [d.name, d.unit])),
);
