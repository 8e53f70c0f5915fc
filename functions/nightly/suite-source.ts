/**
 * Loads the suite the nightly run uses: the file bundled next to the handler (default), or an S3 object when
 * SUITE_S3_URI is set. Both are read by the adapters every root shares (files/suite-file.ts, aws/s3-suite.ts) and
 * validated exactly as the CLI validates them. Any failure is an InputError naming the source.
 */
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { loadSuiteObject } from '../adapters/aws/s3-suite.ts';
import { loadSuiteFile } from '../adapters/files/suite-file.ts';
import type { Suite } from '../core/suite/suite.ts';
import type { SuiteLocation } from './config.ts';

export interface LoadedSuite {
  suite: Suite;
  source: string;
}

/** Reads and validates the suite; `baseDir` anchors a relative path (the Lambda's task root). */
export async function loadSuite(location: SuiteLocation, s3: S3Client, baseDir: string): Promise<LoadedSuite> {
  if (location.kind === 's3') return { suite: await loadSuiteObject(s3, location), source: location.uri };
  return { suite: await loadSuiteFile(path.resolve(baseDir, location.path)), source: location.path };
}
