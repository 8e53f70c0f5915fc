import { describe, expect, it } from 'vitest';
import { queriesCheck } from '../../../functions/core/queries/queries-check.ts';
import { MemoryIndex } from '../../fakes/memory-index.ts';
import { buildRunContext } from '../../fakes/run-context.ts';

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
  it('gives the pass rate to two decimals, MRR and p95 latency for the criteria, and the request counts', async () => {
    const { ctx } = buildRunContext({ points, suite });
    const result = await queriesCheck.run(ctx);
    expect(result.sections?.query_results?.map((r) => r.status)).toEqual(['PASS', 'PASS', 'FAIL']);
    expect(result.criteria).toEqual({ passRate: 66.67, mrr: 0.5, p95LatencyMs: 39 });
    expect(result.sections?.validation_metrics).toMatchObject({
      validation_run_id: 'run-1',
      timestamp: '2026-03-14T02:00:00.000Z',
      throughput_qps: 35.29,
    });
    expect(result.execution).toEqual({ embed_calls: 1, search_calls: 1 });
    expect(result.failures).toEqual([]);
    expect(result.errors.map((e) => e.error_type)).toEqual(['METADATA_MISMATCH']);
  });

  it('reports an embedding size the collection does not have as one CRITICAL finding and a failure of the run', async () => {
    const index = new MemoryIndex(points, { vectorSize: 1024 });
    const { ctx } = buildRunContext({ index, suite });
    const result = await queriesCheck.run(ctx);
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

  it('makes a query step that failed outright a failure of the run, with empty results', async () => {
    const { ctx } = buildRunContext({ points, suite });
    ctx.step('queries', () => Promise.reject(new Error('the stage broke')));
    const result = await queriesCheck.run(ctx);
    expect(result.failures).toEqual(['queries: the stage broke']);
    expect(result.errors).toEqual([]);
    expect(result.sections?.query_results).toEqual([]);
    expect(result.criteria?.passRate).toBeNull();
    expect(result.execution).toEqual({ embed_calls: 0, search_calls: 0 });
  });

  it('reports a category under the pass rate the suite expects of it', async () => {
    const { ctx } = buildRunContext({
      points,
      suite: { ...suite, categories: { semantic: { expected_results: { min_pass_rate: 70 } } } },
    });
    const result = await queriesCheck.run(ctx);
    expect(result.errors).toContainEqual(
      expect.objectContaining({ error_type: 'CATEGORY_EXPECTATION_MISSED', validation_id: 'run-1' }),
    );
  });
});
