/**
 * The IncidentStore port on S3, beside the reports: reports/<collection>/incidents/<environment>.json.
 * The version is the object's ETag; a write names it with If-Match (or If-None-Match: * for the first), so of two
 * runs that read the same state only one can write the next (S3 answers 412 PreconditionFailed, or 409
 * ConditionalRequestConflict while a competing write is in flight, to the other).
 */
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { IncidentStore, VersionedIncidentState } from '../../core/ports.ts';
import type { IncidentState } from '../../core/report/incident-state.ts';
import { awsSinkError, classifyAwsError } from './errors.ts';
import { keySegment } from './s3-report-store.ts';

export interface S3IncidentStoreOptions {
  client: S3Client;
  bucket: string;
  prefix?: string;
  kmsKeyId?: string;
}

type Key = { collection: string; environment: string };

/** Where the incident state of a collection and environment lives in the bucket. */
export function buildIncidentKey(key: Key, prefix = 'reports'): string {
  return `${prefix}/${keySegment(key.collection)}/incidents/${keySegment(key.environment)}.json`;
}

export class S3IncidentStore implements IncidentStore {
  readonly #o: S3IncidentStoreOptions;

  constructor(options: S3IncidentStoreOptions) {
    this.#o = options;
  }

  async read(key: Key): Promise<VersionedIncidentState> {
    const { client, bucket, prefix } = this.#o;
    const objectKey = buildIncidentKey(key, prefix);
    let text: string;
    let version: string | null;
    try {
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey }));
      text = (await object.Body?.transformToString('utf8')) ?? '';
      version = object.ETag ?? null;
    } catch (error) {
      if (classifyAwsError(error).kind === 'not_found') return { state: null, version: null };
      throw awsSinkError(`S3 GetObject s3://${bucket}/${objectKey} failed`, error);
    }
    // A body that is not JSON keeps its ETag: the run that replaces it writes If-Match on it, so the repair is as
    // conditional as any other write (with no version, If-None-Match: * would be refused on every run, forever).
    return { state: parseOrMark(text), version };
  }

  async write(key: Key, state: IncidentState, version: string | null): Promise<string | null> {
    const { client, bucket, prefix, kmsKeyId } = this.#o;
    const objectKey = buildIncidentKey(key, prefix);
    try {
      const put = await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: objectKey,
          Body: `${JSON.stringify(state, null, 2)}\n`,
          ContentType: 'application/json',
          ...(version === null ? { IfNoneMatch: '*' } : { IfMatch: version }),
          ...(kmsKeyId === undefined
            ? { ServerSideEncryption: 'AES256' }
            : { ServerSideEncryption: 'aws:kms', SSEKMSKeyId: kmsKeyId }),
        }),
      );
      return put.ETag ?? '';
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      // 412: the state changed since it was read; 409: another conditional write to it is in flight.
      if (status === 412 || status === 409) return null;
      throw awsSinkError(`S3 PutObject s3://${bucket}/${objectKey} failed`, error);
    }
  }
}

function parseOrMark(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { unparseable: true };
  }
}
