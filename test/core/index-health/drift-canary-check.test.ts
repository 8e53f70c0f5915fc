import { describe, expect, it } from 'vitest';
import { driftCanaryCheck } from '../../../functions/core/index-health/drift-canary-check.ts';
import { FakeEmbedder } from '../../fakes/fake-embedder.ts';
import { runCheck } from '../../fakes/run-context.ts';
import { healthContext, point } from './context.ts';

const A = 'https://book.example.com/docs/a';
/** Three stored chunks whose vectors are their texts' embeddings under the healthy model. */
const VECTORS: Record<string, number[]> = { one: [1, 0, 0], two: [0, 1, 0], three: [0, 0, 1] };
const chunks = () =>
  Object.entries(VECTORS).map(([text, vector], i) => point(`p${i}`, { chunk_text: text, chunk_index: i }, vector));

describe('the drift canary', () => {
  it('finds every sampled chunk at cosine 1 with its stored vector while the model is unchanged', async () => {
    const { ctx, index, embedder, stages } = healthContext({
      points: chunks(),
      embedder: new FakeEmbedder({ vectors: VECTORS }),
    });
    const result = await runCheck(driftCanaryCheck, ctx);
    expect(result.sections?.index_health?.drift_canary).toEqual({
      sampled: 3,
      min_cosine: 1,
      threshold: 0.98,
      drifted: [],
    });
    expect(result.errors).toEqual([]);
    expect(result.verdicts).toEqual([
      {
        name: 'canary_cosine',
        description: 'Lowest cosine between a stored vector and its chunk re-embedded',
        value: 1,
        threshold: 0.98,
        comparator: '>=',
        passed: true,
        severity: 'CRITICAL',
      },
    ]);
    // One sample request and one embed call, of the chunk texts, each timed as a step of the run; no inventory.
    expect(index.calls).toEqual(['firstPoints']);
    expect(stages()).toEqual(['canary_embed', 'canary_sample']);
    expect(embedder.calls.map((texts) => [...texts].sort())).toEqual([['one', 'three', 'two']]);
  });

  it('reports chunks re-embedded away from their stored vectors as EMBEDDING_DRIFT, critical', async () => {
    const embedder = new FakeEmbedder({ vectors: VECTORS, documentVectors: { two: [0, 0.6, 0.8] } });
    const { ctx } = healthContext({ points: chunks(), embedder });
    const result = await runCheck(driftCanaryCheck, ctx);
    const block = {
      sampled: 3,
      min_cosine: 0.6,
      threshold: 0.98,
      drifted: [{ point_id: 'p1', source_url: A, cosine: 0.6 }],
    };
    expect(result.sections?.index_health?.drift_canary).toEqual(block);
    expect(result.errors).toEqual([
      {
        id: 'id-1',
        validation_id: 'run-1',
        error_type: 'EMBEDDING_DRIFT',
        severity: 'CRITICAL',
        message:
          "1 of 3 stored chunks re-embedded with fake-embed have cosine 0.6 < 0.98 with their stored vectors: query vectors no longer live in the index's space",
        details: { ...block, embedding_model: 'fake-embed' },
      },
    ]);
    expect(result.verdicts?.[0]).toMatchObject({ value: 0.6, passed: false, severity: 'CRITICAL' });
  });

  it('judges the lowest cosine against min_canary_cosine on both sides of equality', async () => {
    const embedder = () => new FakeEmbedder({ vectors: VECTORS, documentVectors: { two: [0, 0.6, 0.8] } });
    const at = await runCheck(
      driftCanaryCheck,
      healthContext({ points: chunks(), embedder: embedder(), criteria: { min_canary_cosine: 0.6 } }).ctx,
    );
    expect([at.errors, at.verdicts?.[0]?.passed]).toEqual([[], true]);
    const above = await runCheck(
      driftCanaryCheck,
      healthContext({ points: chunks(), embedder: embedder(), criteria: { min_canary_cosine: 0.6001 } }).ctx,
    );
    expect([above.errors.length, above.verdicts?.[0]?.passed]).toEqual([1, false]);
  });

  it('rounds cosines to 4 decimals and gives 0 for a vector of another length or a zero vector', async () => {
    const embedder = new FakeEmbedder({
      vectors: VECTORS,
      documentVectors: { one: [1, 1, 1], two: [0, 1], three: [0, 0, 0] },
    });
    const { ctx } = healthContext({ points: chunks(), embedder, criteria: { min_canary_cosine: -1 } });
    const drift = (await runCheck(driftCanaryCheck, ctx)).sections?.index_health?.drift_canary;
    expect(drift).toMatchObject({ sampled: 3, min_cosine: 0, drifted: [] });
    const { ctx: again } = healthContext({ points: chunks(), embedder, criteria: { min_canary_cosine: 1 } });
    const all = (await runCheck(driftCanaryCheck, again)).sections?.index_health?.drift_canary?.drifted;
    expect(Object.fromEntries((all ?? []).map((d) => [d.point_id, d.cosine]))).toEqual({ p0: 0.5774, p1: 0, p2: 0 });
  });

  it('gives cosine 0 when a stored vector is all zeros', async () => {
    const { ctx } = healthContext({
      points: [point('z', { chunk_text: 'one' }, [0, 0, 0])],
      embedder: new FakeEmbedder({ vectors: VECTORS }),
    });
    expect((await runCheck(driftCanaryCheck, ctx)).sections?.index_health?.drift_canary?.min_cosine).toBe(0);
  });

  it('samples at most canarySample points (8 by default): the collection’s first, in its own order', async () => {
    const points = Array.from({ length: 12 }, (_, i) =>
      point(`id-${i}`, { chunk_text: 'one', chunk_index: i }, [1, 0, 0]),
    );
    // Every chunk drifts, so the drifted list names the sample.
    const sampled = async (list: typeof points, sample?: number) => {
      const { ctx, index } = healthContext({
        points: list,
        embedder: new FakeEmbedder({ vectors: VECTORS, documentVectors: { one: [0, 1, 0] } }),
        ...(sample === undefined ? {} : { options: { indexHealth: { canarySample: sample } } }),
      });
      const drifted = (await runCheck(driftCanaryCheck, ctx)).sections?.index_health?.drift_canary?.drifted ?? [];
      return { ids: drifted.map((d) => d.point_id), calls: index.calls };
    };
    const ids = points.map((p) => p.id);
    expect(await sampled(points)).toEqual({ ids: ids.slice(0, 8), calls: ['firstPoints'] });
    expect((await sampled([...points].reverse())).ids).toEqual([...ids].reverse().slice(0, 8));
    expect((await sampled(points, 3)).ids).toEqual(ids.slice(0, 3));
    expect(await sampled(points, 0)).toEqual({ ids: [], calls: [] });
  });

  it('re-embeds at most one embed call of chunks, and skips points without chunk text or vector', async () => {
    const points = [
      ...chunks(),
      point('no-text', { chunk_index: 7 }, [1, 0, 0]),
      point('no-vector', { chunk_text: 'one', chunk_index: 8 }),
    ];
    const embedder = new FakeEmbedder({ vectors: VECTORS, maxBatchSize: 4 });
    const { ctx, index } = healthContext({ points, embedder });
    const result = await runCheck(driftCanaryCheck, ctx);
    const sampled = index.calls.filter((c) => c === 'firstPoints');
    expect(sampled).toHaveLength(1);
    expect(embedder.calls).toHaveLength(1);
    expect(embedder.calls[0]?.length).toBeLessThanOrEqual(4);
    expect(result.sections?.index_health?.drift_canary?.sampled).toBe(embedder.calls[0]?.length);
  });

  it('samples no more points than one embed call takes', async () => {
    const points = Array.from({ length: 6 }, (_, i) =>
      point(`p${i}`, { chunk_text: 'one', chunk_index: i }, [1, 0, 0]),
    );
    const embedder = new FakeEmbedder({ vectors: VECTORS, maxBatchSize: 4 });
    const result = await runCheck(driftCanaryCheck, healthContext({ points, embedder }).ctx);
    expect(result.sections?.index_health?.drift_canary?.sampled).toBe(4);
    expect(embedder.calls.map((texts) => texts.length)).toEqual([4]);
  });

  it('skips a sampled point stored without a vector', async () => {
    const { ctx, embedder } = healthContext({ points: [point('p', { chunk_text: 'one' })] });
    const result = await runCheck(driftCanaryCheck, ctx);
    expect(result.sections?.index_health?.drift_canary).toMatchObject({ sampled: 0, min_cosine: null });
    expect(embedder.calls).toEqual([]);
  });

  it('names no source when a sampled point has none', async () => {
    const embedder = new FakeEmbedder({ vectors: VECTORS, documentVectors: { one: [0, 1, 0] } });
    const { ctx } = healthContext({ points: [point('p0', { chunk_text: 'one', source_url: 5 }, [1, 0, 0])], embedder });
    const drifted = (await runCheck(driftCanaryCheck, ctx)).sections?.index_health?.drift_canary?.drifted;
    expect(drifted).toEqual([{ point_id: 'p0', source_url: null, cosine: 0 }]);
  });

  it('has nothing to judge in an empty collection: one sample request, and nothing embedded', async () => {
    const { ctx, index, embedder } = healthContext({ points: [] });
    const result = await runCheck(driftCanaryCheck, ctx);
    expect(result.sections?.index_health?.drift_canary).toEqual({
      sampled: 0,
      min_cosine: null,
      threshold: 0.98,
      drifted: [],
    });
    expect([result.errors, result.verdicts, embedder.calls]).toEqual([[], [], []]);
    expect(index.calls).toEqual(['firstPoints']);
  });

  it('has nothing to judge when no sampled point carries chunk text, and embeds nothing', async () => {
    const { ctx, embedder } = healthContext({ points: [point('p', {}, [1, 0, 0])] });
    const result = await runCheck(driftCanaryCheck, ctx);
    expect(result.sections?.index_health?.drift_canary).toMatchObject({ sampled: 0, min_cosine: null });
    expect([result.verdicts, embedder.calls]).toEqual([[], []]);
  });

  it('says the canary failed when the sample or the embed call fails', async () => {
    const sample = healthContext({ points: chunks(), embedder: new FakeEmbedder({ vectors: VECTORS }) });
    sample.index.failWith.firstPoints = new Error('scroll refused');
    expect(await runCheck(driftCanaryCheck, sample.ctx)).toMatchObject({
      status: null,
      errors: [],
      failures: ['drift canary: scroll refused'],
    });
    const embedder = new FakeEmbedder({ vectors: VECTORS });
    embedder.failOnCall.set(0, new Error('embed refused'));
    const embed = healthContext({ points: chunks(), embedder });
    expect(await runCheck(driftCanaryCheck, embed.ctx)).toMatchObject({
      status: null,
      errors: [],
      failures: ['drift canary: embed refused'],
    });
  });

  it('does not depend on the inventory: a failing inventory scroll leaves the canary judging', async () => {
    const { ctx, index } = healthContext({ points: chunks(), embedder: new FakeEmbedder({ vectors: VECTORS }) });
    index.failWith.scroll = new Error('scroll refused');
    expect(await runCheck(driftCanaryCheck, ctx)).toMatchObject({ status: 'pass', errors: [], failures: [] });
  });
});
