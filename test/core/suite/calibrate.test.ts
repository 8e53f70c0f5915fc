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
    expect(c.categories[0]?.basis).toBe(
      "the known items' p10 0.545; the probes reach 0.545, so no threshold separates them",
    );
  });

  it('stays 0.05 under the p10 without probes', () => {
    expect(proposeThresholds(reportOf(KNOWN)).categories[0]?.threshold).toBe(0.49);
  });

  it('rounds down without losing a hundredth to float noise: 0.05 under a p10 of 0.62 is 0.57', () => {
    const c = proposeThresholds(
      reportOf([
        ['a', 'known-item', 0.62],
        ['b', 'known-item', 0.62],
      ]),
    );
    expect(c.categories[0]?.threshold).toBe(0.57);
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
      queries: [
        { id: 'a', query_text: 'a' },
        { id: 'b', query_text: 'b' },
        { id: 'p', query_text: 'p' },
      ],
    };

    // Act
    const updated = applyCalibration(raw, report, proposeThresholds(report));

    // Assess: known-item (0.9 + 0.1) / 2 = 0.5, semantic (0.6 + 0.1) / 2 = 0.35; the probe takes the lower.
    expect(updated).toEqual({
      success_criteria: { min_pass_rate: 80, max_p95_latency_ms: 140 },
      queries: [
        { id: 'a', query_text: 'a', min_similarity: 0.5 },
        { id: 'b', query_text: 'b', min_similarity: 0.35 },
        { id: 'p', query_text: 'p', min_similarity: 0.35 },
      ],
    });
  });
});

describe('proposeThresholds: the evidence', () => {
  it('gives each category’s scores (min, p10, median, max) and how its threshold was found, categories by name', () => {
    const c = proposeThresholds(
      reportOf([['b1', 'semantic', 0.8], ...KNOWN, ['b2', 'semantic', 0.6], ['b3', 'semantic', null]]),
    );
    expect(c.categories.map((x) => x.category)).toEqual(['known-item', 'semantic']);
    // The query without a result has no score, and would fail any threshold.
    expect(c.categories[1]).toEqual({
      category: 'semantic',
      queries: 3,
      scores: { min: 0.6, p10: expect.closeTo(0.62, 10), median: expect.closeTo(0.7, 10), max: 0.8 },
      threshold: 0.57,
      basis: "0.05 under the known items' p10 0.620 (no probes to separate from)",
      below: ['b3'],
    });
    expect(c.categories[0]).toEqual({
      category: 'known-item',
      queries: 10,
      scores: { min: 0.5, p10: expect.closeTo(0.545, 10), median: expect.closeTo(0.725, 10), max: 0.95 },
      threshold: 0.49,
      basis: "0.05 under the known items' p10 0.545 (no probes to separate from)",
      below: [],
    });
  });

  it('lists the categories by name whatever order their queries ran in', () => {
    const c = proposeThresholds(
      reportOf([
        ['c', 'gamma', 0.9],
        ['b', 'beta', 0.9],
        ['a', 'alpha', 0.9],
        ['d', 'delta', 0.9],
      ]),
    );
    expect(c.categories.map((x) => x.category)).toEqual(['alpha', 'beta', 'delta', 'gamma']);
  });

  it('says how a threshold between probes and known items was found', () => {
    const c = proposeThresholds(reportOf([...KNOWN, ['p1', 'probe', 0.2, true]]));
    expect(c.categories[0]?.basis).toBe("midway between the probes' best 0.200 and the known items' p10 0.545");
    expect(c.warnings).toEqual([]);
  });

  it('keeps four decimals when rounding down to two would put the threshold at the probes’ best', () => {
    // (0.505 + 0.5) / 2 = 0.5025: 0.50 would let the probe through.
    const same = Array.from({ length: 10 }, (_, i) => [`k${i}`, 'known-item', 0.505] as [string, string, number]);
    const c = proposeThresholds(reportOf([...same, ['p1', 'probe', 0.5, true]]));
    expect(c.categories[0]?.threshold).toBe(0.5025);
    expect(c.probes).toMatchObject({ threshold: 0.5025, above: [] });
  });

  it('lists the known items under the threshold, and neither a known item at it nor a probe under it', () => {
    const level = Array.from({ length: 10 }, (_, i) => [`k${i}`, 'known-item', 0.4] as [string, string, number]);
    const c = proposeThresholds(reportOf([...level, ['p1', 'probe', 0.4, true], ['p2', 'probe', 0.39, true]]));
    expect(c.categories[0]).toMatchObject({ threshold: 0.4, below: [] });
    expect(c.probes).toMatchObject({ queries: 2, maxScore: 0.4, threshold: 0.4, above: ['p1'] });
  });

  it('names the known items that would fail the proposed threshold', () => {
    // p10 of [0.3, 0.9] is 0.36: 0.05 under it is 0.31, which 0.3 misses.
    const c = proposeThresholds(
      reportOf([
        ['low', 'known-item', 0.3],
        ['high', 'known-item', 0.9],
      ]),
    );
    expect(c.categories[0]).toMatchObject({ threshold: 0.31, below: ['low'] });
  });

  it('proposes no threshold for a category none of whose queries returned a result, and none for probes then', () => {
    const c = proposeThresholds(
      reportOf([
        ['a', 'known-item', null],
        ['p', 'probe', null, true],
      ]),
    );
    expect(c.categories).toEqual([
      {
        category: 'known-item',
        queries: 1,
        scores: null,
        threshold: null,
        basis: 'no query of this category returned a result',
        below: [],
      },
    ]);
    expect(c.probes).toEqual({ queries: 1, maxScore: 0, threshold: null, above: [] });
  });

  it('leaves out the queries that could not run and warns that their scores are missing', () => {
    const report = reportOf([...KNOWN, ['e1', 'known-item', null], ['e2', 'probe', null, true]]);
    for (const r of report.query_results.slice(-2)) r.status = 'ERROR';
    const c = proposeThresholds(report);
    expect(c.categories[0]?.queries).toBe(10);
    expect(c.probes.queries).toBe(0);
    expect(c.warnings).toEqual(['2 queries could not run; their scores are missing from the evidence']);
  });

  it('counts a query whose suite entry expects a match as a known item, not a probe', () => {
    const report = reportOf(KNOWN);
    (report.query_results[0] as { query: unknown }).query = { expect_match: true };
    expect(proposeThresholds(report).probes.queries).toBe(0);
  });

  it('has no probe figures without probes', () => {
    expect(proposeThresholds(reportOf(KNOWN)).probes).toEqual({
      queries: 0,
      maxScore: null,
      threshold: null,
      above: [],
    });
  });

  it('passes p50 and p95 on, and proposes no latency budget when p95 could not be computed', () => {
    const report = reportOf(KNOWN);
    expect(proposeThresholds(report).latency).toEqual({ p50: 20, p95: 40, maxP95LatencyMs: 140 });
    report.validation_metrics.p95_latency_ms = null;
    expect(proposeThresholds(report).latency.maxP95LatencyMs).toBeNull();
  });

  it('proposes exactly twice the p95 where twice and 100 ms over meet', () => {
    expect(proposeThresholds(reportOf(KNOWN, 100)).latency.maxP95LatencyMs).toBe(200);
    expect(proposeThresholds(reportOf(KNOWN, 150)).latency.maxP95LatencyMs).toBe(300);
  });
});

describe('applyCalibration: what it leaves alone', () => {
  it('leaves a query without a result, or whose category has no threshold, as written', () => {
    const report = reportOf([['a', 'known-item', null]]);
    const raw = { queries: [{ id: 'a', query_text: 'a', min_similarity: 0.7 }, { query_text: 'extra' }] };
    expect(applyCalibration(raw, report, proposeThresholds(report))).toEqual({
      success_criteria: { max_p95_latency_ms: 140 },
      queries: [{ id: 'a', query_text: 'a', min_similarity: 0.7 }, { query_text: 'extra' }],
    });
  });

  it('leaves the success criteria as written when no latency budget could be proposed', () => {
    const report = reportOf(KNOWN);
    report.validation_metrics.p95_latency_ms = null;
    const raw = { name: 's', queries: [] };
    expect(applyCalibration(raw, report, proposeThresholds(report))).toEqual({ name: 's', queries: [] });
  });
});

describe('applyCalibration: set aside', () => {
  it('marks the queries set aside with their reason and matches the others by id, past one already set aside', () => {
    // Prepare: q2 was set aside before, so the run skipped it: results are q1 and q3, by their positional ids.
    const report = reportOf([
      ['q1', 'known-item', 0.9],
      ['q3', 'known-item', 0.4],
    ]);
    const raw = {
      queries: [{ query_text: 'a' }, { query_text: 'b', set_aside: 'before' }, { query_text: 'c' }],
    };

    // Act
    const updated = applyCalibration(raw, report, proposeThresholds(report), [{ id: 'q3', reason: 'not in top 5' }]);

    // Assess: the threshold is written on both run queries, the mark on q3 only; q2 as it was.
    expect(updated.queries).toEqual([
      { query_text: 'a', min_similarity: 0.4 },
      { query_text: 'b', set_aside: 'before' },
      { query_text: 'c', min_similarity: 0.4, set_aside: 'not in top 5' },
    ]);
  });
});
