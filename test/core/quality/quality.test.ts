import { describe, expect, it } from 'vitest';
import type { CollectionProfile } from '../../../functions/core/quality/profile-collection.ts';
import { buildQualityMetrics, qualityErrors } from '../../../functions/core/quality/quality.ts';
import { QualityMetrics } from '../../../functions/core/report/quality-metrics.ts';
import { buildQuery } from '../../nightly/fixtures/reports.ts';

const AT = '2026-03-14T02:00:00.000Z';
const FIELDS = ['source_url', 'token_count'];

function profile(overrides: Partial<CollectionProfile> = {}): CollectionProfile {
  return {
    totalPoints: 40,
    completePoints: 39,
    fieldCompleteness: [
      { field: 'source_url', present: 40, missing: 0, completeness_rate: 100 },
      { field: 'token_count', present: 39, missing: 1, completeness_rate: 97.5 },
    ],
    distinctUrls: new Set(['https://book.example.org/docs/intro']),
    tokenHistogram: new Map([
      [100, 10],
      [300, 30],
    ]),
    sources: { urls: 'facet', completeness: 'count', tokens: 'facet' },
    pointsScanned: 0,
    notes: [],
    ...overrides,
  };
}

function ids(): () => string {
  let n = 0;
  return () => `e${++n}`;
}

function metricsWith(totalPoints: number, completePoints: number, fieldCompleteness = profile().fieldCompleteness) {
  return buildQualityMetrics({
    profile: profile({ totalPoints, completePoints, fieldCompleteness }),
    requiredFields: FIELDS,
    results: [],
    timestamp: AT,
  });
}

describe('buildQualityMetrics', () => {
  it('builds seed 001 QualityMetrics from the profile and the best similarity of each answered query', () => {
    // Prepare: two answered queries (0.8 and 0.6) and one in ERROR, which has no best similarity.
    const results = [
      buildQuery({ id: 'q1', best: 0.8 }),
      buildQuery({ id: 'q2', status: 'FAIL', best: 0.6 }),
      buildQuery({ id: 'q3', status: 'ERROR' }),
    ];

    // Act
    const quality = buildQualityMetrics({ profile: profile(), requiredFields: FIELDS, results, timestamp: AT });

    // Assess: tokens 10 x 100 and 30 x 300: mean 250, median 300, p95 300.
    expect(quality).toEqual({
      total_chunks: 40,
      chunks_with_complete_metadata: 39,
      metadata_completeness_rate: 97.5,
      required_fields: FIELDS,
      field_completeness: profile().fieldCompleteness,
      token_distribution: { count: 40, min: 100, max: 300, avg: 250, median: 300, p95: 300 },
      avg_similarity_score: 0.7,
      similarity_distribution: { count: 2, min: 0.6, max: 0.8, avg: 0.7, median: 0.7, p95: 0.79 },
      source: { completeness: 'count', token_distribution: 'facet' },
      points_scanned: 0,
      timestamp: AT,
    });
    expect(QualityMetrics.parse(quality)).toEqual(quality);
  });

  it('rounds the completeness rate to 2 decimals', () => {
    // Act
    const quality = metricsWith(3, 2);

    // Assess
    expect(quality.metadata_completeness_rate).toBe(66.67);
  });

  it('reports 0% completeness and no similarity for an empty collection and no answered query', () => {
    // Act
    const quality = metricsWith(0, 0, []);

    // Assess
    expect(quality).toMatchObject({
      total_chunks: 0,
      metadata_completeness_rate: 0,
      avg_similarity_score: null,
      similarity_distribution: { count: 0, avg: null },
    });
  });
});

describe('qualityErrors', () => {
  it('raises nothing when every chunk has every required field', () => {
    // Act
    const errors = qualityErrors(metricsWith(40, 40, []), 'run-1', ids());

    // Assess
    expect(errors).toEqual([]);
  });

  it('raises nothing for an empty collection: the completeness criterion reports it', () => {
    // Act
    const errors = qualityErrors(metricsWith(0, 0, []), 'run-1', ids());

    // Assess
    expect(errors).toEqual([]);
  });

  it('raises a MEDIUM INCOMPLETE_METADATA naming only the fields that are missing, with their counts', () => {
    // Act
    const errors = qualityErrors(metricsWith(40, 39), 'run-1', ids());

    // Assess
    expect(errors).toEqual([
      {
        id: 'e1',
        validation_id: 'run-1',
        error_type: 'INCOMPLETE_METADATA',
        severity: 'MEDIUM',
        message: '1 of 40 chunks lack required metadata (token_count: 1 missing)',
        details: {
          chunks_with_complete_metadata: 39,
          total_chunks: 40,
          fields: [{ field: 'token_count', present: 39, missing: 1, completeness_rate: 97.5 }],
        },
      },
    ]);
  });

  it('keeps it MEDIUM at exactly 90% complete', () => {
    // Act
    const errors = qualityErrors(metricsWith(10, 9), 'run-1', ids());

    // Assess
    expect(errors.map((e) => e.severity)).toEqual(['MEDIUM']);
  });

  it('makes it HIGH just under 90% complete', () => {
    // Act: 8999 of 10000 is 89.99%.
    const errors = qualityErrors(metricsWith(10_000, 8_999), 'run-1', ids());

    // Assess
    expect(errors.map((e) => [e.error_type, e.severity])).toEqual([['INCOMPLETE_METADATA', 'HIGH']]);
  });

  it('lists every missing field in the message, in profile order', () => {
    // Prepare
    const fields = [
      { field: 'source_url', present: 30, missing: 10, completeness_rate: 75 },
      { field: 'chapter_id', present: 40, missing: 0, completeness_rate: 100 },
      { field: 'token_count', present: 35, missing: 5, completeness_rate: 87.5 },
    ];

    // Act
    const [error] = qualityErrors(metricsWith(40, 28, fields), 'run-1', ids());

    // Assess
    expect(error?.message).toBe(
      '12 of 40 chunks lack required metadata (source_url: 10 missing, token_count: 5 missing)',
    );
  });
});
