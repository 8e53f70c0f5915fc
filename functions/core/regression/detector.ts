/** One interface for every regression detector: what it reads, what it returns (findings, as data). */
import type { Baseline } from '../history/baseline.ts';
import type { RunDigest } from '../history/run-digest.ts';
import type { RegressionFinding } from '../report/regression-report.ts';
import type { ValidationReport } from '../report/report.ts';

export interface DetectorContext {
  report: ValidationReport;
  /** The run being judged, digested the same way as its history. */
  current: RunDigest;
  baseline: Baseline;
  /** Queries set aside as golden-set rot (SUITE_STALE): their failures are not the index's. */
  stale: ReadonlySet<string>;
}

export type Detector = (context: DetectorContext) => RegressionFinding[];
