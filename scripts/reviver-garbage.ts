/**
 * What the Qdrant client's JSON reviver costs on the scroll path (issue 20 §3, docs/PERFORMANCE.md): one scroll page
 * of 1,000 points with the fields the profile and the inventory read, parsed 1,000 times (a collection of a million
 * points) with JSON.parse alone and with the BigInt reviver @qdrant/openapi-typescript-fetch passes whenever
 * JSON.rawJSON exists (Node 21+): a reviver taking `context` makes V8 hand it each primitive's source text.
 *
 *   npx node --max-semi-space-size=4 --trace-gc scripts/reviver-garbage.ts plain   | grep -c Scavenge
 *   npx node --max-semi-space-size=4 --trace-gc scripts/reviver-garbage.ts reviver | grep -c Scavenge
 *
 * Each scavenge follows about a semi-space of new objects, so their count compares the garbage; the time is printed
 * on stderr.
 */
const withReviver = process.argv[2] === 'reviver';

/** The client's reviver, as in @qdrant/openapi-typescript-fetch's fetcher.js. */
function bigintReviver(_key: string, value: unknown, context?: { source: string }): unknown {
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value) && context)
    return BigInt(context.source);
  return value;
}

const PAGES = 1000;
const points = Array.from({ length: 1000 }, (_, i) => {
  const url = `https://book.example.com/docs/page-${i % 5000}`;
  const hash = 'ab'.repeat(32);
  return {
    id: 100_000 + i,
    payload: {
      source_url: url,
      token_count: 300 + (i % 50),
      page_hash: hash,
      page_version: `${url} ${hash} 12 2026-11-20`,
      chunk_index: i % 12,
      model_version: 'embed-english-v3.0',
      indexed_at: '2026-11-27T21:00:00.000Z',
    },
  };
});
const text = JSON.stringify({ result: { points, next_page_offset: 101_000 }, status: 'ok', time: 0.01 });
let parsed = 0;
const started = performance.now();
for (let page = 0; page < PAGES; page += 1) {
  const answer = (withReviver ? JSON.parse(text, bigintReviver) : JSON.parse(text)) as {
    result: { points: unknown[] };
  };
  parsed += answer.result.points.length;
}
process.stderr.write(
  `${withReviver ? 'with the reviver' : 'JSON.parse alone'}: ${parsed} points, ${text.length} characters a page, ${(performance.now() - started).toFixed(0)} ms\n`,
);
