import { describe, expect, it } from 'vitest';
import { buildRunFailureReport } from '../../../functions/core/report/failure-report.ts';
import { ValidationReport } from '../../../functions/core/report/report.ts';

describe('buildRunFailureReport', () => {
  it('builds a schema-valid ERROR report with one CRITICAL RUN_FAILED error naming the stage', () => {
    // Act
    const report = buildRunFailureReport({
      runId: '0b7f3c1e-2a4d-4e5f-9a6b-7c8d9e0f1a2b',
      errorId: 'e-1',
      startedAt: new Date('2026-03-14T02:00:00Z'),
      finishedAt: new Date('2026-03-14T02:00:01.5Z'),
      collection: 'book',
      environment: 'prod',
      suite: { name: 'golden', source: 'suite.json', query_count: 12 },
      embeddingModel: 'embed-english-v3.0',
      reason: 'secret ragwatch/cohere: could not be read (unauthorized): AccessDeniedException: denied',
      stage: 'secrets',
    });

    // Assess
    expect(ValidationReport.parse(report)).toEqual(report);
    expect(report).toMatchObject({
      status: 'ERROR',
      status_reason:
        'the run could not complete: secrets: secret ragwatch/cohere: could not be read (unauthorized): AccessDeniedException: denied',
      duration_seconds: 1.5,
      errors: [{ id: 'e-1', error_type: 'RUN_FAILED', severity: 'CRITICAL', details: { stage: 'secrets' } }],
      lifecycle: [
        { state: 'CREATED', at: '2026-03-14T02:00:00.000Z' },
        { state: 'FAILED', at: '2026-03-14T02:00:01.500Z' },
      ],
      validation_metrics: { query_types_tested: [], by_category: {}, total_queries_tested: 0 },
      execution: { embed_calls: 0, search_calls: 0, stages: { secrets: { status: 'failed', duration_ms: 0 } } },
    });
  });
});
