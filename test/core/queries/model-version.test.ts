import { describe, expect, it } from 'vitest';
import { checkModelVersion, modelVersionCheck } from '../../../functions/core/queries/model-version.ts';
import { MemoryIndex, type MemoryPoint } from '../../fakes/memory-index.ts';
import { buildRunContext, runCheck } from '../../fakes/run-context.ts';

const result = (...rows: [string, string | null][]) => ({
  top_results: rows.map(([chunk_id, model_version]) => ({ chunk_id, model_version })),
});
const check = (results: ReturnType<typeof result>[]) =>
  checkModelVersion({
    configuredModel: 'embed-english-v3.0',
    // Only chunk_id and model_version are read.
    results: results as unknown as Parameters<typeof checkModelVersion>[0]['results'],
    runId: 'run-1',
    newId: () => 'e1',
  });

describe('checkModelVersion', () => {
  it('finds nothing when every retrieved chunk was embedded with the configured model', () => {
    expect(check([result(['1', 'embed-english-v3.0'], ['2', 'embed-english-v3.0'])])).toBeNull();
  });

  it('finds nothing when the points do not say which model embedded them', () => {
    expect(check([result(['1', null], ['2', null])])).toBeNull();
  });

  it('reports MODEL_MISMATCH with each stored model and its count when another model embedded some chunks', () => {
    // Act: chunk 2 is retrieved by two queries and counted once
    const finding = check([result(['1', 'embed-english-v3.0'], ['2', 'embed-v4.0']), result(['2', 'embed-v4.0'])]);

    // Assess
    expect(finding).toEqual({
      id: 'e1',
      validation_id: 'run-1',
      error_type: 'MODEL_MISMATCH',
      severity: 'CRITICAL',
      message:
        '1 of 2 retrieved chunks were embedded with embed-v4.0, not the configured embed-english-v3.0: their scores compare vectors of different models',
      details: {
        configured_model: 'embed-english-v3.0',
        stored_models: { 'embed-english-v3.0': 1, 'embed-v4.0': 1 },
        example_chunk_ids: ['2'],
      },
    });
  });
});

describe('checkModelVersion: several other models', () => {
  it('names every other model and gives at most five example chunks', () => {
    const rows: [string, string][] = [
      ['1', 'embed-v4.0'],
      ['2', 'embed-v4.0'],
      ['3', 'embed-v4.0'],
      ['4', 'embed-multilingual-v3.0'],
      ['5', 'embed-multilingual-v3.0'],
      ['6', 'embed-multilingual-v3.0'],
      ['7', 'embed-english-v3.0'],
    ];
    const finding = check([result(...rows)]);
    expect(finding?.message).toBe(
      '6 of 7 retrieved chunks were embedded with embed-v4.0, embed-multilingual-v3.0, not the configured embed-english-v3.0: their scores compare vectors of different models',
    );
    expect(finding?.details.example_chunk_ids).toEqual(['1', '2', '3', '4', '5']);
  });
});

describe('modelVersionCheck', () => {
  const point = (id: string, model: string): MemoryPoint => ({
    id,
    vector: [1, 0, 0],
    payload: {
      chunk_text: `chunk ${id}`,
      source_url: `https://b/docs/${id}`,
      chapter_id: 'ch1',
      module_name: 'm',
      heading_hierarchy: ['H'],
      token_count: 10,
      chunk_index: 0,
      model_version: model,
    },
  });

  function run(index: MemoryIndex, signal?: AbortSignal) {
    const { ctx } = buildRunContext({ index, deps: signal ? { signal } : {} });
    return runCheck(modelVersionCheck, ctx);
  }

  it('reports the chunks the golden queries retrieved from another model, as a finding of this run', async () => {
    const result = await run(new MemoryIndex([point('a', 'fake-embed'), point('b', 'embed-v4.0')]));
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({
      validation_id: 'run-1',
      error_type: 'MODEL_MISMATCH',
      message:
        '1 of 2 retrieved chunks were embedded with embed-v4.0, not the configured fake-embed: their scores compare vectors of different models',
    });
    expect(result.errors[0]?.id).toMatch(/^id-\d+$/);
  });

  it('reports nothing when the retrieved chunks came from the configured model', async () => {
    expect(await run(new MemoryIndex([point('a', 'fake-embed')]))).toMatchObject({
      status: 'pass',
      errors: [],
      failures: [],
    });
  });

  it('finds nothing itself when the queries could not run: that is reported once, as the queries', async () => {
    const index = new MemoryIndex([point('b', 'embed-v4.0')]);
    index.failWith.describe = new Error('Qdrant unreachable');
    expect(await run(index)).toMatchObject({
      status: 'pass',
      errors: [],
      failures: ['queries: no query could be run: Qdrant unreachable'],
    });
  });

  it('is skipped when the run was cut before the queries ran: the cut is reported once, as the queries step', async () => {
    const index = new MemoryIndex([point('b', 'embed-v4.0')]);
    expect(await run(index, AbortSignal.abort())).toMatchObject({
      status: null,
      errors: [
        {
          error_type: 'TIMEOUT',
          message: 'queries (Cohere embed and Qdrant search) was cut: the run had to stop',
          details: { step: 'queries' },
        },
      ],
      failures: ['queries: queries (Cohere embed and Qdrant search) was cut: the run had to stop'],
    });
    expect(index.calls).toEqual([]);
  });
});
