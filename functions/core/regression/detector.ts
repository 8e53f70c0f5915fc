/** One interface for every regression detector: what it reads, what it returns (findings, as data). */
import type { Baseline } from '../history/baseline.ts';
import type { RunDigest } from '../history/run-digest.ts';
import type { RegressionFinding } from '../report/regression-report.ts';
import type { ValidationReport } from '../report/report.ts';
import type { UsualSimilarity } from './comparable.ts';

export interface DetectorContext {
  report: ValidationReport;
  /** The run being judged, digested the same way as its history. */
  current: RunDigest;
  /** The same run restricted to the queries it shares with its baseline (comparable.ts), figures recomputed. */
  comparable: RunDigest;
  baseline: Baseline;
  /** Queries set aside as golden-set rot (SUITE_STALE): their failures are not the index's. */
  stale: ReadonlySet<string>;
  /** Queries whose verdict or best similarity flipped back and forth lately (comparable.ts): FLAKY, never a regression. */
  flaky: ReadonlySet<string>;
  /** Of those, the ones flaky by their best similarity (comparable.ts), with the level and band it is judged by. */
  flakySimilarity: ReadonlyMap<string, UsualSimilarity>;
  /** Queries new to the suite (or edited) within the history: no past to regress from. */
  added: ReadonlySet<string>;
}

export type Detector = (context: DetectorContext) => RegressionFinding[];
