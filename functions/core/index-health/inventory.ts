/**
 * The index inventory's own scroll, when the collection profile's scroll does not carry it (quality/inputs.ts): the
 * collection has the profile's payload indexes, or the page-version facets were cut short. The fold is
 * quality/page-inventory.ts's, the same as when it rides the profile's scroll.
 */
import { outcome, type RunContext } from '../checks/input.ts';
import { InventoryTally, type ScrolledInventory } from '../quality/page-inventory.ts';
import { collectionDescription } from '../queries/inputs.ts';
import { DEFAULT_SCROLL_PARTITIONS, scrollPlan } from '../scroll-plan.ts';

/** Reads the inventory in one scroll, as the step `inventory`. */
export const readInventory = (ctx: RunContext): Promise<ScrolledInventory> =>
  ctx.step('inventory', async () => {
    const tally = new InventoryTally();
    const info = await outcome(ctx.input(collectionDescription));
    const partitions = ctx.options.scrollPartitions ?? DEFAULT_SCROLL_PARTITIONS;
    const pageSize = ctx.options.scrollPageSize ?? 1000;
    // Without the collection's size the scroll cannot be cut into ranges: one page after the other.
    const pages = ctx.deps.index.scroll({
      payloadFields: [...tally.fields],
      ...(info.ok ? scrollPlan(pageSize, partitions, info.value) : { pageSize }),
    });
    for await (const page of pages) {
      for (const point of page) tally.add(point.payload);
    }
    return tally.result();
  });
