import { describe, expect, it } from 'vitest';
import { queriesCheck } from '../../../functions/core/queries/queries-check.ts';
import { MemoryIndex } from '../../fakes/memory-index.ts';
import { buildRunContext, runCheck } from '../../fakes/run-context.ts';

const points = [
  { id: 'p1', vector: [1, 0, 0], payload: { chunk_text: 'nodes', source_url: 'https://b/docs/a', module_name: 'M1' } },
];
/** Three queries: two find the module they expect, one expects another module. */
const suite = {
  queries: [
    { id: 'q1', query_text: 'a', expected_module: 'M1', relevant: [{ url: 'https://b/docs/a', grade: 1 }] },
    { id: 'q2', query_text: 'b', expected_module: 'M1', relevant: [{ url: 'https://b/docs/z', grade: 1 }] },
    { id: 'q3', query_text: 'c', expected_module: 'M2' },
  ],
};

describe('queriesCheck', () => {
  it('judges the pass rate to two decimals, MRR and p95 latency, and gives the request counts', async () => {
    const { ctx } = buildRunContext({
      points,
      // p95 over each query's share of the batched calls on the fake clock (5 ms a read): 10 ms, at its threshold.
      suite: { ...suite, success_criteria: { min_mrr: 0.5, max_p95_latency_ms: 10 } },
    });
    const result = await runCheck(queriesCheck, ctx);
    expect(result.sections?.query_results?.map((r) => r.status)).toEqual(['PASS', 'PASS', 'FAIL']);
    expect(result.criteria).toEqual({ passRate: 66.67, mrr: 0.5, p95LatencyMs: 10 });
    expect(result.sections?.validation_metrics).toMatchObject({
      validation_run_id: 'run-1',
      timestamp: '2026-03-14T02:00:00.000Z',
      // 3 queries over the stage's 75 ms on the fake clock (5 ms a read, one before and one after each batched call;
      // the sitemap step, read for stale queries, ticks it too).
      throughput_qps: 40,
    });
    expect(result.execution).toEqual({ embed_calls: 1, search_calls: 1 });
    expect(result.failures).toEqual([]);
    expect(result.errors.map((e) => e.error_type)).toEqual(['METADATA_MISMATCH']);
  });

  it('reports an embedding size the collection does not have as one CRITICAL finding and a failure of the run', async () => {
    const index = new MemoryIndex(points, { vectorSize: 1024 });
    const { ctx } = buildRunContext({ index, suite });
    const result = await runCheck(queriesCheck, ctx);
    expect(result.errors).toContainEqual({
      id: expect.any(String),
      validation_id: 'run-1',
      error_type: 'DIMENSION_MISMATCH',
      severity: 'CRITICAL',
      message: "embedding dimension 3 does not match the collection's vector size 1024",
      details: { embedding: 3, collection: 1024, embedding_model: 'fake-embed' },
    });
    expect(result.failures).toEqual([
      "queries: embedding dimension 3 (fake-embed) does not match the collection's vector size 1024",
    ]);
  });

  it('leaves the pass rate unknown, not 0 %, when every search failed (nothing was evaluated)', async () => {
    const index = new MemoryIndex(points);
    index.failWith.searchBatch = new Error('Qdrant query batch failed with 503');
    const { ctx } = buildRunContext({ index, suite });
    const result = await runCheck(queriesCheck, ctx);
    expect(result.sections?.query_results?.map((r) => r.status)).toEqual(['ERROR', 'ERROR', 'ERROR']);
    expect(result.failures).toEqual(['queries: no query could be run: Qdrant query batch failed with 503']);
    expect(result.criteria).toEqual({ passRate: null });
  });

  it('measures a pass rate of 0 % when queries were searched and all failed (the index answered)', async () => {
    const { ctx } = buildRunContext({
      points,
      suite: { queries: [{ id: 'q3', query_text: 'c', expected_module: 'M2' }] },
    });
    const result = await runCheck(queriesCheck, ctx);
    expect(result.failures).toEqual([]);
    expect(result.criteria).toEqual({ passRate: 0 });
  });

  it('is skipped when the query step failed outright: a failure of the run, and the pass rate unknown', async () => {
    const { ctx } = buildRunContext({ points, suite });
    ctx.step('queries', () => Promise.reject(new Error('the stage broke')));
    const result = await runCheck(queriesCheck, ctx);
    expect(result.failures).toEqual(['queries: the stage broke']);
    expect(result.errors).toEqual([]);
    expect(result.status).toBeNull();
    expect(result.sections).toEqual({});
    expect(result.criteria).toEqual({ passRate: null });
    expect(result.execution).toBeUndefined();
  });

  it('reports a category under the pass rate the suite expects of it', async () => {
    const { ctx } = buildRunContext({
      points,
      suite: { ...suite, categories: { semantic: { expected_results: { min_pass_rate: 70 } } } },
    });
    const result = await runCheck(queriesCheck, ctx);
    expect(result.errors).toContainEqual(
      expect.objectContaining({ error_type: 'CATEGORY_EXPECTATION_MISSED', validation_id: 'run-1' }),
    );
  });
});

describe('queriesCheck: stale queries (their expected page left the sitemap)', () => {
  /** q3 fails (it expects module M2) and expects a page the sitemap no longer lists, unless `listed`. */
  function staleRun(criteria: object = {}, listed: string[] = ['https://b/docs/a']) {
    const stale = {
      queries: [
        ...suite.queries.slice(0, 2),
        { id: 'q3', query_text: 'c', expected_module: 'M2', expected_sources: ['/docs/gone'] },
      ],
      success_criteria: criteria,
    };
    return buildRunContext({ points, suite: stale, sitemap: { entries: listed.map((url) => ({ url })), issues: [] } });
  }
  const passRate = async (ctx: ReturnType<typeof staleRun>['ctx']) =>
    (await runCheck(queriesCheck, ctx)).verdicts.find((c) => c.name === 'pass_rate');

  it('judges the pass rate over the other queries, once, saying how many were set aside', async () => {
    expect(await passRate(staleRun().ctx)).toEqual({
      name: 'pass_rate',
      description: 'Share of golden queries that pass (%); 1 stale query set aside (regression.stale_queries)',
      value: 100,
      threshold: 90,
      comparator: '>=',
      passed: true,
      severity: 'HIGH',
    });
  });

  it('counts a failing query whose expected pages are all in the sitemap', async () => {
    const listed = staleRun({}, ['https://b/docs/a', 'https://b/docs/gone']);
    expect(await passRate(listed.ctx)).toMatchObject({
      description: 'Share of golden queries that pass (%)',
      value: 66.67,
      passed: false,
    });
  });

  it('passes a pass rate exactly at its threshold once the stale query is set aside, and not just under it', async () => {
    expect(await passRate(staleRun({ min_pass_rate: 100 }).ctx)).toMatchObject({ value: 100, passed: true });
    const counted = staleRun({ min_pass_rate: 66.68 }, ['https://b/docs/a', 'https://b/docs/gone']);
    expect(await passRate(counted.ctx)).toMatchObject({ value: 66.67, passed: false });
  });

  it('names the stale queries set aside in the plural, and gives no pass rate when every counted query was stale', async () => {
    const allStale = {
      queries: [
        { id: 'q1', query_text: 'a', expected_module: 'M2', expected_sources: ['/docs/gone'] },
        { id: 'q2', query_text: 'b', expected_module: 'M2', expected_sources: ['/docs/gone-too'] },
      ],
      success_criteria: { min_pass_rate: 0 },
    };
    const { ctx } = buildRunContext({
      points,
      suite: allStale,
      sitemap: { entries: [{ url: 'https://b/docs/a' }], issues: [] },
    });
    expect(await passRate(ctx)).toMatchObject({
      description: 'Share of golden queries that pass (%); 2 stale queries set aside (regression.stale_queries)',
      value: null,
      passed: false,
    });
  });

  it('sets nothing aside when the sitemap could not be read', async () => {
    const { ctx } = buildRunContext({ points, suite, sitemap: new Error('sitemap gone') });
    expect(await passRate(ctx)).toMatchObject({ description: 'Share of golden queries that pass (%)', value: 66.67 });
  });

  describe('the severity of a breach', () => {
    const breach = async (queries: { id: string; query_text: string; expected_module: string }[], criteria: object) => {
      const { ctx } = buildRunContext({ points, suite: { queries, success_criteria: criteria } });
      return (await runCheck(queriesCheck, ctx)).verdicts;
    };
    const pass = { id: 'p', query_text: 'a', expected_module: 'M1' };
    const fail = { id: 'f', query_text: 'c', expected_module: 'M2' };

    it('is HIGH for a pass rate at half its threshold or above, CRITICAL under half or not measured', async () => {
      const half = await breach([pass, { ...fail, id: 'f1' }], { min_pass_rate: 100 });
      const under = await breach([pass, { ...fail, id: 'f1' }, { ...fail, id: 'f2' }], { min_pass_rate: 90 });
      expect(half.find((c) => c.name === 'pass_rate')).toMatchObject({ value: 50, passed: false, severity: 'HIGH' });
      expect(under.find((c) => c.name === 'pass_rate')).toMatchObject({ passed: false, severity: 'CRITICAL' });
      const index = new MemoryIndex(points);
      index.failWith.searchBatch = new Error('Qdrant query batch failed with 503');
      const { ctx } = buildRunContext({ index, suite });
      const none = (await runCheck(queriesCheck, ctx)).verdicts.find((c) => c.name === 'pass_rate');
      expect(none).toMatchObject({ value: null, severity: 'CRITICAL' });
    });

    it('is MEDIUM for MRR and p95 latency', async () => {
      const verdicts = await breach([pass, fail], { min_mrr: 0.9, max_p95_latency_ms: 1 });
      expect(verdicts.filter((c) => c.name !== 'pass_rate').map((c) => [c.name, c.passed, c.severity])).toEqual([
        ['mrr', false, 'MEDIUM'],
        ['p95_latency_ms', false, 'MEDIUM'],
      ]);
    });
  });
});
