import { describe, expect, it } from 'vitest';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import { applyCalibration, proposeThresholds } from '../../../functions/core/suite/calibrate.ts';

/** A report with just what calibration reads: each query's category, status and best score, and latency. */
function reportOf(
  rows: [id: string, category: string, best: number | null, probe?: boolean][],
  p95 = 40,
): ValidationReport {
  return {
    query_results: rows.map(([id, category, best, probe]) => ({
      id,
      query_category: category,
      status: 'PASS',
      best_similarity: best,
      query: probe ? { expect_match: false } : {},
    })),
    validation_metrics: { p50_latency_ms: 20, p95_latency_ms: p95 },
  } as unknown as ValidationReport;
}

// Ten known items: their p10 (linear interpolation) is 0.5 + 0.9 * 0.05 = 0.545.
const KNOWN = Array.from({ length: 10 }, (_, i) => [`k${i}`, 'known-item', 0.5 + i * 0.05] as [string, string, number]);

describe('proposeThresholds', () => {
  it('puts min_similarity midway between the probes’ best and the known items’ p10, rounded down', () => {
    // Act: probes at most 0.2 -> (0.545 + 0.2) / 2 = 0.3725 -> 0.37.
    const c = proposeThresholds(reportOf([...KNOWN, ['p1', 'probe', 0.2, true], ['p2', 'probe', 0.1, true]]));

    // Assess
    expect(c.categories[0]).toMatchObject({ category: 'known-item', threshold: 0.37, below: [] });
    expect(c.probes).toMatchObject({ queries: 2, maxScore: 0.2, threshold: 0.37, above: [] });
  });

  it('says no threshold separates them when a probe scores exactly the known items’ p10', () => {
    // Act
    const c = proposeThresholds(reportOf([...KNOWN, ['p1', 'probe', 0.545, true]]));

    // Assess: the p10 kept (0.54), the probe over it, and a warning.
    expect(c.categories[0]?.threshold).toBe(0.54);
    expect(c.probes.above).toEqual(['p1']);
    expect(c.warnings).toEqual(["known-item: probes score 0.545, as high as the known items' p10 0.545"]);
  });

  it('stays 0.05 under the p10 without probes', () => {
    expect(proposeThresholds(reportOf(KNOWN)).categories[0]?.threshold).toBe(0.49);
  });

  it('proposes twice the p95 latency, at least 100 ms over it, rounded up to 10 ms', () => {
    expect([
      proposeThresholds(reportOf(KNOWN, 40)).latency.maxP95LatencyMs,
      proposeThresholds(reportOf(KNOWN, 301)).latency.maxP95LatencyMs,
    ]).toEqual([140, 610]);
  });
});

describe('applyCalibration', () => {
  it('writes each query’s threshold by its category, probes by theirs, and the latency budget', () => {
    // Prepare
    const report = reportOf([
      ['a', 'known-item', 0.9],
      ['b', 'semantic', 0.6],
      ['p', 'probe', 0.1, true],
    ]);
    const raw = {
      success_criteria: { min_pass_rate: 80 },
      queries: [{ query_text: 'a' }, { query_text: 'b' }, { query_text: 'p' }],
    };

    // Act
    const updated = applyCalibration(raw, report, proposeThresholds(report));

    // Assess: known-item (0.9 + 0.1) / 2 = 0.5, semantic (0.6 + 0.1) / 2 = 0.35; the probe takes the lower.
    expect(updated).toEqual({
      success_criteria: { min_pass_rate: 80, max_p95_latency_ms: 140 },
      queries: [
        { query_text: 'a', min_similarity: 0.5 },
        { query_text: 'b', min_similarity: 0.35 },
        { query_text: 'p', min_similarity: 0.35 },
      ],
    });
  });
});
