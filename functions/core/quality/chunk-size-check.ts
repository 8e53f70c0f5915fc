/**
 * Chunks too small to retrieve well (issue 23 §5): the collection's median chunk is far under the size a chunk
 * worth retrieving has. A chunk of a heading and two lines matches a question by its heading alone and brings too
 * little context to answer it; real books cut one chunk per heading section give medians of 28 to 64 tokens
 * (docs/REAL-BOOKS.md). The monitored system often has its own chunker, so this reads what the index holds
 * (token_count, from the profile's histogram: one facet, else the profile's scroll) and says so with the
 * distribution. A finding of the collection's shape, not of a night: LOW, reported, never an incident.
 */
import { defineCheck, verdict } from '../checks/check.ts';
import { summariseHistogram } from '../shared/statistics.ts';
import { collectionProfile } from './inputs.ts';

/** A median under this many tokens is far under the target: a third of it. */
export const MIN_MEDIAN_CHUNK_TOKENS = 100;
/** What `ragwatch index` aims at (functions/indexer/chunk-markdown.ts DEFAULT_CHUNK_SIZES), named in the message. */
const TARGET_CHUNK_TOKENS = 300;

export const chunkSizeCheck = defineCheck({
  name: 'chunk_sizes',
  description: `The collection's median chunk is at least ${MIN_MEDIAN_CHUNK_TOKENS} tokens`,
  needs: { profile: collectionProfile },
  errorTypes: ['SMALL_CHUNKS'],
  criteria: [],
  metrics: [],
  section: 'quality_metrics',
  judge({ profile }, ctx) {
    const sizes = summariseHistogram(profile.tokenHistogram);
    // A collection whose points carry no token_count cannot be judged: not applicable, not a pass.
    if (sizes.median === null) return verdict({ sections: {}, errors: [], applicable: false });
    const share = (under: number) => shareUnder(profile.tokenHistogram, under, sizes.count);
    const distribution = {
      chunks: sizes.count,
      min: sizes.min,
      median: sizes.median,
      p95: sizes.p95,
      max: sizes.max,
      share_under_50_percent: share(50),
      share_under_100_percent: share(100),
    };
    return verdict({
      sections: {},
      errors:
        sizes.median >= MIN_MEDIAN_CHUNK_TOKENS
          ? []
          : [
              ctx.error(
                'SMALL_CHUNKS',
                'LOW',
                `the collection's median chunk is ${sizes.median} tokens, under ${MIN_MEDIAN_CHUNK_TOKENS} ` +
                  `(about ${TARGET_CHUNK_TOKENS} retrieve well): ${distribution.share_under_50_percent}% of its ` +
                  `${sizes.count} chunks are under 50 tokens, ${distribution.share_under_100_percent}% under 100; ` +
                  'merge small adjacent sections when chunking',
                {
                  ...distribution,
                  threshold_median_tokens: MIN_MEDIAN_CHUNK_TOKENS,
                  target_tokens: TARGET_CHUNK_TOKENS,
                },
              ),
            ],
    });
  },
});

/** Percentage of chunks under `limit` tokens, two decimals. */
function shareUnder(histogram: ReadonlyMap<number, number>, limit: number, total: number): number {
  let under = 0;
  for (const [tokens, count] of histogram) if (tokens < limit) under += count;
  return Math.round((10_000 * under) / total) / 100;
}
