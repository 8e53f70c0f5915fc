/**
 * How index-health checks treat a failed input: a failure another check already reports (the collection or the
 * queries could not be read) stays silent here, so one outage is one line of the run's status reason.
 */
import type { RunContext } from '../checks/check.ts';
import { outcome } from '../checks/run-context.ts';
import { collectionProfile } from '../quality/inputs.ts';
import { describeError } from '../shared/errors.ts';

/** The failures to report for an index-health input that failed: none when the collection itself is unreadable. */
export async function inventoryFailures(ctx: RunContext, what: string, error: unknown): Promise<string[]> {
  const profile = await outcome(collectionProfile(ctx));
  return profile.ok ? [`${what}: ${describeError(error)}`] : [];
}
