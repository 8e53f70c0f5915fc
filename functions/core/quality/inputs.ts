/** The quality concern's shared input: the collection's profile, read once per run as the step `profile`. */
import type { RunContext } from '../checks/check.ts';
import { describeCollection } from '../queries/inputs.ts';
import { type CollectionProfile, profileCollection } from './profile-collection.ts';

/** Distinct source URLs, completeness by counts and token distribution (facets, else one streaming scroll). */
export const collectionProfile = (ctx: RunContext): Promise<CollectionProfile> =>
  ctx.step('profile', async () =>
    profileCollection({
      index: ctx.deps.index,
      info: await describeCollection(ctx),
      requiredFields: ctx.options.requiredFields,
      pageSize: ctx.options.scrollPageSize ?? 1000,
    }),
  );
