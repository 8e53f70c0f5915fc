/**
 * Loads the suite the nightly run uses: the file bundled next to the handler (default), or an S3 object when
 * SUITE_S3_URI is set, then validates it exactly as the CLI does. Any failure is an InputError naming the source.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { classifyAwsError } from '../adapters/aws/errors.ts';
import { InputError } from '../core/errors.ts';
import { parseSuiteBytes, type Suite } from '../core/suite/suite.ts';
import type { SuiteLocation } from './config.ts';

export interface LoadedSuite {
  suite: Suite;
  source: string;
}

/** Reads and validates the suite; `baseDir` anchors a relative path (the Lambda's task root). */
export async function loadSuite(location: SuiteLocation, s3: S3Client, baseDir: string): Promise<LoadedSuite> {
  if (location.kind === 's3') {
    let bytes: Uint8Array;
    try {
      const object = await s3.send(new GetObjectCommand({ Bucket: location.bucket, Key: location.key }));
      bytes = (await object.Body?.transformToByteArray()) ?? new Uint8Array(0);
    } catch (error) {
      const failure = classifyAwsError(error);
      throw new InputError(location.uri, [`could not be read from S3 (${failure.kind}): ${failure.summary}`]);
    }
    return { suite: parseSuiteBytes(bytes, location.key), source: location.uri };
  }
  const file = path.resolve(baseDir, location.path);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new InputError(file, [code === 'ENOENT' ? 'file not found' : `cannot be read (${code ?? 'unknown error'})`]);
  }
  return { suite: parseSuiteBytes(bytes, file), source: location.path };
}
