/**
 * Stale and duplicate chunks: a page whose points carry more than one page_hash (leftovers of an earlier version
 * that a re-index did not replace), or whose version holds a chunk twice (a repeated chunk_index, or more points than
 * the chunks its page_version declares). Coverage and completeness cannot see either.
 */
import { type CriterionDeclaration, defineCheck, verdict } from '../checks/check.ts';
import { indexInventory } from './inputs.ts';

const LISTED = 10;

const STALE_CHUNK_PAGES: CriterionDeclaration = {
  name: 'stale_chunk_pages',
  description: 'Pages holding stale or duplicate chunks',
  threshold: 'max_stale_chunk_pages',
  comparator: '<=',
  decimals: 0,
  unit: '',
  severity: () => 'HIGH',
};

export const staleChunksCheck = defineCheck({
  name: 'stale_chunks',
  description: 'No page holds chunks of an earlier version of itself, nor a chunk twice',
  needs: { inventory: indexInventory },
  errorTypes: ['STALE_CHUNKS'],
  criteria: [STALE_CHUNK_PAGES],
  metrics: ['StaleChunkPages'],
  section: 'index_health.stale_chunks',
  judge({ inventory }, ctx) {
    const pages = [...inventory.pages];
    const stale = pages.filter(([, p]) => p.pageHashes.size > 1 || p.duplicateChunks > 0).map(([url]) => url);
    const block = {
      urls_checked: pages.length,
      stale_pages: stale.length,
      urls_with_several_page_hashes: pages.filter(([, p]) => p.pageHashes.size > 1).length,
      duplicate_chunks: pages.reduce((sum, [, p]) => sum + p.duplicateChunks, 0),
      points_without_page_hash: inventory.pointsWithoutPageHash,
      urls: stale.slice(0, LISTED),
      source: inventory.source,
    };
    return verdict({
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
      criteria: [ctx.criterion(STALE_CHUNK_PAGES, stale.length)],
    });
  },
});
