import { describe, expect, it } from 'vitest';
import { MODEL_FACET_LIMIT } from '../../../functions/core/index-health/inputs.ts';
import { mixedModelsCheck } from '../../../functions/core/index-health/mixed-models-check.ts';
import { runCheck } from '../../fakes/run-context.ts';
import { healthContext, point } from './context.ts';

const V3 = 'embed-english-v3.0';
const V2 = 'embed-english-v2.0';
const INDEXED = { payloadIndexes: { source_url: 'keyword', token_count: 'integer', model_version: 'keyword' } };
const mixed = () => [
  point('1'),
  point('2', { chunk_index: 1 }),
  point('3', { chunk_index: 2, model_version: V2 }),
  point('4', { chunk_index: 3, model_version: undefined }),
];

describe('the mixed-models check', () => {
  it('passes one model, read from the inventory scroll when model_version has no payload index', async () => {
    const { ctx, index } = healthContext({ points: [point('1'), point('2', { chunk_index: 1 })] });
    const result = await runCheck(mixedModelsCheck, ctx);
    expect(result.sections?.index_health?.embedding_models).toEqual({
      models: [{ model: V3, points: 2 }],
      source: 'scroll',
    });
    expect(result.errors).toEqual([]);
    expect(result.verdicts).toEqual([
      {
        name: 'embedding_models',
        description: 'Distinct embedding models among the points (model_version)',
        value: 1,
        threshold: 1,
        comparator: '<=',
        passed: true,
        severity: 'HIGH',
      },
    ]);
    expect(index.calls).not.toContain('facet');
  });

  it('reports two models as MIXED_MODELS, high, naming each with its points and the query model', async () => {
    const { ctx } = healthContext({ points: mixed() });
    const result = await runCheck(mixedModelsCheck, ctx);
    expect(result.sections?.index_health?.embedding_models).toEqual({
      models: [
        { model: V3, points: 2 },
        { model: '(none)', points: 1 },
        { model: V2, points: 1 },
      ],
      source: 'scroll',
    });
    expect(result.errors).toEqual([
      {
        id: 'id-1',
        validation_id: 'run-1',
        error_type: 'MIXED_MODELS',
        severity: 'HIGH',
        message: `the index holds vectors of 2 embedding models: ${V3} (2), ${V2} (1)`,
        details: {
          models: [
            { model: V3, points: 2 },
            { model: V2, points: 1 },
          ],
          query_model: 'fake-embed',
        },
      },
    ]);
    expect(result.verdicts?.[0]).toMatchObject({ value: 2, passed: false });
  });

  it('counts the models by one facet where model_version has a keyword index, with the same figures', async () => {
    const scrolled = await runCheck(mixedModelsCheck, healthContext({ points: mixed() }).ctx);
    const { ctx, index, stages } = healthContext({ points: mixed(), info: INDEXED });
    const faceted = await runCheck(mixedModelsCheck, ctx);
    expect(stages()).toEqual(['describe', 'model_facet', 'profile']);
    expect(faceted.sections?.index_health?.embedding_models).toEqual({
      ...scrolled.sections?.index_health?.embedding_models,
      source: 'facet',
    });
    expect(faceted.errors.map((e) => e.message)).toEqual(scrolled.errors.map((e) => e.message));
    expect(index.calls.filter((c) => c === 'scroll')).toEqual([]);
    expect(index.calls.filter((c) => c === 'facet')).toHaveLength(3);
  });

  it('lists no "(none)" entry when the facet counts every point', async () => {
    const { ctx } = healthContext({ points: [point('1'), point('2', { model_version: V2 })], info: INDEXED });
    expect((await runCheck(mixedModelsCheck, ctx)).sections?.index_health?.embedding_models?.models).toEqual([
      { model: V2, points: 1 },
      { model: V3, points: 1 },
    ]);
  });

  it('does not use an index of another type on model_version', async () => {
    const info = { payloadIndexes: { ...INDEXED.payloadIndexes, model_version: 'text' } };
    const { ctx } = healthContext({ points: mixed(), info });
    expect((await runCheck(mixedModelsCheck, ctx)).sections?.index_health?.embedding_models?.source).toBe('scroll');
  });

  it('falls back to the scroll when the facet reaches its limit (it may have been cut short)', async () => {
    const many = Array.from({ length: MODEL_FACET_LIMIT }, (_, i) => point(String(i), { model_version: `m${i}` }));
    const { ctx } = healthContext({ points: many, info: INDEXED, criteria: { max_embedding_models: 100 } });
    const result = await runCheck(mixedModelsCheck, ctx);
    expect(result.sections?.index_health?.embedding_models).toMatchObject({ source: 'scroll' });
    expect(result.sections?.index_health?.embedding_models?.models).toHaveLength(MODEL_FACET_LIMIT);
    expect(result.verdicts?.[0]).toMatchObject({ value: 100, passed: true });
  });

  it('trusts a facet one value under its limit', async () => {
    const many = Array.from({ length: MODEL_FACET_LIMIT - 1 }, (_, i) => point(String(i), { model_version: `m${i}` }));
    const { ctx } = healthContext({ points: many, info: INDEXED, criteria: { max_embedding_models: 100 } });
    const block = (await runCheck(mixedModelsCheck, ctx)).sections?.index_health?.embedding_models;
    expect([block?.source, block?.models.length]).toEqual(['facet', MODEL_FACET_LIMIT - 1]);
  });

  it('judges the models against max_embedding_models on both sides of equality', async () => {
    const at = await runCheck(
      mixedModelsCheck,
      healthContext({ points: mixed(), criteria: { max_embedding_models: 2 } }).ctx,
    );
    expect([at.errors, at.verdicts?.[0]?.passed]).toEqual([[], true]);
    const over = await runCheck(mixedModelsCheck, healthContext({ points: mixed() }).ctx);
    expect([over.errors.length, over.verdicts?.[0]?.passed]).toEqual([1, false]);
  });

  it('has no verdict when no point names its model', async () => {
    const { ctx } = healthContext({ points: [point('1', { model_version: undefined })] });
    const result = await runCheck(mixedModelsCheck, ctx);
    expect(result.sections?.index_health?.embedding_models?.models).toEqual([{ model: '(none)', points: 1 }]);
    expect([result.errors, result.verdicts]).toEqual([[], []]);
  });

  it('sorts models of equal counts by name', async () => {
    const { ctx } = healthContext({
      points: [point('1', { model_version: 'b' }), point('2', { model_version: 'a' })],
      criteria: { max_embedding_models: 2 },
    });
    const models = (await runCheck(mixedModelsCheck, ctx)).sections?.index_health?.embedding_models?.models;
    expect(models?.map((m) => m.model)).toEqual(['a', 'b']);
  });

  it('says the facet failed when model_version is indexed and the facet is refused', async () => {
    const { ctx, index } = healthContext({ points: mixed(), info: { payloadIndexes: { model_version: 'keyword' } } });
    index.failWith.facet = new Error('facet refused');
    expect(await runCheck(mixedModelsCheck, ctx)).toMatchObject({
      status: null,
      errors: [],
      failures: ['embedding models facet: facet refused'],
    });
  });

  it('reads the scroll when the collection cannot be described, and says the inventory failed if it fails too', async () => {
    const { ctx, index } = healthContext({ points: mixed(), info: INDEXED });
    index.failWith.describe = new Error('describe refused');
    expect((await runCheck(mixedModelsCheck, ctx)).sections?.index_health?.embedding_models?.source).toBe('scroll');
    const failing = healthContext({ points: mixed() });
    failing.index.failWith.scroll = new Error('scroll refused');
    expect(await runCheck(mixedModelsCheck, failing.ctx)).toMatchObject({
      status: null,
      errors: [],
      failures: ['index inventory: scroll refused'],
    });
  });
});
