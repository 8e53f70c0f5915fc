/**
 * The success criteria a suite sets beyond the stack's own three (MRR, p95 latency, grounded rate), so the dashboard
 * draws each graph's threshold where the run judges it. A bundled suite's are read from it; a suite read from S3 at
 * run time is not known at synth, so its come from context (-c minMrr=... and so on), and a graph whose value is not
 * given shows no threshold line rather than a wrong one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseSuite } from '../functions/core/suite/suite.ts';
import type { SuiteThresholds } from './dashboard.ts';
import type { StackSettings } from './settings.ts';

/** The bundled suite's thresholds, or with a suite in S3 the context's; none when the suite cannot be read here. */
export function readSuiteThresholds(
  suiteFile: string,
  settings: Pick<StackSettings, 'suiteS3Uri' | 'suiteThresholds'>,
): SuiteThresholds {
  if (settings.suiteS3Uri !== undefined) return settings.suiteThresholds;
  if (!existsSync(suiteFile)) return {};
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
