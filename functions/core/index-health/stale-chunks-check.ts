/**
 * Stale and duplicate chunks: a page whose points carry more than one page_hash (leftovers of an earlier version
 * that a re-index did not replace), or that repeat a chunk_index. Coverage and completeness cannot see either.
 */
import type { Check } from '../checks/check.ts';
import { outcome } from '../checks/run-context.ts';
import { judgeCriterion } from '../criteria/criteria.ts';
import { inventoryFailures } from './inputs.ts';
import { indexInventory } from './inventory.ts';

const LISTED = 10;

export const staleChunksCheck: Check = {
  name: 'stale_chunks',
  async run(ctx) {
    const inventory = await outcome(indexInventory(ctx));
    if (!inventory.ok)
      return { errors: [], failures: await inventoryFailures(ctx, 'index inventory', inventory.error) };
    const pages = [...inventory.value.pages];
    const stale = pages.filter(([, p]) => p.pageHashes.size > 1 || p.duplicateChunks > 0).map(([url]) => url);
    const block = {
      urls_checked: pages.length,
      stale_pages: stale.length,
      urls_with_several_page_hashes: pages.filter(([, p]) => p.pageHashes.size > 1).length,
      duplicate_chunks: pages.reduce((sum, [, p]) => sum + p.duplicateChunks, 0),
      points_without_page_hash: inventory.value.pointsWithoutPageHash,
      urls: stale.slice(0, LISTED),
    };
    const threshold = ctx.criteria.max_stale_chunk_pages;
    return {
      sections: { index_health: { stale_chunks: block } },
      errors:
        stale.length === 0
          ? []
          : [
              ctx.error(
                'STALE_CHUNKS',
                'HIGH',
                `${stale.length} page(s) hold stale or duplicate chunks (${block.urls_with_several_page_hashes} with several page hashes, ${block.duplicate_chunks} repeated chunk indexes), e.g. ${stale[0]}`,
                { ...block },
              ),
            ],
      verdicts: [
        judgeCriterion({
          name: 'stale_chunk_pages',
          description: 'Pages holding stale or duplicate chunks',
          decimals: 0,
          value: stale.length,
          threshold,
          comparator: '<=',
          severity: () => 'HIGH',
        }),
      ],
    };
  },
};
