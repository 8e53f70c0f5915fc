/** The quality concern's input: the collection's profile, read once per run as the step `profile`. */
import type { Input } from '../checks/input.ts';
import { collectionDescription } from '../queries/inputs.ts';
import { DEFAULT_SCROLL_PARTITIONS } from '../scroll-plan.ts';
import { type CollectionProfile, profileCollection } from './profile-collection.ts';

/**
 * Distinct source URLs, completeness by counts and token distribution (facets, else one streaming scroll). A failure
 * here means the collection cannot be read at all: reported once, here, for every check that needs it.
 */
export const collectionProfile: Input<CollectionProfile> = {
  name: 'profile',
  steps: ['profile'],
  resolve: (ctx) =>
    ctx.step('profile', async () =>
      profileCollection({
        index: ctx.deps.index,
        info: await ctx.input(collectionDescription),
        requiredFields: ctx.options.requiredFields,
        pageSize: ctx.options.scrollPageSize ?? 1000,
        partitions: ctx.options.scrollPartitions ?? DEFAULT_SCROLL_PARTITIONS,
      }),
    ),
  failure: {
    label: 'index profile',
    finding: {
      type: 'RETRIEVAL_FAILED',
      severity: 'CRITICAL',
      message: (reason) => `could not read the collection: ${reason}`,
    },
  },
};
