/**
 * The engine end to end: the real Qdrant and Cohere clients over HTTP to the sandbox's stand-ins, the sample book
 * indexed through them, and the sitemap served by the book server. One sandbox for the file; each test arranges
 * the faults it needs and clears them.
 */

import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import path from 'node:path';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngineAdapters, runOptionsFromConfig } from '../../functions/adapters/engine-adapters.ts';
import { loadSuiteFile } from '../../functions/adapters/files/suite-file.ts';
import { formatSummary } from '../../functions/cli/format-summary.ts';
import { parseEngineConfig } from '../../functions/core/config.ts';
import { ERROR_TYPES, type ErrorType } from '../../functions/core/report/findings.ts';
import { runValidation } from '../../functions/core/run/run-validation.ts';
import { parseSuite, type Suite } from '../../functions/core/suite/suite.ts';
import { SAMPLE_BOOK_DIR } from '../../sandbox/book-server.ts';
import { startFaultProxy } from '../../sandbox/faults/fault-proxy.ts';
import {
  indexSampleBook,
  SAMPLE_SUITE_PATH,
  type Sandbox,
  seedIndexDrift,
  startSandbox,
} from '../../sandbox/start-sandbox.ts';
import { sitemapIndex, startRoutes, xml } from '../adapters/sitemap/routes-server.ts';
import { parseValidReport } from '../helpers/valid-report.ts';

/** A port nothing listens on: bound by the OS, then released. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let sandbox: Sandbox;
let sampleSuite: Suite;
const seen = new Set<ErrorType>();

async function run(options: { suite?: Suite; env?: Record<string, string>; minCoverage?: number } = {}) {
  const config = parseEngineConfig({
    ...sandbox.env,
    QDRANT_TIMEOUT_MS: '1000',
    COHERE_TIMEOUT_MS: '1000',
    ...options.env,
  });
  const report = await runValidation(createEngineAdapters(config), {
    ...runOptionsFromConfig(config),
    ...(options.minCoverage === undefined ? {} : { criteria: { minCoverage: options.minCoverage } }),
    suite: options.suite ?? sampleSuite,
    suiteSource: 'test',
  });
  for (const e of report.errors) seen.add(e.error_type);
  expect(parseValidReport(report)).toEqual(report);
  return report;
}

const ONE_QUERY = parseSuite(
  JSON.stringify({ queries: [{ id: 'vslam', query_text: 'What is visual SLAM in Isaac ROS?', min_similarity: 0.2 }] }),
  'one.json',
);

beforeAll(async () => {
  sampleSuite = await loadSuiteFile(SAMPLE_SUITE_PATH);
  sandbox = await startSandbox();
  await indexSampleBook(sandbox);
  await seedIndexDrift(sandbox);
});
afterEach(() => {
  sandbox.qdrant.clearFaults();
  sandbox.cohere.clearFaults();
  sandbox.cohere.setChatBehaviour('normal');
  sandbox.book.setFault('/sitemap-index.xml', null);
});
afterAll(async () => {
  await sandbox.stop();
});

describe('runValidation against the sandbox', () => {
  it('reports the sample suite’s deliberate failures, coverage gap, orphans and incomplete metadata', async () => {
    // Act
    const report = await run();

    // Assess
    expect(report).toMatchObject({
      status: 'FAILED',
      total_queries: 22,
      passed_queries: 15,
      failed_queries: 5,
      error_queries: 2,
      pass_rate: 68.18,
      lifecycle: [{ state: 'CREATED' }, { state: 'EXECUTING' }, { state: 'COMPLETED' }, { state: 'ANALYZED' }],
    });
    expect(report.coverage_report).toMatchObject({
      total_sitemap_urls: 14,
      missing_urls: ['https://book.example.com/docs/module-4-vla/ch4-safety-and-ethics'],
      extra_urls: ['https://book.example.com/docs/module-1-ros2/ch0-legacy-setup'],
      coverage_percentage: 92.86,
      matched_by: 'url',
      source: 'facet',
    });
    expect(report.quality_metrics).toMatchObject({
      total_chunks: 92,
      chunks_with_complete_metadata: 90,
      metadata_completeness_rate: 97.83,
      source: { completeness: 'count', token_distribution: 'facet' },
      points_scanned: 0,
    });
    expect(report.success_criteria.map((c) => [c.name, c.passed])).toEqual([
      ['pass_rate', false],
      ['coverage', false],
      ['completeness', false],
      // The legacy page the site deleted is still indexed (the orphan above).
      ['orphan_urls', false],
      ['grounded_rate', true],
      // Judged on the model's own answer: the no-answer weight question reaches chat (its retrieval passes the
      // relevance gate) and the model abstains. Sourdough is stopped by the gate before chat (gated, left out).
      ['abstention_correct_rate', true],
      ['support_rate', true],
      // The demo's seeded index-health drift (sandbox/seed-index-health.ts): one case each.
      ['stale_chunk_pages', false],
      // The stale leftover is of a longer, earlier version; the current version holds every chunk it declares.
      ['missing_chunk_pages', true],
      ['stale_pages', false],
      ['embedding_models', false],
      ['canary_cosine', false],
      ['ann_recall', true],
      ['filter_violations', false],
    ]);
    expect(report.grounding_report).toMatchObject({
      abstentions_correct: 1,
      abstentions_gated: 1,
      abstentions_incorrect: 0,
      abstention_correct_rate: 100,
    });
    const weight = report.grounding_report?.responses.find((r) => r.query_id === 'no-answer-weight');
    expect(weight?.status).toBe('ANSWERED');
    expect(weight?.grounding_validation).toMatchObject({ abstained: true, gated: false, abstention_correct: true });
    const failed = Object.fromEntries(report.query_results.filter((q) => !q.passed).map((q) => [q.id, q.error_types]));
    expect(failed).toEqual({
      'off-topic-sourdough': ['LOW_RELEVANCE'],
      'stale-expectation': ['METADATA_MISMATCH'],
      'unindexed-page': ['LOW_RELEVANCE', 'MISSING_EXPECTED_SOURCE'],
      'missing-module': ['METADATA_MISMATCH'],
      'unindexed-page-filter': ['NO_RESULTS'],
      'strict-precision': ['LOW_PRECISION'],
      'latency-budget': ['LATENCY_EXCEEDED'],
    });
    // Seed 000: a query with no result at all (none found, or not searched for a filter the index cannot match)
    // ends in the error state, not FAIL.
    const statuses = Object.fromEntries(report.query_results.filter((q) => !q.passed).map((q) => [q.id, q.status]));
    expect(statuses).toMatchObject({ 'unindexed-page-filter': 'ERROR', 'missing-module': 'ERROR' });
  });

  it('shows each index-health finding of the seeded drift once, the leaked filter on its one query only', async () => {
    // Act
    const report = await run();

    // Assess
    const health = [
      'STALE_CHUNKS',
      'STALE_PAGES',
      'MIXED_MODELS',
      'EMBEDDING_DRIFT',
      'ANN_RECALL_LOW',
      'FILTER_VIOLATION',
    ];
    expect(report.errors.map((e) => e.error_type).filter((t) => health.includes(t))).toEqual(health);
    expect(report.index_health?.filters).toMatchObject({
      filtered_queries: 4,
      violations: 1,
      examples: [{ query_id: 'failure-handling-section' }],
    });
    // The leaked point is an extra hit (the section holds fewer chunks than top_k): the query still passes, and
    // its recall against exact search stays whole, so ANN_RECALL_LOW names only the off-topic question.
    expect(report.query_results.find((q) => q.id === 'failure-handling-section')?.status).toBe('PASS');
    const annLow = report.index_health?.ann?.per_query.filter((q) => q.recall < 1).map((q) => q.query_id);
    expect(annLow).toEqual(['off-topic-sourdough']);
  });

  it('carries each result’s indexing time, model and per-result confidence from the indexer’s payload', async () => {
    // Act
    const report = await run({ suite: ONE_QUERY });

    // Assess
    const [query] = report.query_results;
    const first = query?.top_results[0];
    expect(first).toMatchObject({ model_version: 'embed-english-v3.0', payload_issues: [] });
    expect(Number.isNaN(Date.parse(first?.timestamp ?? ''))).toBe(false);
    expect(first?.confidence_score).toBe(Math.min(1, Math.round(((first?.similarity_score ?? 0) / 0.2) * 1e4) / 1e4));
    // The query expects no page, so each result at or above its min_similarity (0.2) is relevant: every result the
    // sample book returns for it is, so all of the retriever's similarity went to relevant results.
    expect(query?.top_results.map((r) => r.relevance)).toEqual(query?.top_results.map(() => true));
    expect(query?.top_results.length).toBeGreaterThan(0);
    expect(query?.semantic_alignment_score).toBe(1);
    expect(report.errors.filter((e) => e.error_type === 'MODEL_MISMATCH')).toEqual([]);
  });

  it('reports MODEL_MISMATCH when the configured embedding model is not the one the points were embedded with', async () => {
    // Act: same dimension (1024), another model
    const report = await run({ suite: ONE_QUERY, env: { EMBEDDING_MODEL: 'embed-multilingual-v3.0' } });

    // Assess
    const mismatch = report.errors.find((e) => e.error_type === 'MODEL_MISMATCH');
    expect(mismatch).toMatchObject({
      severity: 'CRITICAL',
      details: { configured_model: 'embed-multilingual-v3.0', stored_models: { 'embed-english-v3.0': 5 } },
    });
    expect(report.errors.filter((e) => e.error_type === 'DIMENSION_MISMATCH')).toEqual([]);
  });

  it('reports a category whose queries miss what the suite expects of that category', async () => {
    // Prepare
    const suite = parseSuite(
      JSON.stringify({
        categories: {
          keyword: { description: 'Exact terms of the book', expected_results: { min_pass_rate: 100 } },
          semantic: { description: 'Questions in other words', expected_results: { min_pass_rate: 50 } },
        },
        queries: [
          { id: 'vslam', query_text: 'What is visual SLAM in Isaac ROS?', category: 'semantic', min_similarity: 0.2 },
          { id: 'off', query_text: 'sourdough bread proofing', category: 'keyword', min_similarity: 0.2 },
        ],
      }),
      'categories.json',
    );

    // Act
    const report = await run({ suite });

    // Assess
    expect(report.validation_metrics.by_category).toMatchObject({
      keyword: { description: 'Exact terms of the book', pass_rate: 0, expected_met: false },
      semantic: { description: 'Questions in other words', pass_rate: 100, expected_met: true },
    });
    expect(
      report.errors.filter((e) => e.error_type === 'CATEGORY_EXPECTATION_MISSED').map((e) => e.details.category),
    ).toEqual(['keyword']);
  });

  it('costs one embed call and one query-batch call for the whole suite, and aggregates by facet and count', async () => {
    // Prepare
    sandbox.qdrant.resetCounts();
    sandbox.cohere.resetCounts();

    // Act
    const report = await run();
    const judged = report.grounding_report?.judge?.judged ?? 0;

    // Assess: 22 queries fit one embed call (<= 96) and one query batch (<= 100); the 6 agent questions reuse those
    // hits and cost only their chats (5: the off-topic one has nothing relevant, so it abstains without chat) and one
    // judge call per claim of their answers (GROUNDING_JUDGE=cohere by default);
    // 6 required fields -> 2 + 6 counts; facets: source_url and token_count for the profile, module_name and
    // chapter_id for the catalog the suite's module and chapter names are resolved against, model_version for the
    // mixed-models check, page_version and indexed_at for the index inventory, and, since the seeded drift dates one
    // page earlier than the rest (two indexing times), one page_version facet per time.
    // Index health adds the canary's embed call and its one scroll page of the first points, and the exact searches.
    expect(judged).toBe(report.grounding_report?.claims);
    expect(judged).toBeGreaterThan(0);
    expect(sandbox.cohere.requestCounts()).toEqual({ embed: 1 + 1, chat: 5 + judged });
    expect(sandbox.qdrant.requestCounts()).toEqual({
      get_collection: 1,
      query_batch_points: 1 + 1,
      facet: 7 + 2,
      count_points: 8,
      scroll_points: 1,
    });
    // With the lexical gate alone, the chats only.
    sandbox.cohere.resetCounts();
    await run({ env: { GROUNDING_JUDGE: 'lexical' } });
    expect(sandbox.cohere.requestCounts().chat).toBe(5);
  });

  it('finds the same coverage and quality by one scroll when the collection has no payload index', async () => {
    // Prepare
    await indexSampleBook(sandbox, { payloadIndexes: false });
    await seedIndexDrift(sandbox);
    sandbox.qdrant.resetCounts();

    // Act
    const report = await run();
    const counts = sandbox.qdrant.requestCounts();
    await indexSampleBook(sandbox);
    await seedIndexDrift(sandbox);

    // Assess
    expect(report.coverage_report).toMatchObject({ coverage_percentage: 92.86, source: 'scroll' });
    expect(report.quality_metrics).toMatchObject({
      metadata_completeness_rate: 97.83,
      source: { completeness: 'count', token_distribution: 'scroll' },
      points_scanned: 92,
    });
    // One scroll for the profile (the index inventory rides it), one of module_name and chapter_id for the catalog,
    // and the canary's page of the first points.
    expect(counts.scroll_points).toBe(3);
    expect(report.index_health?.stale_chunks?.source).toBe('scroll');
    expect(counts.facet).toBeUndefined();
  });

  it('holds every criterion, and fails on the CRITICAL model mismatch alone', async () => {
    // Prepare: the passing queries only, coverage allowed to miss the one unindexed page, the one orphan page, and
    // the seeded index-health cases (one stale chunk page, one stale page, a second model, a drifted orphan) allowed.
    const suite = {
      ...sampleSuite,
      queries: sampleSuite.queries.filter((q) => !q.description?.startsWith('Deliberate')),
      success_criteria: {
        ...sampleSuite.success_criteria,
        max_orphan_urls: 1,
        max_stale_chunk_pages: 1,
        max_stale_pages: 1,
        max_embedding_models: 2,
        min_canary_cosine: 0,
        max_filter_violations: 1,
      },
    };

    // Act
    const report = await run({
      suite,
      minCoverage: 90,
      env: { REQUIRED_FIELDS: 'source_url,module_name,token_count,chunk_index' },
    });

    // Assess: every criterion holds; the seeded second model's chunks are retrieved, and a CRITICAL MODEL_MISMATCH
    // fails the run on its own (docs/DATA-MODEL.md, "The run's status"), whatever the criteria allow.
    expect(report.success_criteria).toHaveLength(14);
    expect(report.success_criteria.filter((c) => !c.passed)).toEqual([]);
    expect(report.errors.filter((e) => e.severity === 'CRITICAL').map((e) => e.error_type)).toEqual(['MODEL_MISMATCH']);
    expect(report.status_reason).toBe('findings that fail the run: CRITICAL MODEL_MISMATCH');
    expect(report.status).toBe('FAILED');
  });

  it('gives no IR, latency or throughput figures when Cohere is down and no query ran', async () => {
    // Prepare: the sample suite has judged queries; every embed call is refused.
    sandbox.cohere.inject({ status: 400, message: 'invalid request', endpoint: 'embed', times: 50 });

    // Act
    const report = await run();
    const summary = formatSummary(report);

    // Assess
    expect(report.validation_metrics).toMatchObject({
      judged_queries: 0,
      mrr: null,
      p95_latency_ms: null,
      throughput_qps: null,
    });
    expect(summary).toContain('no query ran: no IR, latency or throughput figures');
    expect(summary).not.toMatch(/queries\/s|judged/);
  });

  it('ends with an ERROR report when Cohere refuses every embedding, and still checks coverage', async () => {
    // Prepare
    sandbox.cohere.inject({ status: 400, message: 'invalid request', endpoint: 'embed', times: 50 });

    // Act
    const report = await run({ suite: ONE_QUERY });

    // Assess
    expect(report.status).toBe('ERROR');
    expect(report.status_reason).toMatch(
      /^the run could not complete: queries: no query could be run: Cohere embed .*400/,
    );
    expect(report.query_results[0]).toMatchObject({ status: 'ERROR', error_types: ['EMBEDDING_FAILED'] });
    expect(report.coverage_report?.coverage_percentage).toBe(92.86);
    expect(report.lifecycle.map((l) => l.state)).toEqual(['CREATED', 'EXECUTING', 'FAILED', 'ANALYZED']);
  });

  it('reports TIMEOUT when Qdrant does not answer the search in time, asked twice', async () => {
    // Prepare: a read that timed out is asked once more (retryTimeoutOnce), so it must hang both times.
    sandbox.qdrant.inject({ operationId: 'query_batch_points', hang: true, times: 2 });

    // Act
    const report = await run({ suite: ONE_QUERY });

    // Assess
    expect(report.query_results[0]).toMatchObject({ status: 'ERROR', error_types: ['TIMEOUT'] });
    expect(report.query_results[0]?.fail_reason).toMatch(
      /Qdrant query batch on collection "book" at http:\/\/127\.0\.0\.1:\d+ timed out/,
    );
  });

  it('reports RATE_LIMITED at once, with the wait asked, when Cohere asks for more than the 60 s cap', async () => {
    // Prepare
    sandbox.cohere.inject({ status: 429, retryAfterSeconds: 120, endpoint: 'embed', times: 50 });

    // Act
    const report = await run({ suite: ONE_QUERY });

    // Assess
    expect(report.query_results[0]).toMatchObject({ status: 'ERROR', error_types: ['RATE_LIMITED'] });
    expect(report.query_results[0]?.fail_reason).toContain('answered 429 (retry after 120 s)');
  });

  it('reports SITEMAP_FAILED and no coverage when the sitemap is gone', async () => {
    // Prepare
    sandbox.book.setFault('/sitemap-index.xml', 404);

    // Act
    const report = await run({ suite: ONE_QUERY });

    // Assess
    expect(report.status).toBe('ERROR');
    expect(report.coverage_report).toBeNull();
    expect(report.errors.find((e) => e.error_type === 'SITEMAP_FAILED')?.message).toBe(
      `could not read the sitemap ${sandbox.env.SITEMAP_URL}: fetching sitemap ${sandbox.env.SITEMAP_URL} failed with 404`,
    );
    expect(report.success_criteria.find((c) => c.name === 'coverage')).toMatchObject({ value: null, passed: false });
  });

  it('reports refused and truncated sitemap parts as findings, and computes coverage on the rest', async () => {
    // Prepare: an index on another server listing the book's pages, a cloud metadata URL and a nested index
    const hostile = await startRoutes();
    hostile.route('/pages.xml', xml(readFileSync(path.join(SAMPLE_BOOK_DIR, 'sitemap.xml'), 'utf8')));
    hostile.route('/nested.xml', xml(sitemapIndex([hostile.url('/pages.xml')])));
    const metadata = 'http://169.254.169.254/latest/meta-data/';
    hostile.route('/index.xml', xml(sitemapIndex([hostile.url('/pages.xml'), metadata, hostile.url('/nested.xml')])));

    // Act
    const report = await run({ suite: ONE_QUERY, env: { SITEMAP_URL: hostile.url('/index.xml') } });
    await hostile.stop();

    // Assess
    expect(report.coverage_report?.total_sitemap_urls).toBe(14);
    expect(report.errors.filter((e) => e.error_type.startsWith('SITEMAP_'))).toEqual([
      expect.objectContaining({
        error_type: 'SITEMAP_URL_REFUSED',
        severity: 'HIGH',
        message: expect.stringContaining(`lists ${metadata}, which is refused: not on an allowed origin`),
        details: expect.objectContaining({ urls: [metadata] }),
      }),
      expect.objectContaining({
        error_type: 'SITEMAP_TRUNCATED',
        severity: 'MEDIUM',
        message: expect.stringContaining(`sitemap index ${hostile.url('/nested.xml')} is nested 1 level(s) deep`),
      }),
    ]);
    expect(report.coverage_report?.notes).toEqual(
      expect.arrayContaining([expect.stringContaining(`lists ${metadata}, which is refused`)]),
    );
  });

  it('ends with an ERROR report naming Qdrant when it cannot be reached at all', async () => {
    // Prepare: a loopback port that was just freed, so nothing listens there.
    const closed = await freePort();

    // Act
    const report = await run({ suite: ONE_QUERY, env: { QDRANT_URL: `http://127.0.0.1:${closed}` } });

    // Assess
    expect(report.status).toBe('ERROR');
    expect(report.query_results[0]?.error_types).toEqual(['RETRIEVAL_FAILED']);
    expect(
      report.errors.find((e) => e.validation_id === report.run_id && e.error_type === 'RETRIEVAL_FAILED')?.message,
    ).toBe(
      `could not read the collection: Qdrant get collection on collection "book" at http://127.0.0.1:${closed} is unreachable (ECONNREFUSED)`,
    );
    expect(report.coverage_report).toBeNull();
    expect(report.quality_metrics).toBeNull();
  });

  it('searches nothing and reports DIMENSION_MISMATCH when the collection holds other vectors', async () => {
    // Prepare
    const client = new QdrantClient({ url: sandbox.qdrant.url, checkCompatibility: false });
    await client.createCollection('small', { vectors: { size: 8, distance: 'Cosine' } });
    sandbox.qdrant.resetCounts();

    // Act
    const report = await run({ suite: ONE_QUERY, env: { QDRANT_COLLECTION: 'small' } });

    // Assess
    expect(sandbox.qdrant.requestCounts().query_batch_points).toBeUndefined();
    expect(report.errors.find((e) => e.error_type === 'DIMENSION_MISMATCH')).toMatchObject({
      severity: 'CRITICAL',
      message: "embedding dimension 1024 does not match the collection's vector size 8",
    });
  });

  it('searches nothing in a Euclid collection: UNSUPPORTED_DISTANCE and an ERROR run, not a pass', async () => {
    // Prepare
    const client = new QdrantClient({ url: sandbox.qdrant.url, checkCompatibility: false });
    await client.createCollection('euclid', { vectors: { size: 1024, distance: 'Euclid' } });
    sandbox.qdrant.resetCounts();

    // Act
    const report = await run({ suite: ONE_QUERY, env: { QDRANT_COLLECTION: 'euclid' } });

    // Assess
    expect(sandbox.qdrant.requestCounts().query_batch_points).toBeUndefined();
    expect(report.status).toBe('ERROR');
    expect(report.errors.find((e) => e.error_type === 'UNSUPPORTED_DISTANCE')).toMatchObject({
      severity: 'CRITICAL',
      message: expect.stringContaining('the collection "euclid" uses Euclid distance'),
    });
  });

  it('reports scores the index cannot have (1e999, 7.5) as INDEX_ANOMALY and an ERROR run, never a pass', async () => {
    for (const score of ['1e999', '7.5']) {
      // Prepare: a proxy in front of Qdrant puts the score on the first hit of every search answer.
      const proxy = await startFaultProxy(sandbox.qdrant.url, {
        kind: 'rewrite',
        when: (request) => request.includes('/points/query/batch'),
        rewrite: (body) => body.replace(/"score":[^,}]+/, `"score":${score}`),
      });
      try {
        // Act
        const report = await run({ suite: ONE_QUERY, env: { QDRANT_URL: proxy.url } });

        // Assess
        expect(report.status).toBe('ERROR');
        expect(report.query_results.map((q) => [q.status, q.error_types])).toEqual([['ERROR', ['INDEX_ANOMALY']]]);
        const written = score === '1e999' ? 'Infinity' : score;
        expect(
          report.errors.find((e) => e.error_type === 'INDEX_ANOMALY' && e.validation_id === report.run_id),
        ).toMatchObject({ severity: 'CRITICAL', message: expect.stringContaining(`first: vslam: ${written} (point `) });
      } finally {
        await proxy.stop();
      }
    }
  });

  it('fails only the queries of the embed call that answered 512 floats, named on Cohere; the rest are judged', async () => {
    // Prepare: 100 queries go out in calls of 96 and 4; a proxy cuts the vectors of the call of 4 to 512 floats.
    const suite = parseSuite(
      JSON.stringify({
        queries: Array.from({ length: 100 }, (_, i) => ({
          id: `q${i}`,
          query_text: `What is visual SLAM in Isaac ROS? (${i})`,
          min_similarity: 0.2,
        })),
      }),
      'hundred.json',
    );
    const proxy = await startFaultProxy(sandbox.cohere.url, {
      kind: 'rewrite',
      when: (request) => request.includes('/v2/embed'),
      rewrite: (body) => {
        const answer = JSON.parse(body) as { embeddings: { float: number[][] } };
        if (answer.embeddings.float.length !== 4) return body;
        answer.embeddings.float = answer.embeddings.float.map((v) => v.slice(0, 512));
        return JSON.stringify(answer);
      },
    });
    try {
      // Act
      const report = await run({ suite, env: { COHERE_BASE_URL: proxy.url } });

      // Assess
      const errored = report.query_results.filter((q) => q.status === 'ERROR');
      expect(errored.map((q) => q.id)).toEqual(['q96', 'q97', 'q98', 'q99']);
      expect(errored.every((q) => q.error_types.join() === 'EMBEDDING_FAILED')).toBe(true);
      expect(errored[0]?.fail_reason).toBe(
        'Cohere embed call 2 of 2 (embed-english-v3.0, queries q96..q99) returned 4 of 4 vectors of size 512; ' +
          'the collection "book" holds vectors of size 1024: not searched',
      );
      expect(report.errors.filter((e) => e.error_type === 'RETRIEVAL_FAILED')).toEqual([]);
      expect(report.errors.filter((e) => e.error_type === 'DIMENSION_MISMATCH')).toEqual([]);
      expect(report.passed_queries + report.failed_queries).toBe(96);
    } finally {
      await proxy.stop();
    }
  });

  it('flags an answer without citations as ungrounded and a question with nothing relevant as such', async () => {
    // Prepare
    sandbox.cohere.setChatBehaviour('no_citations');
    const suite = parseSuite(
      JSON.stringify({
        defaults: { min_similarity: 0.2 },
        queries: [
          { id: 'vslam', query_text: 'What is visual SLAM in Isaac ROS?', agent: true },
          { id: 'bread', query_text: 'How long should sourdough bread proof?', agent: true },
        ],
      }),
      'agent.json',
    );

    // Act
    const report = await run({ suite });

    // Assess
    expect(report.grounding_report).toMatchObject({
      grounded: 0,
      ungrounded: 1,
      unnecessary_abstentions: 1,
      grounded_rate: 0,
    });
    const agentErrors = report.errors.filter((e) =>
      ['GROUNDING_FAILED', 'NO_RELEVANT_DOCUMENTS'].includes(e.error_type),
    );
    expect(agentErrors.map((e) => [e.validation_id, e.error_type])).toEqual([
      ['vslam', 'GROUNDING_FAILED'],
      ['bread', 'NO_RELEVANT_DOCUMENTS'],
    ]);
    expect(report.success_criteria.find((c) => c.name === 'grounded_rate')).toMatchObject({ value: 0, passed: false });
  });

  it('catches an invented number under a real citation as UNSUPPORTED_CLAIM and breaches the support criterion', async () => {
    // Prepare: only the Nav2 question is answered with an invented figure
    const question = 'How does Nav2 plan paths for a bipedal humanoid?';
    sandbox.cohere.setChatBehaviour('invent_number', { question });
    const suite = parseSuite(
      JSON.stringify({
        defaults: { min_similarity: 0.2 },
        queries: [
          { id: 'nav2', query_text: question, agent: true },
          { id: 'vslam', query_text: 'What is visual SLAM in Isaac ROS?', agent: true },
        ],
      }),
      'agent.json',
    );

    // Act
    const report = await run({ suite });

    // Assess
    const unsupported = report.errors.filter((e) => e.error_type === 'UNSUPPORTED_CLAIM');
    expect(unsupported.map((e) => [e.validation_id, e.details.missing_numbers])).toEqual([['nav2', ['64']]]);
    expect(report.grounding_report).toMatchObject({ grounded: 1, ungrounded: 1 });
    expect(report.success_criteria.find((c) => c.name === 'support_rate')).toMatchObject({ passed: false });
  });

  it('fails an out-of-domain probe that matches the book with UNEXPECTED_MATCH, and passes one that does not', async () => {
    // Prepare: one probe the book answers (so it must fail), one it cannot.
    const suite = parseSuite(
      JSON.stringify({
        defaults: { min_similarity: 0.2 },
        queries: [
          { id: 'in-domain', query_text: 'What is a ROS 2 node?', expect_match: false },
          { id: 'sourdough', query_text: 'How long should sourdough bread proof?', expect_match: false },
        ],
      }),
      'probes.json',
    );

    // Act
    const report = await run({ suite });

    // Assess
    expect(report.query_results.map((q) => [q.id, q.status, q.error_types])).toEqual([
      ['in-domain', 'FAIL', ['UNEXPECTED_MATCH']],
      ['sourdough', 'PASS', []],
    ]);
  });

  it('reports a page cut to its first chunks as MISSING_CHUNKS, and nothing else new', async () => {
    // Prepare: the URDF page's chunks after its first two deleted through the real client (restored afterwards).
    const qdrant = new QdrantClient({ url: sandbox.qdrant.url, checkCompatibility: false });
    const page = 'https://book.example.com/docs/module-1-ros2/ch3-urdf-for-humanoids';
    const { points } = await qdrant.scroll(sandbox.env.QDRANT_COLLECTION ?? '', {
      limit: 100,
      with_payload: true,
      with_vector: true,
      filter: { must: [{ key: 'source_url', match: { value: page } }] },
    });
    const cut = points.filter((p) => Number(p.payload?.chunk_index) >= 2);
    expect(cut.length).toBeGreaterThan(0);
    const before = await run();
    await qdrant.delete(sandbox.env.QDRANT_COLLECTION ?? '', { wait: true, points: cut.map((p) => p.id) });
    try {
      // Act
      const report = await run();

      // Assess
      expect(report.errors.filter((e) => e.error_type === 'MISSING_CHUNKS').map((e) => e.details)).toEqual([
        { urls_checked: 13, pages_missing_chunks: 1, missing_chunks: cut.length, urls: [page], source: 'facet' },
      ]);
      expect(report.success_criteria.find((c) => c.name === 'missing_chunk_pages')).toMatchObject({
        value: 1,
        passed: false,
        severity: 'HIGH',
      });
      // Coverage still counts the page: only the index's own count sees the loss.
      expect(report.coverage_report?.coverage_percentage).toBe(before.coverage_report?.coverage_percentage);
    } finally {
      await qdrant.upsert(sandbox.env.QDRANT_COLLECTION ?? '', {
        wait: true,
        points: cut.map((p) => ({ id: p.id, vector: p.vector as number[], payload: p.payload ?? {} })),
      });
    }
  });

  it('has produced every error type the engine owns across these runs', () => {
    // RUN_FAILED belongs to the composition roots (a run that could not start); test/nightly covers it.
    expect([...seen].sort()).toEqual(ERROR_TYPES.filter((t) => t !== 'RUN_FAILED').sort());
  });
});
