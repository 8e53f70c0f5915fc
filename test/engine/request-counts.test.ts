/**
 * What one run asks of Qdrant and Cohere, pinned through the real clients against the stand-ins: a regression to
 * per-query embed or search calls, or to reading the collection point by point, fails here. These tests count
 * requests on the wire (the stand-ins' counters); they never look at a clock.
 */
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSuite, syntheticPoints } from '../../bench/synthetic-book.ts';
import { createEngineAdapters, runOptionsFromConfig } from '../../functions/adapters/engine-adapters.ts';
import { PAYLOAD_INDEXES } from '../../functions/core/book/payload.ts';
import { DEFAULT_REQUIRED_FIELDS, parseEngineConfig } from '../../functions/core/config.ts';
import type { ValidationReport } from '../../functions/core/report/report.ts';
import { runValidation } from '../../functions/core/run/run-validation.ts';
import { parseSuite } from '../../functions/core/suite/suite.ts';
import { type BookServer, startBookServer } from '../../sandbox/book-server.ts';
import { type CohereStandIn, startCohereStandIn } from '../../sandbox/cohere/index.ts';
import { type QdrantStandIn, startQdrantStandIn } from '../../sandbox/qdrant/index.ts';
import { parseValidReport } from '../helpers/valid-report.ts';

// Small vectors: the counts do not depend on the dimension, and the Cohere stand-in is started with the same one.
const DIMENSIONS = 8;
const PAGE_SIZE = 1000;
const REQUIRED_FIELDS = DEFAULT_REQUIRED_FIELDS.length;
// Index health (core/index-health) on top of the queries and the profile: the drift canary's one embed call and one
// scroll page of the first points, the queries' searches once more exact (ANN recall), and the index inventory: two
// facets (page_version, indexed_at) with the indexer's payload indexes, else it rides the profile's one scroll.
const CANARY_EMBED = 1;
const CANARY_PAGE = 1;
/** Facets of an indexed run: source_url and token_count (profile), model_version, page_version and indexed_at. */
const INDEXED_FACETS = ['indexed_at', 'model_version', 'page_version', 'source_url', 'token_count'];

let qdrant: QdrantStandIn;
let cohere: CohereStandIn;
let book: BookServer;

beforeAll(async () => {
  [qdrant, cohere, book] = await Promise.all([
    startQdrantStandIn({ recordExchanges: true }),
    startCohereStandIn({ dimensions: DIMENSIONS }),
    startBookServer(),
  ]);
  const client = new QdrantClient({ url: qdrant.url, checkCompatibility: false });
  for (const [name, points, indexed] of [
    ['indexed', 2_500, true],
    ['indexed-2k', 2_000, true],
    ['indexed-20k', 20_000, true],
    ['plain-2500', 2_500, false],
    ['plain-3000', 3_000, false],
  ] as const) {
    await client.createCollection(name, { vectors: { size: DIMENSIONS, distance: 'Cosine' } });
    for (const batch of syntheticPoints({ total: points, dimensions: DIMENSIONS })) qdrant.loadPoints(name, batch);
    if (indexed) {
      for (const [field, type] of Object.entries(PAYLOAD_INDEXES))
        await client.createPayloadIndex(name, { field_name: field, field_schema: type, wait: true });
    }
  }
});

afterAll(async () => {
  await Promise.all([qdrant?.stop(), cohere?.stop(), book?.stop()]);
});

/** Runs the full validation as `ragwatch run` does and returns the report with the requests it made. */
async function runCounted(options: { collection: string; queries: number; annSample?: number }) {
  const config = parseEngineConfig({
    ...(options.annSample === undefined ? {} : { ANN_RECALL_SAMPLE: String(options.annSample) }),
    QDRANT_URL: qdrant.url,
    QDRANT_COLLECTION: options.collection,
    COHERE_API_KEY: 'test-key',
    COHERE_BASE_URL: cohere.url,
    DOCUSAURUS_BASE_URL: 'https://book.example.com',
    SITEMAP_URL: `${book.url}/sitemap-index.xml`,
  });
  const suite = parseSuite(JSON.stringify(generateSuite(options.queries)), 'generated.json');
  qdrant.resetCounts();
  cohere.resetCounts();
  const before = qdrant.exchanges().length;
  const report: ValidationReport = await runValidation(createEngineAdapters(config), {
    ...runOptionsFromConfig(config),
    suite,
    suiteSource: 'generated.json',
  });
  parseValidReport(report);
  return {
    report,
    qdrant: qdrant.requestCounts(),
    cohere: cohere.requestCounts(),
    exchanges: qdrant.exchanges().slice(before),
  };
}

describe('request counts of a run (issue 4: a run costs only its dependent round trips)', () => {
  it('embeds 200 queries in 3 calls and searches them in 2 query-batch calls (and 1 more: 20 of them exact)', async () => {
    // Act
    const run = await runCounted({ collection: 'indexed', queries: 200 });

    // Assess
    expect(run.report.error_queries).toBe(0);
    expect(run.cohere).toEqual({ embed: 3 + CANARY_EMBED, chat: 0 });
    expect(run.qdrant.query_batch_points).toBe(2 + 1);
    expect(run.qdrant.query_points).toBeUndefined();
    const exact = run.exchanges.filter(
      (e) =>
        e.operationId === 'query_batch_points' &&
        (e.requestBody as { searches: { params?: { exact?: boolean } }[] }).searches.every((q) => q.params?.exact),
    );
    expect(exact.map((e) => (e.requestBody as { searches: unknown[] }).searches.length)).toEqual([20]);
    expect(run.report.index_health?.ann).toMatchObject({
      queries_compared: 20,
      queries_searched: 200,
      sample_size: 20,
    });
  });

  it('repeats every search exact when ANN_RECALL_SAMPLE covers the suite (2 more calls at 200), and none at 0', async () => {
    const all = await runCounted({ collection: 'indexed', queries: 200, annSample: 200 });
    expect(all.qdrant.query_batch_points).toBe(2 * 2);
    expect(all.report.index_health?.ann?.queries_compared).toBe(200);
    const none = await runCounted({ collection: 'indexed', queries: 200, annSample: 0 });
    expect(none.qdrant.query_batch_points).toBe(2);
    expect(none.report.index_health?.ann?.recall).toBeNull();
  });

  it('needs a second embed call at 97 queries but still one query-batch call', async () => {
    const run = await runCounted({ collection: 'indexed', queries: 97 });

    expect(run.report.error_queries).toBe(0);
    expect(run.cohere.embed).toBe(2 + CANARY_EMBED);
    expect(run.qdrant.query_batch_points).toBe(1 + 1);
  });

  it('needs a second query-batch call at 101 queries', async () => {
    const run = await runCounted({ collection: 'indexed', queries: 101 });

    expect(run.report.error_queries).toBe(0);
    expect(run.cohere.embed).toBe(2 + CANARY_EMBED);
    expect(run.qdrant.query_batch_points).toBe(2 + 1);
  });

  it('re-embeds the canary’s 8 stored chunks in one call, read with their vectors in one scroll page, as search documents', async () => {
    const run = await runCounted({ collection: 'indexed', queries: 20 });

    expect(run.qdrant.get_points).toBeUndefined();
    const samples = run.exchanges.filter(
      (e) => e.operationId === 'scroll_points' && (e.requestBody as { with_vector: boolean }).with_vector,
    );
    expect(samples.map((e) => e.requestBody)).toEqual([
      { limit: 8, with_payload: ['chunk_text', 'embed_header', 'source_url'], with_vector: true },
    ]);
    // The synthetic book's vectors are not its texts' embeddings, so the canary rightly finds them drifted.
    expect(run.report.index_health?.drift_canary).toMatchObject({ sampled: 8, min_cosine: expect.any(Number) });
    expect(run.cohere.embed).toBe(1 + CANARY_EMBED);
  });

  it('reads an indexed collection with one facet per aggregated field and 2 + F counts, scrolling only the canary’s page', async () => {
    const run = await runCounted({ collection: 'indexed', queries: 20 });

    expect(run.qdrant).toEqual({
      get_collection: 1,
      query_batch_points: 1 + 1,
      facet: INDEXED_FACETS.length,
      count_points: 2 + REQUIRED_FIELDS,
      scroll_points: CANARY_PAGE,
    });
    const facetKeys = run.exchanges
      .filter((e) => e.operationId === 'facet')
      .map((e) => (e.requestBody as { key: string }).key)
      .sort();
    expect(facetKeys).toEqual(INDEXED_FACETS);
    expect(run.report.quality_metrics?.source).toEqual({ completeness: 'count', token_distribution: 'facet' });
    expect(run.report.coverage_report?.source).toBe('facet');
    expect(run.report.index_health?.embedding_models?.source).toBe('facet');
    expect(run.report.index_health?.stale_chunks?.source).toBe('facet');
    expect(run.report.index_health?.freshness?.source).toBe('facet');
  });

  it('makes the same requests of an indexed collection of 2,000 and of 20,000 points: 23 at N = 200', async () => {
    const small = await runCounted({ collection: 'indexed-2k', queries: 200 });
    const large = await runCounted({ collection: 'indexed-20k', queries: 200 });

    const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
    expect({ ...small.qdrant, ...small.cohere }).toEqual({ ...large.qdrant, ...large.cohere });
    // Qdrant: 1 describe, 2 + 1 query batches (the 200 searches, then 20 of them exact), 5 facets, 2 + 6 counts,
    // 1 canary page; Cohere: 3 + 1 embed calls; with the one sitemap fetch, 23.
    expect(total(large.qdrant) + total(large.cohere)).toBe(18 + 4);
    // Real answers, not empty ones: every page (one per point up to the book's 5,000) is one version of its chunks.
    for (const [run, pages] of [
      [small, 2_000],
      [large, 5_000],
    ] as const) {
      expect(run.report.index_health?.stale_chunks).toMatchObject({
        urls_checked: pages,
        stale_pages: 0,
        duplicate_chunks: 0,
        points_without_page_hash: 0,
        source: 'facet',
      });
    }
  });

  it('reads a collection without payload indexes in one scroll of ceil(P / 1000) pages for the profile and the inventory together, without facets', async () => {
    const run = await runCounted({ collection: 'plain-2500', queries: 20 });

    expect(run.qdrant).toEqual({
      get_collection: 1,
      query_batch_points: 1 + 1,
      count_points: 2 + REQUIRED_FIELDS,
      scroll_points: Math.ceil(2_500 / PAGE_SIZE) + CANARY_PAGE,
    });
    expect(run.report.quality_metrics?.points_scanned).toBe(2_500);
    expect(run.report.index_health?.embedding_models?.source).toBe('scroll');
    expect(run.report.index_health?.stale_chunks?.source).toBe('scroll');
  });

  it('asks for no empty last page when the collection is a whole number of pages', async () => {
    const run = await runCounted({ collection: 'plain-3000', queries: 20 });

    expect(run.qdrant.scroll_points).toBe(3_000 / PAGE_SIZE + CANARY_PAGE);
    expect(run.report.quality_metrics?.points_scanned).toBe(3_000);
  });

  it('scrolls pages of 1000 without vectors, asking for the fields the counts could not answer and the inventory’s six small ones', async () => {
    const run = await runCounted({ collection: 'plain-2500', queries: 20 });

    const scrolls = run.exchanges.filter(
      (e) => e.operationId === 'scroll_points' && !(e.requestBody as { with_vector: boolean }).with_vector,
    );
    // One scroll: the first page, then the 1,500 points left in two id ranges read at once (SCROLL_PARTITIONS is 8,
    // but no range is smaller than a page): 1,001 to 1,750 and 1,751 on.
    const fields = [
      'source_url',
      'token_count',
      'page_hash',
      'page_version',
      'chunk_index',
      'model_version',
      'indexed_at',
    ];
    expect(scrolls[0]?.requestBody).toEqual({ limit: PAGE_SIZE, with_payload: fields, with_vector: false });
    expect(scrolls.slice(1).map((e) => (e.requestBody as { offset: number }).offset)).toEqual(
      expect.arrayContaining([1_001, 1_751]),
    );
    expect(scrolls).toHaveLength(3);
    for (const scroll of scrolls.slice(1))
      expect(scroll.requestBody).toMatchObject({ limit: PAGE_SIZE, with_payload: fields, with_vector: false });
    expect(run.report.index_health?.stale_chunks).toMatchObject({ urls_checked: expect.any(Number), source: 'scroll' });
    expect(run.report.index_health?.stale_chunks?.urls_checked).toBe(run.report.coverage_report?.distinct_indexed_urls);
  });

  it('lists every page version by one exact facet, with a limit above the versions it may hold', async () => {
    const run = await runCounted({ collection: 'indexed', queries: 20 });

    const facets = run.exchanges.filter((e) => e.operationId === 'facet').map((e) => e.requestBody);
    expect(facets).toContainEqual({ key: 'page_version', limit: 100_000, exact: true });
    expect(facets).toContainEqual({ key: 'indexed_at', limit: 32, exact: true });
  });
});
