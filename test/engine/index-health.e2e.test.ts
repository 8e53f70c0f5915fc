/**
 * The index-health checks end to end: the real Qdrant and Cohere clients against the stand-ins, the sample book
 * indexed cleanly, then one fault at a time (the same switches the replay drives), each of which its check must see.
 */
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngineAdapters, runOptionsFromConfig } from '../../functions/adapters/engine-adapters.ts';
import { loadSuiteFile } from '../../functions/adapters/files/suite-file.ts';
import { pageVersionKey, parsePageVersion } from '../../functions/core/book/payload.ts';
import { parseEngineConfig } from '../../functions/core/config.ts';
import { ValidationReport } from '../../functions/core/report/report.ts';
import { runValidation } from '../../functions/core/run/run-validation.ts';
import type { Suite } from '../../functions/core/suite/suite.ts';
import { DEMO_LEAKY_FILTER } from '../../sandbox/seed-index-health.ts';
import {
  indexSampleBook,
  SAMPLE_SUITE_PATH,
  SANDBOX_COLLECTION,
  type Sandbox,
  startSandbox,
} from '../../sandbox/start-sandbox.ts';

const PAGE = 'https://book.example.com/docs/module-1-ros2/ch1-ros2-basics';
let sandbox: Sandbox;
let client: QdrantClient;
let suite: Suite;

beforeAll(async () => {
  suite = await loadSuiteFile(SAMPLE_SUITE_PATH);
  sandbox = await startSandbox();
  client = new QdrantClient({ url: sandbox.qdrant.url, checkCompatibility: false });
});
afterAll(() => sandbox.stop());
beforeEach(() => indexSampleBook(sandbox));
afterEach(() => {
  sandbox.qdrant.degradeAnn(1);
  sandbox.qdrant.leakFilters(false);
  sandbox.cohere.setModelVariant(undefined);
});

async function run(criteria: Partial<Suite['success_criteria']> = {}) {
  const config = parseEngineConfig(sandbox.env);
  const report = await runValidation(createEngineAdapters(config), {
    ...runOptionsFromConfig(config),
    suite: { ...suite, success_criteria: { ...suite.success_criteria, ...criteria } },
    suiteSource: 'test',
  });
  expect(ValidationReport.parse(report)).toEqual(report);
  return report;
}

const healthErrors = (report: ValidationReport) =>
  report.errors
    .map((e) => e.error_type)
    .filter((t) =>
      [
        'STALE_CHUNKS',
        'MISSING_CHUNKS',
        'STALE_PAGES',
        'MIXED_MODELS',
        'EMBEDDING_DRIFT',
        'ANN_RECALL_LOW',
        'FILTER_VIOLATION',
      ].includes(t),
    );
const verdict = (report: ValidationReport, name: string) => report.success_criteria.find((c) => c.name === name);

async function pointsOf(url: string) {
  const { points } = await client.scroll(SANDBOX_COLLECTION, {
    limit: 100,
    with_payload: true,
    with_vector: true,
    filter: { must: [{ key: 'source_url', match: { value: url } }] },
  });
  return points;
}

/**
 * Says PAGE's points were indexed at `at` from a text last updated on `updatedDay` (the day the indexer records in
 * page_version and a date-only lastmod is compared with), or by an indexer that recorded no day (`null`).
 */
async function indexPageAt(at: string, updatedDay: string | null) {
  const [point] = await pointsOf(PAGE);
  const version = parsePageVersion(String(point?.payload?.page_version));
  if (version === undefined) throw new Error('the sample page has no page_version');
  const day = updatedDay ?? undefined;
  await client.setPayload(SANDBOX_COLLECTION, {
    wait: true,
    payload: { indexed_at: at, page_version: pageVersionKey(PAGE, version.pageHash, version.chunks, day) },
    filter: { must: [{ key: 'source_url', match: { value: PAGE } }] },
  });
}

describe('index health against the sandbox', () => {
  it('finds nothing wrong with a freshly indexed book, and judges every check', async () => {
    const report = await run();
    expect(healthErrors(report)).toEqual([]);
    expect(report.index_health).toMatchObject({
      stale_chunks: { urls_with_several_page_hashes: 0, duplicate_chunks: 0, points_without_page_hash: 0 },
      missing_chunks: { pages_missing_chunks: 0, missing_chunks: 0, source: 'facet' },
      freshness: { stale_pages: 0 },
      embedding_models: { models: [{ model: 'embed-english-v3.0' }] },
      drift_canary: { sampled: 8, min_cosine: 1 },
      ann: { recall: 1 },
      filters: { violations: 0 },
    });
    expect(report.index_health?.filters?.filtered_queries).toBeGreaterThan(0);
  });

  it('sees a stale leftover chunk of an earlier version of a page', async () => {
    const [point] = await pointsOf(PAGE);
    if (!point) throw new Error('the sample page has no points');
    await client.upsert(SANDBOX_COLLECTION, {
      wait: true,
      points: [
        {
          id: '00000000-0000-4000-8000-0000000000aa',
          vector: point.vector as number[],
          // As an earlier indexing run left it: its own page hash and version (of 100 chunks).
          payload: {
            ...point.payload,
            chunk_index: 99,
            page_hash: 'f'.repeat(64),
            page_version: pageVersionKey(PAGE, 'f'.repeat(64), 100),
          },
        },
      ],
    });
    const report = await run();
    expect(healthErrors(report)).toEqual(['STALE_CHUNKS']);
    expect(report.index_health?.stale_chunks).toMatchObject({
      urls_with_several_page_hashes: 1,
      urls: [PAGE],
      source: 'facet',
    });
    expect(verdict(report, 'stale_chunk_pages')).toMatchObject({ value: 1, passed: false });
    expect(verdict(await run({ max_stale_chunk_pages: 1 }), 'stale_chunk_pages')).toMatchObject({ passed: true });
  });

  it('sees a repeated chunk index of a page', async () => {
    const [point] = await pointsOf(PAGE);
    if (!point) throw new Error('the sample page has no points');
    await client.upsert(SANDBOX_COLLECTION, {
      wait: true,
      points: [
        { id: '00000000-0000-4000-8000-0000000000ab', vector: point.vector as number[], payload: point.payload },
      ],
    });
    const report = await run();
    expect(report.index_health?.stale_chunks).toMatchObject({ duplicate_chunks: 1, urls: [PAGE] });
  });

  it('sees a page edited after it was indexed (sitemap lastmod, date-only, after the indexed text’s day)', async () => {
    // The sample sitemap dates every page 2025-12-20; the index holds the text of the day before.
    await indexPageAt('2025-12-19T23:59:59.000Z', '2025-12-19');
    const report = await run();
    expect(healthErrors(report)).toEqual(['STALE_PAGES']);
    expect(report.index_health?.freshness).toMatchObject({ stale_pages: 1, urls: [PAGE] });
  });

  it('reads a date-only lastmod against the indexed text’s day: stale the day after it, not the same day (issue 23)', async () => {
    await indexPageAt('2025-12-20T23:59:00.000Z', '2025-12-19');
    expect((await run()).index_health?.freshness?.stale_pages).toBe(1);
    // Re-indexed the same day as the edit: the indexed text is the sitemap's, whatever the hour.
    await indexPageAt('2025-12-20T08:00:00.000Z', '2025-12-20');
    expect((await run()).index_health?.freshness?.stale_pages).toBe(0);
  });

  it('without a recorded day (an older indexer), reads a date-only lastmod against indexed_at’s day', async () => {
    await indexPageAt('2025-12-20T23:59:00.000Z', null);
    expect((await run()).index_health?.freshness?.stale_pages).toBe(1);
    await indexPageAt('2025-12-21T00:00:00.000Z', null);
    expect((await run()).index_health?.freshness?.stale_pages).toBe(0);
  });

  it('sees vectors of a second embedding model among the points', async () => {
    const [point] = await pointsOf(PAGE);
    await client.setPayload(SANDBOX_COLLECTION, {
      wait: true,
      payload: { model_version: 'embed-english-v2.0' },
      points: [point?.id ?? 0],
    });
    const report = await run();
    expect(healthErrors(report)).toEqual(['MIXED_MODELS']);
    expect(verdict(report, 'embedding_models')).toMatchObject({ value: 2, passed: false });
    const allowed = await run({ max_embedding_models: 2 });
    expect([healthErrors(allowed), verdict(allowed, 'embedding_models')?.passed]).toEqual([[], true]);
  });

  it('counts models by one facet where model_version is indexed, and by the scroll otherwise, alike', async () => {
    const seedModels = async () => {
      const [first, second] = await pointsOf(PAGE);
      if (!first || !second) throw new Error('the sample page has too few points');
      await client.setPayload(SANDBOX_COLLECTION, {
        wait: true,
        payload: { model_version: 'embed-english-v2.0' },
        points: [first.id],
      });
      const { model_version: _dropped, ...unlabelled } = second.payload ?? {};
      await client.upsert(SANDBOX_COLLECTION, {
        wait: true,
        points: [{ id: second.id, vector: second.vector as number[], payload: unlabelled }],
      });
    };
    await seedModels();
    sandbox.qdrant.resetCounts();
    const faceted = await run();
    const facets = sandbox.qdrant.requestCounts().facet;
    await indexSampleBook(sandbox, { payloadIndexes: false });
    await seedModels();
    const scrolled = await run();

    const expected = [
      { model: 'embed-english-v3.0', points: 88 },
      { model: '(none)', points: 1 },
      { model: 'embed-english-v2.0', points: 1 },
    ];
    expect(faceted.index_health?.embedding_models).toEqual({ models: expected, source: 'facet' });
    expect(scrolled.index_health?.embedding_models).toEqual({ models: expected, source: 'scroll' });
    expect(healthErrors(faceted)).toEqual(['MIXED_MODELS']);
    // source_url and token_count for the profile, module_name and chapter_id for the catalog, model_version, and
    // page_version and indexed_at for the index inventory.
    expect(facets).toBe(7);
  });

  it('sees an embedding model swapped under the same name: EMBEDDING_DRIFT, critical', async () => {
    sandbox.cohere.setModelVariant('embed-english-v4-in-disguise');
    const report = await run();
    expect(report.errors.find((e) => e.error_type === 'EMBEDDING_DRIFT')).toMatchObject({ severity: 'CRITICAL' });
    expect(report.index_health?.drift_canary?.min_cosine).toBeLessThan(0.5);
    expect(report.index_health?.drift_canary?.drifted).toHaveLength(8);
  });

  it('judges the canary cosine against its threshold on both sides of equality', async () => {
    // A drifted model, so the lowest cosine is under 1 and a threshold one step (0.0001, its precision) above it
    // exists: a clean index measures 1, where "above" would be 1 again and only one side could be tested.
    sandbox.cohere.setModelVariant('embed-english-v4-in-disguise');
    const measured = (await run()).index_health?.drift_canary?.min_cosine ?? Number.NaN;
    expect(measured).toBeLessThan(0.9999);
    expect(verdict(await run({ min_canary_cosine: measured }), 'canary_cosine')).toMatchObject({
      value: measured,
      threshold: measured,
      passed: true,
    });
    expect(verdict(await run({ min_canary_cosine: measured + 0.0001 }), 'canary_cosine')).toMatchObject({
      value: measured,
      passed: false,
    });
  });

  it('sees approximate search whose recall fell: ANN_RECALL_LOW', async () => {
    sandbox.qdrant.degradeAnn(0.3);
    const report = await run();
    expect(healthErrors(report)).toContain('ANN_RECALL_LOW');
    expect(report.index_health?.ann?.recall).toBeLessThan(0.95);
  });

  it('judges ANN recall against its threshold on both sides of equality', async () => {
    sandbox.qdrant.degradeAnn(0.6);
    const recall = (await run()).index_health?.ann?.recall ?? Number.NaN;
    expect(recall).toBeLessThan(1);
    expect(verdict(await run({ min_ann_recall: recall }), 'ann_recall')?.passed).toBe(true);
    expect(verdict(await run({ min_ann_recall: recall + 0.0001 }), 'ann_recall')?.passed).toBe(false);
  });

  it('sees a filtered search returning a hit of another module: FILTER_VIOLATION', async () => {
    sandbox.qdrant.leakFilters(true);
    const report = await run();
    expect(healthErrors(report)).toContain('FILTER_VIOLATION');
    const violations = report.index_health?.filters?.violations ?? 0;
    expect(violations).toBeGreaterThan(0);
    expect(verdict(report, 'filter_violations')?.passed).toBe(false);
    expect(verdict(await run({ max_filter_violations: violations }), 'filter_violations')?.passed).toBe(true);
    expect(verdict(await run({ max_filter_violations: violations - 1 }), 'filter_violations')?.passed).toBe(false);
  });

  it('sees the one filtered query whose filter alone the index leaks, and none of the others', async () => {
    sandbox.qdrant.leakFilters(DEMO_LEAKY_FILTER);
    const report = await run();
    expect(healthErrors(report)).toEqual(['FILTER_VIOLATION']);
    const filters = report.index_health?.filters;
    expect(filters).toMatchObject({ violations: 1, examples: [{ query_id: 'failure-handling-section' }] });
    const leaked = report.query_results.find((q) => q.id === 'failure-handling-section')?.top_results ?? [];
    const outside = leaked.filter((r) => !r.heading_hierarchy?.includes(DEMO_LEAKY_FILTER.value));
    expect(outside.map((r) => r.chunk_id)).toEqual([filters?.examples[0]?.point_id]);
  });

  it('judges stale pages against their threshold on both sides of equality', async () => {
    await indexPageAt('2025-12-19T23:59:59.000Z', '2025-12-19');
    expect(verdict(await run({ max_stale_pages: 1 }), 'stale_pages')?.passed).toBe(true);
    expect(verdict(await run({ max_stale_pages: 0 }), 'stale_pages')?.passed).toBe(false);
  });
});
