/**
 * Success criteria for a report built by hand: each figure judged by the declaration of the check that owns its
 * criterion (functions/core/run/checks.ts), as a run would judge it. A figure left undefined is not judged; pass
 * rate, coverage and completeness are always judged (null: could not be computed).
 */

import { judgeCriterion } from '../../functions/core/criteria/criteria.ts';
import type { CriterionResult } from '../../functions/core/report/findings.ts';
import { CHECKS } from '../../functions/core/run/checks.ts';
import type { SuccessCriteria } from '../../functions/core/suite/suite.ts';

const FIGURES = {
  passRate: 'pass_rate',
  coverage: 'coverage',
  completeness: 'completeness',
  mrr: 'mrr',
  p95LatencyMs: 'p95_latency_ms',
  groundedRate: 'grounded_rate',
  abstentionCorrectRate: 'abstention_correct_rate',
  supportRate: 'support_rate',
} as const;

export function judgeFigures(
  options: { passRate: number | null; coverage: number | null; completeness: number | null } & Partial<
    Record<Exclude<keyof typeof FIGURES, 'passRate' | 'coverage' | 'completeness'>, number | null>
  > & { criteria: SuccessCriteria },
): CriterionResult[] {
  const declarations = CHECKS.flatMap((c) => c.criteria);
  return Object.entries(FIGURES).flatMap(([figure, name]) => {
    const value = options[figure as keyof typeof FIGURES];
    const declaration = declarations.find((d) => d.name === name);
    const threshold = declaration ? options.criteria[declaration.threshold] : undefined;
    if (value === undefined || declaration === undefined || threshold === undefined) return [];
    return [
      judgeCriterion({
        name,
        description: declaration.description,
        decimals: declaration.decimals,
        value,
        threshold,
        comparator: declaration.comparator,
        severity: (v) => declaration.severity(v, threshold),
      }),
    ];
  });
}
