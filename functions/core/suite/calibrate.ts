/**
 * Thresholds proposed from what a run of the suite observed (`ragwatch calibrate`), so a suite fits the book and
 * the embedding model it runs against (real Cohere scores differ from the stand-in's):
 * - min_similarity per category of known-item queries: midway between the probes' best score and the 10th
 *   percentile of the category's best scores, rounded down to 2 decimals, so nine known items in ten clear it and
 *   no probe does; without probes, 0.05 under that percentile. When probes score as high as known items, no
 *   threshold separates them: the proposal keeps the percentile and says so.
 * - probes get the lowest of those thresholds: a probe must stay under every category's.
 * - max_p95_latency_ms: twice the observed p95 of the queries' latency (each one's share of its batched calls, not
 *   a call's whole duration, which grows with the suite), and at least 100 ms over it, rounded
 *   up to 10 ms: one night's p95 is one sample, and a service's tail moves by that much from night to night.
 */

import type { ValidationReport } from '../report/report.ts';
import { percentile, roundTo } from '../shared/statistics.ts';

interface CategoryEvidence {
  category: string;
  queries: number;
  scores: { min: number; p10: number; median: number; max: number } | null;
  threshold: number | null;
  /** How the threshold was found, in a sentence. */
  basis: string;
  /** Query ids whose best score stays under the proposed threshold (they would fail). */
  below: string[];
}

export interface Calibration {
  categories: CategoryEvidence[];
  probes: { queries: number; maxScore: number | null; threshold: number | null; above: string[] };
  latency: { p50: number | null; p95: number | null; maxP95LatencyMs: number | null };
  warnings: string[];
}

const HEADROOM = 2;
const MIN_HEADROOM_MS = 100;
const MARGIN_WITHOUT_PROBES = 0.05;

/** Proposes thresholds from a report of the suite's run (queries in suite order). */
export function proposeThresholds(report: ValidationReport): Calibration {
  const ran = report.query_results.filter((r) => r.status !== 'ERROR');
  const isProbe = (r: (typeof ran)[number]) => (r.query as { expect_match?: boolean }).expect_match === false;
  const probes = ran.filter(isProbe);
  const probeScores = probes.map((r) => r.best_similarity ?? 0);
  const probeMax = probes.length === 0 ? null : Math.max(...probeScores);
  const warnings: string[] = [];
  const errored = report.query_results.length - ran.length;
  if (errored > 0) warnings.push(`${errored} queries could not run; their scores are missing from the evidence`);

  const byCategory = new Map<string, typeof ran>();
  for (const r of ran.filter((q) => !isProbe(q)))
    byCategory.set(r.query_category, [...(byCategory.get(r.query_category) ?? []), r]);
  const categories = [...byCategory]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([category, results]) => {
      const scores = results
        .map((r) => r.best_similarity)
        .filter((s): s is number => s !== null)
        .sort((a, b) => a - b);
      if (scores.length === 0)
        return {
          category,
          queries: results.length,
          scores: null,
          threshold: null,
          basis: 'no query of this category returned a result',
          below: [],
        };
      const p10 = percentile(scores, 10) ?? 0;
      let threshold: number;
      let basis: string;
      if (probeMax === null) {
        threshold = floor2(Math.max(0, p10 - MARGIN_WITHOUT_PROBES));
        basis = `${MARGIN_WITHOUT_PROBES} under the known items' p10 ${fmt(p10)} (no probes to separate from)`;
      } else if (p10 > probeMax) {
        threshold = floor2((p10 + probeMax) / 2);
        if (threshold <= probeMax) threshold = roundTo((p10 + probeMax) / 2, 4);
        basis = `midway between the probes' best ${fmt(probeMax)} and the known items' p10 ${fmt(p10)}`;
      } else {
        threshold = floor2(p10);
        basis = `the known items' p10 ${fmt(p10)}; the probes reach ${fmt(probeMax)}, so no threshold separates them`;
        warnings.push(`${category}: probes score ${fmt(probeMax)}, as high as the known items' p10 ${fmt(p10)}`);
      }
      const below = results.filter((r) => (r.best_similarity ?? 0) < threshold).map((r) => r.id);
      return {
        category,
        queries: results.length,
        scores: { min: scores[0] ?? 0, p10, median: percentile(scores, 50) ?? 0, max: scores.at(-1) ?? 0 },
        threshold,
        basis,
        below,
      };
    });
  const thresholds = categories.map((c) => c.threshold).filter((t): t is number => t !== null);
  const probeThreshold = probes.length === 0 || thresholds.length === 0 ? null : Math.min(...thresholds);
  const above =
    probeThreshold === null ? [] : probes.filter((r) => (r.best_similarity ?? 0) >= probeThreshold).map((r) => r.id);

  const p95 = report.validation_metrics.p95_latency_ms;
  return {
    categories,
    probes: { queries: probes.length, maxScore: probeMax, threshold: probeThreshold, above },
    latency: {
      p50: report.validation_metrics.p50_latency_ms,
      p95,
      maxP95LatencyMs: p95 === null ? null : Math.ceil(Math.max(p95 * HEADROOM, p95 + MIN_HEADROOM_MS) / 10) * 10,
    },
    warnings,
  };
}

/**
 * The suite's raw object with the proposal written in: each query's min_similarity (by its category, probes by
 * theirs), success_criteria.max_p95_latency_ms, and `set_aside` with its reason on each query in setAside.
 * Queries are matched to results by id (a query without one is `q<n>`, its position), so queries already set aside,
 * which the run skipped, keep what they had.
 */
export function applyCalibration(
  raw: Record<string, unknown>,
  report: ValidationReport,
  calibration: Calibration,
  setAside: readonly { id: string; reason: string }[] = [],
): Record<string, unknown> {
  const thresholds = new Map(calibration.categories.map((c) => [c.category, c.threshold]));
  const results = new Map(report.query_results.map((r) => [r.id, r]));
  const reasons = new Map(setAside.map((q) => [q.id, q.reason]));
  const queries = (raw.queries as Record<string, unknown>[]).map((query, i) => {
    const id = typeof query.id === 'string' ? query.id : `q${i + 1}`;
    const result = results.get(id);
    if (result === undefined) return query;
    const probe = (result.query as { expect_match?: boolean }).expect_match === false;
    const threshold = probe ? calibration.probes.threshold : thresholds.get(result.query_category);
    const reason = reasons.get(id);
    return {
      ...query,
      ...(threshold === null || threshold === undefined ? {} : { min_similarity: threshold }),
      ...(reason === undefined ? {} : { set_aside: reason }),
    };
  });
  const criteria = (raw.success_criteria as Record<string, unknown> | undefined) ?? {};
  const budget = calibration.latency.maxP95LatencyMs;
  return {
    ...raw,
    ...(budget === null ? {} : { success_criteria: { ...criteria, max_p95_latency_ms: budget } }),
    queries,
  };
}

// Rounds down to 2 decimals, ignoring float noise: 0.62 - 0.05 is 0.5699999999999999, and its threshold is 0.57.
function floor2(v: number): number {
  return Math.floor(v * 100 + 1e-9) / 100;
}
function fmt(v: number): string {
  return v.toFixed(3);
}
