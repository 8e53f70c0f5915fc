/**
 * The maintenance marker on S3, beside the reports: reports/<collection>/maintenance/<environment>.json, written by
 * an operator before a planned re-index (docs/DEPLOY.md) and judged by core/post-run/maintenance.ts. Read with the
 * permission the function already has on reports/*; a missing object is no window.
 */
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { awsSinkError, classifyAwsError } from './errors.ts';
import { keySegment } from './s3-report-store.ts';

type Key = { collection: string; environment: string };

/** Where the maintenance marker of a collection and environment lives in the bucket. */
export function buildMaintenanceKey(key: Key, prefix = 'reports'): string {
  return `${prefix}/${keySegment(key.collection)}/maintenance/${keySegment(key.environment)}.json`;
}

export class S3MaintenanceMarker {
  readonly #client: S3Client;
  readonly #bucket: string;

  constructor(options: { client: S3Client; bucket: string }) {
    this.#client = options.client;
    this.#bucket = options.bucket;
  }

  /** The marker's s3:// URI, for the messages that name it. */
  uri(key: Key): string {
    return `s3://${this.#bucket}/${buildMaintenanceKey(key)}`;
  }

  /** The marker's text, or undefined when there is none. */
  async read(key: Key, options: { signal?: AbortSignal } = {}): Promise<string | undefined> {
    const objectKey = buildMaintenanceKey(key);
    try {
      const object = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: objectKey }), {
        ...(options.signal ? { abortSignal: options.signal } : {}),
      });
      return (await object.Body?.transformToString('utf8')) ?? '';
    } catch (error) {
      if (classifyAwsError(error).kind === 'not_found') return undefined;
      throw awsSinkError(`S3 GetObject s3://${this.#bucket}/${objectKey} failed`, error);
    }
  }
}
