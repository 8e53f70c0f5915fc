/**
 * The collection can be read at all. Reported once here, so the checks that need the collection's profile
 * (coverage, quality) stay silent about it rather than repeating the same failure.
 */
import type { Check } from '../checks/check.ts';
import { failureType, outcome } from '../checks/run-context.ts';
import { describeError } from '../shared/errors.ts';
import { collectionProfile } from './inputs.ts';

export const collectionCheck: Check = {
  name: 'collection',
  async run(ctx) {
    const profile = await outcome(collectionProfile(ctx));
    if (profile.ok) return { errors: [] };
    const reason = describeError(profile.error);
    return {
      errors: [
        ctx.error(
          failureType(profile.error, 'RETRIEVAL_FAILED'),
          'CRITICAL',
          `could not read the collection: ${reason}`,
        ),
      ],
      failures: [`index profile: ${reason}`],
    };
  },
};
