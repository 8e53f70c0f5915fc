/** The quality concern's input: the collection's profile, read once per run as the step `profile`. */
import type { Input } from '../checks/input.ts';
import type { CollectionInfo } from '../ports.ts';
import { collectionDescription } from '../queries/inputs.ts';
import { DEFAULT_SCROLL_PARTITIONS } from '../scroll-plan.ts';
import { hasPageIndexes, InventoryTally, type ScrolledInventory } from './page-inventory.ts';
import { type CollectionProfile, profileCollection, profileScrolls } from './profile-collection.ts';

/** The profile, and the index inventory when it rode the profile's scroll (inventoryRides). */
export interface ProfileReading extends CollectionProfile {
  inventory?: ScrolledInventory;
}

/**
 * Whether the index inventory is read by the profile's own scroll: the profile must scroll (a field it aggregates has
 * no payload index) and so must the inventory (no page_version and indexed_at indexes). Two scrolls of the whole
 * collection side by side, with different fields, were twice the requests and the pages in flight on that path
 * (issue 20 §3: +40.9 MB of peak at 1M points); one scroll of the union of the fields reads every point once. Decided
 * from the collection's description alone, so the inventory knows at once whether to wait for the profile.
 */
export function inventoryRides(info: CollectionInfo): boolean {
  return profileScrolls(info) && !hasPageIndexes(info);
}

/**
 * Distinct source URLs, completeness by counts and token distribution (facets, else one streaming scroll). A failure
 * here means the collection cannot be read at all: reported once, here, for every check that needs it.
 */
export const collectionProfile: Input<ProfileReading> = {
  name: 'profile',
  steps: ['profile'],
  resolve: (ctx) =>
    ctx.step('profile', async () => {
      const info = await ctx.input(collectionDescription);
      const inventory = inventoryRides(info) ? new InventoryTally() : undefined;
      const profile = await profileCollection({
        index: ctx.deps.index,
        info,
        requiredFields: ctx.options.requiredFields,
        pageSize: ctx.options.scrollPageSize ?? 1000,
        partitions: ctx.options.scrollPartitions ?? DEFAULT_SCROLL_PARTITIONS,
        ...(inventory ? { rider: inventory } : {}),
      });
      // The rider saw every point exactly when the profile scrolled (inventoryRides makes sure it does).
      const scrolled = Object.values(profile.sources).includes('scroll');
      return inventory && scrolled ? { ...profile, inventory: inventory.result() } : profile;
    }),
  failure: {
    label: 'index profile',
    finding: {
      type: 'RETRIEVAL_FAILED',
      severity: 'CRITICAL',
      message: (reason) => `could not read the collection: ${reason}`,
    },
  },
};
