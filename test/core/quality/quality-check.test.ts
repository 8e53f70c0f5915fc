import { describe, expect, it } from 'vitest';
import { collectionCheck } from '../../../functions/core/quality/collection-check.ts';
import { qualityCheck } from '../../../functions/core/quality/quality-check.ts';
import { EmbeddingError, IndexError } from '../../../functions/core/shared/errors.ts';
import { FakeEmbedder } from '../../fakes/fake-embedder.ts';
import { buildRunContext } from '../../fakes/run-context.ts';

const points = [
  { id: 'p1', vector: [1, 0, 0], payload: { chunk_text: 'nodes', source_url: 'https://b/docs/a' } },
  { id: 'p2', vector: [0.6, 0.8, 0], payload: { chunk_text: 'topics' } },
];

describe('qualityCheck', () => {
  it('gives metadata completeness as the criterion’s figure, with the incomplete chunks as a finding', async () => {
    const { ctx } = buildRunContext({ points });
    const result = await qualityCheck.run(ctx);
    expect(result.criteria).toEqual({ completeness: 50 });
    expect(result.sections?.quality_metrics).toMatchObject({
      total_chunks: 2,
      chunks_with_complete_metadata: 1,
      required_fields: ['chunk_text', 'source_url'],
      timestamp: '2026-03-14T02:00:00.000Z',
    });
    expect(result.errors).toEqual([
      expect.objectContaining({
        error_type: 'INCOMPLETE_METADATA',
        validation_id: 'run-1',
        message: '1 of 2 chunks lack required metadata (source_url: 1 missing)',
      }),
    ]);
  });

  it('summarises the best similarities of the queries the run searched', async () => {
    const { ctx } = buildRunContext({ points });
    const quality = (await qualityCheck.run(ctx)).sections?.quality_metrics;
    expect(quality?.avg_similarity_score).toBe(1);
    expect(quality?.similarity_distribution).toMatchObject({ count: 1 });
  });

  it('still judges completeness when no query could be searched', async () => {
    const embedder = new FakeEmbedder();
    embedder.failOnCall.set(0, new EmbeddingError('Cohere is down', 'unavailable'));
    const { ctx } = buildRunContext({ points, embedder });
    const result = await qualityCheck.run(ctx);
    expect(result.criteria).toEqual({ completeness: 50 });
    expect(result.sections?.quality_metrics?.avg_similarity_score).toBeNull();
  });

  it('leaves an unreadable collection to the collection check: no section, no finding, completeness unknown', async () => {
    const run = buildRunContext({ points });
    run.index.failWith.describe = new IndexError('connection refused', 'unavailable');
    expect(await qualityCheck.run(run.ctx)).toEqual({
      sections: { quality_metrics: null },
      errors: [],
      criteria: { completeness: null },
    });
  });

  it('has no similarity figures when the query step failed outright', async () => {
    const { ctx } = buildRunContext({ points });
    ctx.step('queries', () => Promise.reject(new Error('the stage broke')));
    const quality = (await qualityCheck.run(ctx)).sections?.quality_metrics;
    expect(quality?.avg_similarity_score).toBeNull();
    expect(quality?.similarity_distribution).toMatchObject({ count: 0 });
  });
});

describe('collectionCheck', () => {
  it('says nothing about a collection it can read', async () => {
    const { ctx } = buildRunContext({ points });
    expect(await collectionCheck.run(ctx)).toEqual({ errors: [] });
  });

  it('makes an unreadable collection one CRITICAL finding and a failure of the run, with the reason', async () => {
    const run = buildRunContext({ points });
    run.index.failWith.describe = new IndexError('connection refused', 'unavailable');
    expect(await collectionCheck.run(run.ctx)).toEqual({
      errors: [
        {
          id: 'id-1',
          validation_id: 'run-1',
          error_type: 'RETRIEVAL_FAILED',
          severity: 'CRITICAL',
          message: 'could not read the collection: connection refused',
          details: {},
        },
      ],
      failures: ['index profile: connection refused'],
    });
  });

  it('reports a collection that timed out as TIMEOUT, and one that rate-limited as RATE_LIMITED', async () => {
    const failing = async (error: Error) => {
      const run = buildRunContext({ points });
      run.index.failWith.describe = error;
      return (await collectionCheck.run(run.ctx)).errors.map((e) => e.error_type);
    };
    expect(await failing(new IndexError('timed out', 'timeout'))).toEqual(['TIMEOUT']);
    expect(await failing(new IndexError('429', 'rate_limited'))).toEqual(['RATE_LIMITED']);
    expect(await failing(new Error('bug'))).toEqual(['RETRIEVAL_FAILED']);
  });
});
