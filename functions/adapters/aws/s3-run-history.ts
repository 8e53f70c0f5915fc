/**
 * The RunHistory port on S3: reads the archived reports at reports/<collection>/<yyyy>/<mm>/<dd>/<run_id>.json.
 * The newest runs of an environment are found first through its run index (s3-run-index.ts): one GetObject, then
 * the runs it names, whatever else the bucket holds. When the index is missing or names fewer than K runs (runs
 * from before it existed), the rest are found as before: S3 lists keys in ascending order only, so by listing one
 * month's prefix at a time, from the month of `before` backwards.
 *
 * Cost through the index: 1 GetObject for the index and at most 2 x K for the reports.
 * Cost of the listing fallback,
 * with the defaults (limit K = 14 runs): at most 3 month prefixes x 2 pages of 1,000 keys = 6 ListObjectsV2
 * requests, and at most 2 x K = 28 GetObject requests (a report of another environment in the same bucket is read,
 * then skipped), each of a report no larger than 2 MB (larger ones are skipped unread): 56 MB at the very worst,
 * ~1.5 MB for a 20-query suite. A report that cannot be read or parsed is skipped, never fatal.
 */
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { digestReport, type RunDigest } from '../../core/history/run-digest.ts';
import type { RunHistory } from '../../core/ports.ts';
import { keySegment } from './s3-report-store.ts';
import { readRunIndex, runIndexKey } from './s3-run-index.ts';

export interface S3RunHistoryOptions {
  client: S3Client;
  bucket: string;
  prefix?: string;
  /** Month prefixes listed back from `before` (default 3). */
  maxMonths?: number;
  /** ListObjectsV2 pages per month (default 2, 1,000 keys each). */
  maxPagesPerMonth?: number;
  /** Reports larger than this are skipped unread (default 2 MB). */
  maxReportBytes?: number;
}

const DATED_KEY = /\/(\d{4})\/(\d{2})\/(\d{2})\/[^/]+\.json$/;

interface Candidate {
  key: string;
  day: string;
  modified: number;
}

export class S3RunHistory implements RunHistory {
  readonly #o: Required<Omit<S3RunHistoryOptions, 'client' | 'bucket'>> & S3RunHistoryOptions;

  constructor(options: S3RunHistoryOptions) {
    this.#o = { prefix: 'reports', maxMonths: 3, maxPagesPerMonth: 2, maxReportBytes: 2_000_000, ...options };
  }

  async recentRuns(query: Parameters<RunHistory['recentRuns']>[0]): Promise<RunDigest[]> {
    const { client, bucket, prefix, maxMonths, maxReportBytes } = this.#o;
    const before = new Date(query.before);
    const lastDay = before.toISOString().slice(0, 10);
    const found: RunDigest[] = [];
    const seen = new Set<string>();
    let reads = 0;
    const indexed = await readRunIndex(
      client,
      bucket,
      runIndexKey(prefix, keySegment(query.collection), keySegment(query.environment)),
    );
    for (const entry of indexed ?? []) {
      if (found.length >= query.limit || reads >= 2 * query.limit) break;
      if (entry.started_at >= query.before || entry.bytes > maxReportBytes) continue;
      seen.add(entry.key);
      reads += 1;
      const digest = await this.#read(entry.key);
      if (digest && digest.environment === query.environment && digest.startedAt < query.before) found.push(digest);
    }
    for (let back = 0; back < maxMonths && found.length < query.limit && reads < 2 * query.limit; back += 1) {
      const month = new Date(Date.UTC(before.getUTCFullYear(), before.getUTCMonth() - back, 1));
      const monthPrefix = `${prefix}/${keySegment(query.collection)}/${month.toISOString().slice(0, 7).replace('-', '/')}/`;
      const candidates = (await this.#list(monthPrefix))
        .filter((c) => c.day <= lastDay && !seen.has(c.key))
        .sort((a, b) => b.day.localeCompare(a.day) || b.modified - a.modified);
      for (const candidate of candidates) {
        if (found.length >= query.limit || reads >= 2 * query.limit) break;
        reads += 1;
        const digest = await this.#read(candidate.key);
        if (digest && digest.environment === query.environment && digest.startedAt < query.before) found.push(digest);
      }
    }
    return found.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  }

  async #list(monthPrefix: string): Promise<Candidate[]> {
    const { client, bucket, maxPagesPerMonth, maxReportBytes } = this.#o;
    const out: Candidate[] = [];
    let token: string | undefined;
    for (let page = 0; page < maxPagesPerMonth; page += 1) {
      const listed = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: monthPrefix, ContinuationToken: token }),
      );
      for (const object of listed.Contents ?? []) {
        const match = object.Key ? DATED_KEY.exec(object.Key) : null;
        if (!match || !object.Key || (object.Size ?? 0) > maxReportBytes) continue;
        out.push({
          key: object.Key,
          day: `${match[1]}-${match[2]}-${match[3]}`,
          modified: object.LastModified?.getTime() ?? 0,
        });
      }
      token = listed.NextContinuationToken;
      if (!listed.IsTruncated || !token) break;
    }
    return out;
  }

  async #read(key: string): Promise<RunDigest | null> {
    const { client, bucket } = this.#o;
    try {
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      const text = (await object.Body?.transformToString('utf8')) ?? '';
      return digestReport(JSON.parse(text), `s3://${bucket}/${key}`);
    } catch {
      // One unreadable report costs one point of history, not the run.
      return null;
    }
  }
}
