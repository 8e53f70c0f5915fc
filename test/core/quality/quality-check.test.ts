import { describe, expect, it } from 'vitest';
import { qualityCheck } from '../../../functions/core/quality/quality-check.ts';
import { EmbeddingError, IndexError } from '../../../functions/core/shared/errors.ts';
import { FakeEmbedder } from '../../fakes/fake-embedder.ts';
import { buildRunContext, runCheck } from '../../fakes/run-context.ts';

const points = [
  { id: 'p1', vector: [1, 0, 0], payload: { chunk_text: 'nodes', source_url: 'https://b/docs/a' } },
  { id: 'p2', vector: [0.6, 0.8, 0], payload: { chunk_text: 'topics' } },
];

describe('qualityCheck', () => {
  it('gives metadata completeness as the criterion’s figure, with the incomplete chunks as a finding', async () => {
    const { ctx } = buildRunContext({ points });
    const result = await runCheck(qualityCheck, ctx);
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
    const quality = (await runCheck(qualityCheck, ctx)).sections?.quality_metrics;
    expect(quality?.avg_similarity_score).toBe(1);
    expect(quality?.similarity_distribution).toMatchObject({ count: 1 });
  });

  it('still judges completeness when no query could be searched', async () => {
    const embedder = new FakeEmbedder();
    embedder.failOnCall.set(0, new EmbeddingError('Cohere is down', 'unavailable'));
    const { ctx } = buildRunContext({ points, embedder });
    const result = await runCheck(qualityCheck, ctx);
    expect(result.criteria).toEqual({ completeness: 50 });
    expect(result.sections?.quality_metrics?.avg_similarity_score).toBeNull();
  });

  it('has no similarity figures when the query step failed outright', async () => {
    const { ctx } = buildRunContext({ points });
    ctx.step('queries', () => Promise.reject(new Error('the stage broke')));
    const quality = (await runCheck(qualityCheck, ctx)).sections?.quality_metrics;
    expect(quality?.avg_similarity_score).toBeNull();
    expect(quality?.similarity_distribution).toMatchObject({ count: 0 });
  });
});

describe('an unreadable collection (the profile input)', () => {
  it('says nothing about a collection it can read', async () => {
    const { ctx } = buildRunContext({ points });
    const result = await runCheck(qualityCheck, ctx);
    expect(result.failures).toEqual([]);
    expect(result.errors.map((e) => e.error_type)).toEqual(['INCOMPLETE_METADATA']);
  });

  it('is one CRITICAL finding and a failure of the run, with the reason; the check is skipped, completeness unknown', async () => {
    const run = buildRunContext({ points });
    run.index.failWith.describe = new IndexError('connection refused', 'unavailable');
    const result = await runCheck(qualityCheck, run.ctx);
    expect(result).toMatchObject({ status: null, sections: {}, criteria: { completeness: null } });
    // The query step, which the quality check reads when it can, fails on the same collection: its own line.
    expect(result.errors.filter((e) => e.validation_id === 'run-1')).toEqual([
      {
        id: expect.any(String),
        validation_id: 'run-1',
        error_type: 'RETRIEVAL_FAILED',
        severity: 'CRITICAL',
        message: 'could not read the collection: connection refused',
        details: {},
      },
    ]);
    expect(result.failures).toEqual([
      'index profile: connection refused',
      'queries: no query could be run: connection refused',
    ]);
    expect(result.verdicts).toEqual([
      {
        name: 'completeness',
        description: 'Points whose payload has every required metadata field (%)',
        value: null,
        threshold: 100,
        comparator: '>=',
        passed: false,
        severity: 'HIGH',
      },
    ]);
  });

  it('reports a collection that timed out as TIMEOUT, and one that rate-limited as RATE_LIMITED', async () => {
    const failing = async (error: Error) => {
      const run = buildRunContext({ points });
      run.index.failWith.describe = error;
      const result = await runCheck(qualityCheck, run.ctx);
      return result.errors.filter((e) => e.validation_id === 'run-1').map((e) => e.error_type);
    };
    expect(await failing(new IndexError('timed out', 'timeout'))).toEqual(['TIMEOUT']);
    expect(await failing(new IndexError('429', 'rate_limited'))).toEqual(['RATE_LIMITED']);
    expect(await failing(new Error('bug'))).toEqual(['RETRIEVAL_FAILED']);
  });
});
