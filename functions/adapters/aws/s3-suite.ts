/**
 * A suite read from an S3 object (SUITE_S3_URI), validated exactly as a suite file is (core's parseSuiteBytes).
 * A failed read is an InputError naming the object's URI; a bad suite, one naming its key.
 */
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { InputError } from '../../core/shared/errors.ts';
import { parseSuiteBytes, type Suite } from '../../core/suite/suite.ts';
import { abortable } from './clients.ts';
import { classifyAwsError } from './errors.ts';

/** Where the suite object is. */
export interface SuiteObject {
  uri: string;
  bucket: string;
  key: string;
}

/** Reads and validates the suite object; `signal` aborts the read. */
export async function loadSuiteObject(s3: S3Client, object: SuiteObject, signal?: AbortSignal): Promise<Suite> {
  let bytes: Uint8Array;
  try {
    const got = await s3.send(new GetObjectCommand({ Bucket: object.bucket, Key: object.key }), abortable(signal));
    bytes = (await got.Body?.transformToByteArray()) ?? new Uint8Array(0);
  } catch (error) {
    const failure = classifyAwsError(error);
    throw new InputError(object.uri, [`could not be read from S3 (${failure.kind}): ${failure.summary}`]);
  }
  return parseSuiteBytes(bytes, object.key);
}
