/**
 * The use case: one full validation run. (Implementation in progress: the signature is the contract the
 * CLI, the Lambda handler and the benchmark build on.)
 */
import type { Clock, Embedder, ProgressListener, SitemapSource, VectorIndex } from './ports.ts';
import type { ValidationReport } from './report.ts';
import type { Suite } from './suite.ts';

export interface EngineDeps {
  index: VectorIndex;
  embedder: Embedder;
  sitemap: SitemapSource;
  clock: Clock;
  /** A fresh UUID (crypto.randomUUID in production). */
  newId: () => string;
  progress?: ProgressListener;
}

export interface RunOptions {
  suite: Suite;
  /** Where the suite came from (a path or an S3 URI), for the report. */
  suiteSource: string;
  collection: string;
  environment: string;
  requiredFields: string[];
  coveragePathPrefix: string;
  /** Overrides of the suite's defaults and success criteria, from configuration. */
  topK?: number;
  minSimilarity?: number;
  criteria?: { minPassRate?: number; minCoverage?: number; minCompleteness?: number };
  searchConcurrency: number;
}

/** Runs the full validation; never throws for a service failure: the report's status says what happened. */
export async function runValidation(_deps: EngineDeps, _options: RunOptions): Promise<ValidationReport> {
  throw new Error('runValidation: not implemented yet');
}
