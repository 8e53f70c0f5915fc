/**
 * Missing chunks: a page version holding fewer chunks than its page_version declares (the number the indexer wrote).
 * A page cut to its first chunks (a partial write, a delete by filter, a re-index stopped midway) keeps its URL in
 * the index, so coverage still counts it, and its first chunks usually still answer its queries, so no retrieval
 * figure moves: measured in the replay, a module cut to 2 chunks a page moved its queries' best similarity by less
 * than the noise (0.36 -> 0.35). Only the index's own count can tell that text is gone. Pages whose points declare no
 * count (another indexer) are not judged: `urls_checked` says how many were.
 */
import { type CriterionDeclaration, defineCheck, verdict } from '../checks/check.ts';
import { indexInventory } from './inputs.ts';

const LISTED = 10;

const MISSING_CHUNK_PAGES: CriterionDeclaration = {
  name: 'missing_chunk_pages',
  description: 'Pages holding fewer chunks than their indexer wrote',
  threshold: 'max_missing_chunk_pages',
  comparator: '<=',
  decimals: 0,
  unit: '',
  // As stale chunks: the index answers from a page that is not what was written, every query on it, every night.
  severity: () => 'HIGH',
};

export const missingChunksCheck = defineCheck({
  name: 'missing_chunks',
  description: 'Every page holds every chunk its indexer wrote for it',
  needs: { inventory: indexInventory },
  errorTypes: ['MISSING_CHUNKS'],
  criteria: [MISSING_CHUNK_PAGES],
  metrics: ['MissingChunkPages'],
  section: 'index_health.missing_chunks',
  judge({ inventory }, ctx) {
    const declared = [...inventory.pages].filter(([, p]) => p.declaresChunks);
    const short = declared.filter(([, p]) => p.missingChunks > 0);
    const block = {
      urls_checked: declared.length,
      pages_missing_chunks: short.length,
      missing_chunks: short.reduce((sum, [, p]) => sum + p.missingChunks, 0),
      urls: short.slice(0, LISTED).map(([url]) => url),
      source: inventory.source,
    };
    return verdict({
      sections: { index_health: { missing_chunks: block } },
      errors:
        short.length === 0
          ? []
          : [
              ctx.error(
                'MISSING_CHUNKS',
                'HIGH',
                `${short.length} page(s) hold fewer chunks than their indexer wrote (${block.missing_chunks} chunk(s) missing), e.g. ${block.urls[0]}`,
                { ...block },
              ),
            ],
      criteria: [ctx.criterion(MISSING_CHUNK_PAGES, short.length)],
    });
  },
});
