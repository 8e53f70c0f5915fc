/**
 * The per-environment run index: reports/<collection>/_history/<environment>.json, the newest runs of one
 * environment, newest first (at most 100): each run's dated key, start time and size. S3 lists keys in ascending
 * order only and the dated keys do not name the environment, so a month holding thousands of another environment's
 * reports hid a run's own history from a bounded listing (2,100 foreign objects: "first run with figures on
 * record"). With the index, finding the newest K runs costs one GetObject and K reads, whatever else the bucket
 * holds. The report store appends to it after each dated report; a lost index (or a run before it existed) falls
 * back to listing. Overlapping runs may each write it: the later write wins and the other run's entry is lost, which
 * costs one point of history, never a run. Each entry also keeps the run's id, status and pass rate, so the page of
 * past runs (reports/<collection>/index.html) is made from this one object too.
 */
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { abortable } from './clients.ts';

/** Entries kept: several months of nightly runs, far more than any baseline or trend reads. */
const RUN_INDEX_SIZE = 100;

export interface RunIndexEntry {
  key: string;
  started_at: string;
  bytes: number;
  /** For the page of past runs; absent in entries written before it. */
  run_id?: string;
  status?: string;
  /** null where no query completed (an ERROR run). */
  pass_rate?: number | null;
}

/** Its key, from the key segments of the collection and the environment (s3-report-store.ts keySegment). */
export function runIndexKey(prefix: string, collectionSegment: string, environmentSegment: string): string {
  return `${prefix}/${collectionSegment}/_history/${environmentSegment}.json`;
}

/** The index's entries, newest first; null when there is none or it cannot be read (the caller lists instead). */
export async function readRunIndex(
  client: S3Client,
  bucket: string,
  key: string,
  signal?: AbortSignal,
): Promise<RunIndexEntry[] | null> {
  try {
    const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }), abortable(signal));
    const parsed = JSON.parse((await object.Body?.transformToString('utf8')) ?? '') as { runs?: unknown };
    if (!Array.isArray(parsed.runs)) return null;
    return parsed.runs.filter(
      (r): r is RunIndexEntry =>
        typeof r?.key === 'string' && typeof r?.started_at === 'string' && typeof r?.bytes === 'number',
    );
  } catch {
    return null;
  }
}

/** The index with one more run, newest first, the newest RUN_INDEX_SIZE kept, as the object's body. */
export function withRun(current: RunIndexEntry[] | null, entry: RunIndexEntry): string {
  const runs = [entry, ...(current ?? []).filter((r) => r.key !== entry.key)]
    .sort((a, b) => b.started_at.localeCompare(a.started_at))
    .slice(0, RUN_INDEX_SIZE);
  return JSON.stringify({ runs });
}
