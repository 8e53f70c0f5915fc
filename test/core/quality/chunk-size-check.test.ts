/** The chunk-size finding (issue 23 §5): the collection's median chunk far under the target, with the distribution. */
import { describe, expect, it } from 'vitest';
import { chunkSizeCheck, MIN_MEDIAN_CHUNK_TOKENS } from '../../../functions/core/quality/chunk-size-check.ts';
import { buildRunContext, runCheck } from '../../fakes/run-context.ts';

/** Runs the check on a collection whose points carry these token counts (`count` points of each). */
async function judged(histogram: [number, number][]) {
  const points = histogram.flatMap(([tokens, count], h) =>
    Array.from({ length: count }, (_, i) => ({
      id: `p${h}-${i}`,
      payload: { chunk_text: 'text', source_url: `https://book.example.org/docs/p${h}`, token_count: tokens },
    })),
  );
  return runCheck(chunkSizeCheck, buildRunContext({ points }).ctx);
}

describe('chunkSizeCheck', () => {
  it('reports a median one token under the threshold, with the distribution, as LOW', async () => {
    // Prepare: 7 chunks, median 99
    const verdict = await judged([
      [12, 1],
      [40, 2],
      [99, 1],
      [150, 2],
      [440, 1],
    ]);

    // Assess
    expect(MIN_MEDIAN_CHUNK_TOKENS).toBe(100);
    expect(verdict.status).toBe('fail');
    expect(verdict.errors).toHaveLength(1);
    expect(verdict.errors[0]).toMatchObject({
      error_type: 'SMALL_CHUNKS',
      severity: 'LOW',
      details: {
        chunks: 7,
        min: 12,
        median: 99,
        max: 440,
        share_under_50_percent: 42.86,
        share_under_100_percent: 57.14,
        threshold_median_tokens: 100,
        target_tokens: 300,
      },
    });
    expect(verdict.errors[0]?.message).toBe(
      "the collection's median chunk is 99 tokens, under 100 (about 300 retrieve well): 42.86% of its 7 chunks are " +
        'under 50 tokens, 57.14% under 100; merge small adjacent sections when chunking',
    );
  });

  it('counts a chunk of exactly 50 or 100 tokens as not under them', async () => {
    const verdict = await judged([
      [10, 2],
      [50, 1],
      [100, 1],
    ]);
    expect(verdict.errors[0]?.details).toMatchObject({ share_under_50_percent: 50, share_under_100_percent: 75 });
  });

  it('passes a median exactly at the threshold', async () => {
    const verdict = await judged([
      [20, 1],
      [100, 1],
      [300, 1],
    ]);
    expect(verdict.status).toBe('pass');
    expect(verdict.errors).toEqual([]);
  });

  it('does not judge a collection whose points carry no token_count', async () => {
    const verdict = await runCheck(
      chunkSizeCheck,
      buildRunContext({ points: [{ id: 'a', payload: { chunk_text: 'text', source_url: 'https://b.example/x' } }] })
        .ctx,
    );
    expect(verdict.status).toBe('not_applicable');
    expect(verdict.errors).toEqual([]);
  });
});
