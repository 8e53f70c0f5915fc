import { describe, expect, it } from 'vitest';
import { buildMetricData, chunkMetricData, type MetricDatum } from '../../../functions/core/delivery/metric-data.ts';
import { nonEmpty } from '../../helpers/non-empty.ts';
import { buildErrorReport, buildFailedReport, buildPassedReport, buildQuery } from '../../nightly/fixtures/reports.ts';

const BASE = [
  { Name: 'Collection', Value: 'book' },
  { Name: 'Environment', Value: 'prod' },
];

function scalar(data: MetricDatum[], name: string): number | undefined {
  return data.find((d) => d.MetricName === name && d.Dimensions.length === 2)?.Value;
}

describe('buildMetricData', () => {
  it('sends the run-level figures of a clean run with the Collection and Environment dimensions', () => {
    // Prepare
    const report = buildPassedReport();

    // Act
    const data = buildMetricData(report);

    // Assess
    const scalars = Object.fromEntries(
      data.filter((d) => d.Value !== undefined && d.Dimensions.length === 2).map((d) => [d.MetricName, d.Value]),
    );
    expect(scalars).toEqual({
      RunSucceeded: 1,
      RunDurationSeconds: 42.5,
      QueriesTotal: 10,
      QueriesFailed: 0,
      QueryErrors: 0,
      PassRate: 100,
      CoveragePercent: 100,
      MissingUrls: 0,
      OrphanUrls: 0,
      MetadataCompletenessPercent: 100,
      AvgSimilarity: 0.8,
      PrecisionAtK: 0.6,
      RecallAtK: 0.75,
      MRR: 0.8,
      NdcgAtK: 0.7,
      HitRate: 0.9,
      AlertsHeld: 0,
    });
  });

  it('sends AlertsHeld 1 for a run inside a planned maintenance window, 0 outside one', () => {
    const report = buildFailedReport();
    expect(scalar(buildMetricData(report), 'AlertsHeld')).toBe(0);
    report.maintenance = { until: '2026-03-15T06:00:00.000Z', reason: 're-index' };
    expect(scalar(buildMetricData(report), 'AlertsHeld')).toBe(1);
    const error = { ...buildErrorReport(), maintenance: report.maintenance };
    expect(scalar(buildMetricData(error), 'AlertsHeld')).toBe(1);
  });

  it('gives every run-level figure its CloudWatch unit', () => {
    // Prepare
    const report = buildPassedReport();
    report.grounding_report = { grounded_rate: 100 } as NonNullable<typeof report.grounding_report>;

    // Act
    const data = buildMetricData(report);

    // Assess
    const units = Object.fromEntries(
      data.filter((d) => d.Dimensions.length === 2 && d.Value !== undefined).map((d) => [d.MetricName, d.Unit]),
    );
    expect(units).toEqual({
      RunSucceeded: 'Count',
      RunDurationSeconds: 'Seconds',
      QueriesTotal: 'Count',
      QueriesFailed: 'Count',
      QueryErrors: 'Count',
      PassRate: 'Percent',
      CoveragePercent: 'Percent',
      MissingUrls: 'Count',
      OrphanUrls: 'Count',
      MetadataCompletenessPercent: 'Percent',
      AvgSimilarity: 'None',
      PrecisionAtK: 'None',
      RecallAtK: 'None',
      MRR: 'None',
      NdcgAtK: 'None',
      HitRate: 'None',
      GroundedRate: 'Percent',
      AlertsHeld: 'Count',
    });
  });

  it('sends latency values in ascending order whatever order the queries ran in', () => {
    // Prepare
    const report = buildPassedReport();
    report.query_results = [90, 30, 60].map((ms, i) =>
      buildQuery({ id: `q${i}`, latency: { embedding_ms: 1, search_ms: 1, post_processing_ms: 0, total_ms: ms } }),
    );

    // Act
    const data = buildMetricData(report);

    // Assess
    expect(data.find((d) => d.MetricName === 'QueryLatency')?.Values).toEqual([30, 60, 90]);
  });

  it('sends a magnitude CloudWatch would refuse as nothing, and one too small to hold as 0', () => {
    // Prepare: CloudWatch accepts magnitudes from 8.51592e-109 to 1.174271e108.
    const report = buildPassedReport();
    report.duration_seconds = 1.174271e108;
    report.validation_metrics.mrr = 1.2e108;
    report.validation_metrics.overall_recall = 8.51592e-109;
    report.validation_metrics.overall_precision = 8e-109;

    // Act
    const data = buildMetricData(report);

    // Assess
    expect([
      scalar(data, 'RunDurationSeconds'),
      scalar(data, 'MRR'),
      scalar(data, 'RecallAtK'),
      scalar(data, 'PrecisionAtK'),
    ]).toEqual([1.174271e108, undefined, 8.51592e-109, 0]);
  });

  it('trims dimension values, names an empty one "unknown" and cuts one over 1024 characters', () => {
    // Prepare
    const report = buildPassedReport();
    report.collection = '  book  ';
    report.environment = '   ';
    const long = buildPassedReport();
    long.collection = 'c'.repeat(1100);

    // Act
    const [first] = buildMetricData(report);
    const [cut] = buildMetricData(long);

    // Assess
    expect(first?.Dimensions).toEqual([
      { Name: 'Collection', Value: 'book' },
      { Name: 'Environment', Value: 'unknown' },
    ]);
    expect(cut?.Dimensions[0]?.Value).toBe('c'.repeat(1024));
  });

  it('stamps every datum with the run start time and the base dimensions first', () => {
    // Prepare
    const report = buildPassedReport();

    // Act
    const data = buildMetricData(report);

    // Assess
    for (const datum of nonEmpty(data, 'metric data')) {
      expect(datum.Timestamp).toEqual(new Date('2026-03-14T02:00:00.000Z'));
      expect(datum.Dimensions.slice(0, 2)).toEqual(BASE);
    }
  });

  it('keeps the heartbeat at 1 on a run whose criteria are breached', () => {
    // Prepare
    const report = buildFailedReport();

    // Act
    const data = buildMetricData(report);

    // Assess
    expect(scalar(data, 'RunSucceeded')).toBe(1);
    expect(scalar(data, 'QueriesFailed')).toBe(12);
    expect(scalar(data, 'MissingUrls')).toBe(25);
    expect(scalar(data, 'OrphanUrls')).toBe(2);
  });

  it('sends RunSucceeded 0 and leaves out every figure an ERROR run could not compute', () => {
    // Prepare
    const report = buildErrorReport();

    // Act
    const data = buildMetricData(report);

    // Assess
    expect(data.map((d) => [d.MetricName, d.Value])).toEqual([
      ['RunSucceeded', 0],
      ['RunDurationSeconds', 42.5],
      ['QueriesTotal', 2],
      ['QueriesFailed', 0],
      ['QueryErrors', 2],
      ['AlertsHeld', 0],
    ]);
  });

  it('sends one PassRate per query category with a QueryCategory dimension', () => {
    // Prepare
    const report = buildFailedReport();

    // Act
    const data = buildMetricData(report);

    // Assess
    const perCategory = data.filter((d) => d.Dimensions.length === 3);
    expect(perCategory).toEqual([
      {
        MetricName: 'PassRate',
        Dimensions: [...BASE, { Name: 'QueryCategory', Value: 'keyword' }],
        Timestamp: new Date('2026-03-14T02:00:00.000Z'),
        Unit: 'Percent',
        Value: 100,
      },
      {
        MetricName: 'PassRate',
        Dimensions: [...BASE, { Name: 'QueryCategory', Value: 'semantic' }],
        Timestamp: new Date('2026-03-14T02:00:00.000Z'),
        Unit: 'Percent',
        Value: 0,
      },
    ]);
  });

  it('sends only ASCII dimension values, mapping a non-ASCII collection, environment and category as %XX', () => {
    // Prepare
    const failed = buildFailedReport();
    const [figures] = Object.values(failed.validation_metrics.by_category);
    if (figures === undefined) throw new Error('the fixture has a category');
    const report = {
      ...failed,
      collection: 'книга',
      environment: 'prod-é',
      validation_metrics: {
        ...failed.validation_metrics,
        by_category: {
          'sémantique 📚': figures,
        },
      },
    };

    // Act
    const values = buildMetricData(report).flatMap((d) => d.Dimensions.map((dim) => dim.Value));

    // Assess
    expect(values.every((v) => /^[\x20-\x7e]{1,1024}$/.test(v))).toBe(true);
    expect(new Set(values)).toEqual(
      new Set(['%D0%BA%D0%BD%D0%B8%D0%B3%D0%B0', 'prod-%C3%A9', 's%C3%A9mantique %F0%9F%93%9A']),
    );
  });

  it('sends latencies as Values and Counts so CloudWatch can compute percentiles', () => {
    // Prepare
    const report = buildPassedReport();
    report.query_results = [
      buildQuery({ id: 'a', latency: { embedding_ms: 40, search_ms: 12, post_processing_ms: 1, total_ms: 53 } }),
      buildQuery({ id: 'b', latency: { embedding_ms: 40, search_ms: 15.04, post_processing_ms: 1, total_ms: 56 } }),
      buildQuery({ id: 'c', latency: { embedding_ms: 40, search_ms: 12, post_processing_ms: 1, total_ms: 53 } }),
      buildQuery({
        id: 'd',
        status: 'ERROR',
        latency: { embedding_ms: 0, search_ms: 0, post_processing_ms: 0, total_ms: 9 },
      }),
    ];

    // Act
    const data = buildMetricData(report);

    // Assess
    const latencies = data.filter((d) => d.Values !== undefined);
    expect(latencies.map((d) => ({ name: d.MetricName, unit: d.Unit, values: d.Values, counts: d.Counts }))).toEqual([
      { name: 'QueryLatency', unit: 'Milliseconds', values: [53, 56], counts: [2, 1] },
      { name: 'EmbeddingLatency', unit: 'Milliseconds', values: [40], counts: [3] },
      { name: 'SearchLatency', unit: 'Milliseconds', values: [12, 15], counts: [2, 1] },
    ]);
  });

  it('splits a latency distribution with more than 150 distinct values into several datums', () => {
    // Prepare
    const report = buildPassedReport();
    report.query_results = Array.from({ length: 400 }, (_, i) =>
      buildQuery({ id: `q${i}`, latency: { embedding_ms: 1, search_ms: 1, post_processing_ms: 0, total_ms: 10 + i } }),
    );

    // Act
    const data = buildMetricData(report);

    // Assess
    const total = data.filter((d) => d.MetricName === 'QueryLatency');
    expect(total.map((d) => d.Values?.length)).toEqual([150, 150, 100]);
    expect(total.flatMap((d) => d.Counts ?? []).reduce((a, b) => a + b, 0)).toBe(400);
  });

  it('sends GroundedRate when the run checked grounded answers', () => {
    // Prepare
    const report = buildPassedReport();
    report.grounding_report = { grounded_rate: 87.5 } as unknown as NonNullable<typeof report.grounding_report>;

    // Act
    const data = buildMetricData(report);

    // Assess
    expect(scalar(data, 'GroundedRate')).toBe(87.5);
  });

  it('never sends NaN or Infinity: such a figure is left out', () => {
    // Prepare
    const report = buildPassedReport();
    report.duration_seconds = Number.NaN;
    report.validation_metrics.mrr = Number.POSITIVE_INFINITY;
    report.query_results = [
      buildQuery({ id: 'a', latency: { embedding_ms: Number.NaN, search_ms: 1, post_processing_ms: 0, total_ms: 5 } }),
    ];

    // Act
    const data = buildMetricData(report);

    // Assess
    expect(data.map((d) => d.MetricName)).not.toContain('RunDurationSeconds');
    expect(data.map((d) => d.MetricName)).not.toContain('MRR');
    expect(data.map((d) => d.MetricName)).not.toContain('EmbeddingLatency');
    const numbers = data.flatMap((d) => [d.Value ?? 0, ...(d.Values ?? [])]);
    expect(nonEmpty(numbers, 'metric values').every(Number.isFinite)).toBe(true);
  });
});

describe('chunkMetricData', () => {
  const datum = (i: number): MetricDatum => ({
    MetricName: `M${i}`,
    Dimensions: BASE,
    Timestamp: new Date(0),
    Unit: 'Count',
    Value: i,
  });

  it('puts at most 1,000 datums in one call', () => {
    // Prepare
    const data = Array.from({ length: 2500 }, (_, i) => datum(i));

    // Act
    const calls = chunkMetricData(data);

    // Assess
    expect(calls.map((c) => c.length)).toEqual([1000, 1000, 500]);
    expect(calls.flat()).toEqual(data);
  });

  it('starts a new call before the payload passes the byte limit', () => {
    // Prepare
    const data = Array.from({ length: 10 }, (_, i) => datum(i));
    const oneSize = new TextEncoder().encode(JSON.stringify(datum(0))).length + 1;

    // Act
    const calls = chunkMetricData(data, { maxDatumsPerCall: 1000, maxBytesPerCall: oneSize * 3 + 2 });

    // Assess
    expect(calls.map((c) => c.length)).toEqual([3, 3, 3, 1]);
  });

  it('fills a call up to exactly the byte limit', () => {
    // Prepare: each datum is the same size; the limit holds exactly three.
    const data = Array.from({ length: 7 }, (_, i) => datum(i));
    const oneSize = new TextEncoder().encode(JSON.stringify(datum(0))).length + 1;

    // Act
    const calls = chunkMetricData(data, { maxDatumsPerCall: 1000, maxBytesPerCall: oneSize * 3 });

    // Assess
    expect(calls.map((c) => c.length)).toEqual([3, 3, 1]);
  });

  it('sends a datum larger than the byte limit in a call of its own, never an empty call', () => {
    // Act
    const calls = chunkMetricData([datum(1), datum(2)], { maxDatumsPerCall: 1000, maxBytesPerCall: 10 });

    // Assess
    expect(calls).toEqual([[datum(1)], [datum(2)]]);
  });

  it('returns no call at all when there is nothing to send', () => {
    // Act
    const calls = chunkMetricData([]);

    // Assess
    expect(calls).toEqual([]);
  });
});
