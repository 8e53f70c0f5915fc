import { describe, expect, it } from 'vitest';
import { buildMetricData } from '../../../functions/core/delivery/metric-data.ts';
import { emptyIndexHealth } from '../../../functions/core/report/index-health-report.ts';
import { buildPassedReport } from '../../nightly/fixtures/reports.ts';

const NAMES = [
  'AnnRecall',
  'CanaryMinCosine',
  'StalePages',
  'StaleChunkPages',
  'MissingChunkPages',
  'EmbeddingModels',
  'FilterViolations',
];
const healthData = (report: ReturnType<typeof buildPassedReport>) =>
  buildMetricData(report)
    .filter((d) => NAMES.includes(d.MetricName))
    .map((d) => [d.MetricName, d.Value, d.Unit]);

describe('the index-health metrics', () => {
  it('sends the figures someone would graph: ANN recall, worst canary cosine, stale pages and chunks, pages missing chunks, models, filter violations', () => {
    const report = buildPassedReport();
    report.index_health = {
      stale_chunks: {
        urls_checked: 14,
        stale_pages: 2,
        urls_with_several_page_hashes: 1,
        duplicate_chunks: 1,
        points_without_page_hash: 0,
        urls: ['a', 'b'],
        source: 'facet',
      },
      missing_chunks: { urls_checked: 14, pages_missing_chunks: 4, missing_chunks: 9, urls: [], source: 'facet' },
      freshness: { pages_checked: 13, stale_pages: 3, urls: [], source: 'facet' },
      embedding_models: {
        models: [
          { model: 'embed-english-v3.0', points: 90 },
          { model: '(none)', points: 2 },
        ],
        source: 'scroll',
      },
      drift_canary: { sampled: 8, min_cosine: 0.42, threshold: 0.98, drifted: [] },
      ann: {
        queries_compared: 18,
        queries_searched: 18,
        sample_size: 20,
        recall: 0.9889,
        threshold: 0.95,
        per_query: [],
      },
      filters: { filtered_queries: 3, hits_checked: 10, violations: 0, examples: [] },
    };
    expect(healthData(report)).toEqual([
      ['AnnRecall', 0.9889, 'None'],
      ['CanaryMinCosine', 0.42, 'None'],
      ['StalePages', 3, 'Count'],
      ['StaleChunkPages', 2, 'Count'],
      ['MissingChunkPages', 4, 'Count'],
      ['EmbeddingModels', 1, 'Count'],
      ['FilterViolations', 0, 'Count'],
    ]);
  });

  it('sends nothing for a block that could not be computed', () => {
    expect(healthData({ ...buildPassedReport(), index_health: emptyIndexHealth() })).toEqual([]);
    expect(healthData({ ...buildPassedReport(), index_health: null })).toEqual([]);
  });
});
