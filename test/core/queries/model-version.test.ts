import { describe, expect, it } from 'vitest';
import { checkModelVersion } from '../../../functions/core/queries/model-version.ts';

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
