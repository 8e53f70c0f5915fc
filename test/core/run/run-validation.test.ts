/**
 * The validation run as the core assembles its report, over in-memory fakes: the query counts and pass rate, the
 * lifecycle, the duration, the configured overrides, the sections the checks filled and the calls they made. The
 * same run over HTTP stand-ins is test/engine/run-validation.e2e.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { EngineDeps, RunOptions } from '../../../functions/core/run/run-validation.ts';
import { runValidation } from '../../../functions/core/run/run-validation.ts';
import { DeadlineError, EmbeddingError, SitemapError } from '../../../functions/core/shared/errors.ts';
import { Suite } from '../../../functions/core/suite/suite.ts';
import { FakeEmbedder } from '../../fakes/fake-embedder.ts';
import { MemoryIndex } from '../../fakes/memory-index.ts';

const PAGE_A = 'https://b/docs/a';
const PAGE_B = 'https://b/docs/b';
const payload = (url: string, text: string) => ({
  chunk_text: text,
  source_url: url,
  module_name: 'Module 1',
  chapter_id: 'ch1',
  token_count: 12,
  chunk_index: 0,
  model_version: 'fake-embed',
});
const POINTS = [
  { id: '00000000-0000-4000-8000-000000000001', vector: [1, 0, 0], payload: payload(PAGE_A, 'nodes') },
  { id: '00000000-0000-4000-8000-000000000002', vector: [0, 1, 0], payload: payload(PAGE_B, 'topics') },
];
// One query finds its page, one finds nothing near enough, one cannot be embedded (its own embed call fails).
const SUITE = Suite.parse({
  name: 'golden',
  queries: [
    { id: 'found', query_text: 'nodes?', expected_sources: [PAGE_A], min_similarity: 0.5 },
    { id: 'missed', query_text: 'cooking?', min_similarity: 0.5 },
    { id: 'broken', query_text: 'anything?', min_similarity: 0.5 },
  ],
});
const OPTIONS: RunOptions = {
  suite: SUITE,
  suiteSource: 'suite.json',
  collection: 'book',
  environment: 'test',
  requiredFields: [],
  coveragePathPrefix: '/docs/',
  searchConcurrency: 1,
  topK: 2,
  criteria: { minPassRate: 33.33 },
};

function deps(overrides: Partial<EngineDeps> = {}) {
  let ids = 0;
  let ticks = 0;
  const embedder = new FakeEmbedder({
    vectors: { 'nodes?': [1, 0, 0], 'cooking?': [0, 0, 1] },
    maxBatchSize: 1,
  });
  // The failure follows the text, not a call number: the canary's document embeds share the call count.
  const embedQueries = embedder.embedQueries.bind(embedder);
  embedder.embedQueries = (texts) =>
    texts.includes('anything?')
      ? Promise.reject(new EmbeddingError('Cohere embed answered 500', 'unavailable', { status: 500 }))
      : embedQueries(texts);
  const index = new MemoryIndex(POINTS);
  const all: EngineDeps = {
    index,
    embedder,
    sitemap: {
      location: 'https://b/sitemap.xml',
      list: async () => ({ entries: [{ url: PAGE_A }, { url: PAGE_B }], issues: [] }),
    },
    // The run starts at 1 000 ms and every later reading is 3 500 ms: the run lasted 2.5 s.
    clock: { now: () => new Date('2026-11-23T02:00:00Z'), monotonicMs: () => (ticks++ === 0 ? 1000 : 3500) },
    newId: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
    ...overrides,
  };
  return { deps: all, index };
}

describe('runValidation: the report it assembles', () => {
  it('counts each query by its status, and judges the pass rate with the configured override', async () => {
    // Act
    const { deps: run, index } = deps();
    const report = await runValidation(run, OPTIONS);

    // Assess
    expect(report.query_results.map((q) => [q.id, q.status])).toEqual([
      ['found', 'PASS'],
      ['missed', 'FAIL'],
      ['broken', 'ERROR'],
    ]);
    expect(report).toMatchObject({
      schema_version: '2',
      suite: { name: 'golden', source: 'suite.json', query_count: 3 },
      total_queries: 3,
      passed_queries: 1,
      failed_queries: 1,
      error_queries: 1,
      pass_rate: 33.33,
      duration_seconds: 2.5,
      timestamp: '2026-11-23T02:00:00.000Z',
      finished_at: '2026-11-23T02:00:00.000Z',
    });
    expect(report.success_criteria.find((c) => c.name === 'pass_rate')).toMatchObject({
      value: 33.33,
      threshold: 33.33,
      passed: true,
    });
    expect(report.lifecycle.map((e) => e.state)).toEqual(['CREATED', 'EXECUTING', 'COMPLETED', 'ANALYZED']);
    // topK overrides the suite's default: every search asks for 2 hits.
    expect(index.searches[0]?.map((s) => s.limit)).toEqual([2, 2]);
    expect(report.execution).toMatchObject({ embed_calls: 3, search_calls: 1, embedding_model: 'fake-embed' });
    expect(report.validation_metrics.total_queries_tested).toBe(3);
    expect(report.quality_metrics).not.toBeNull();
    expect(report.coverage_report).not.toBeNull();
    expect(report.index_health).not.toBeNull();
    expect(report.grounding_report).toBeNull();
  });

  it('marks the lifecycle FAILED and the run ERROR when part of the run could not be done', async () => {
    // Act
    const { deps: run } = deps({
      sitemap: {
        location: 'https://b/sitemap.xml',
        list: () => Promise.reject(new SitemapError('HTTP 503 from https://b/sitemap.xml', 'unavailable')),
      },
    });
    const report = await runValidation(run, OPTIONS);

    // Assess
    expect(report.status).toBe('ERROR');
    expect(report.lifecycle.map((e) => e.state)).toEqual(['CREATED', 'EXECUTING', 'FAILED', 'ANALYZED']);
  });

  it('leaves out the index health and the query figures when no step could run (the deadline had passed)', async () => {
    // Act
    const { deps: run } = deps({ signal: AbortSignal.abort(new DeadlineError('the run deadline (5 s) was reached')) });
    const report = await runValidation(run, { ...OPTIONS, topK: undefined, criteria: undefined });

    // Assess
    expect(report.status).toBe('ERROR');
    expect(report.index_health).toBeNull();
    expect(report.execution.vector_size).toBeNull();
    expect([report.total_queries, report.pass_rate]).toEqual([0, 0]);
    expect(report.validation_metrics.total_queries_tested).toBe(0);
  });
});
