/**
 * The success criteria a bundled suite sets beyond the stack's own three (MRR, p95 latency, grounded rate), so the
 * dashboard draws each graph's threshold where the run judges it. A suite read from S3 at run time is not known at
 * synth: its graphs then show no threshold line rather than a wrong one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseSuite } from '../functions/core/suite/suite.ts';
import type { SuiteThresholds } from './dashboard.ts';
import type { StackSettings } from './settings.ts';

/** The bundled suite's thresholds; none when the suite comes from S3 or cannot be read here. */
export function readSuiteThresholds(suiteFile: string, settings: Pick<StackSettings, 'suiteS3Uri'>): SuiteThresholds {
  if (settings.suiteS3Uri !== undefined || !existsSync(suiteFile)) return {};
  try {
    const criteria = parseSuite(readFileSync(suiteFile, 'utf8'), suiteFile).success_criteria;
    return {
      ...(criteria.min_mrr === undefined ? {} : { minMrr: criteria.min_mrr }),
      ...(criteria.max_p95_latency_ms === undefined ? {} : { maxP95LatencyMs: criteria.max_p95_latency_ms }),
      minGroundedRate: criteria.min_grounded_rate,
    };
  } catch {
    // An invalid suite fails the function's own start with every problem listed; the dashboard is not the place.
    return {};
  }
}
