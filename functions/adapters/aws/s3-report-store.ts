/**
 * The ReportSink port on S3: each run at reports/<collection>/<yyyy>/<mm>/<dd>/<run_id>.json (the archive, which
 * the bucket's lifecycle ages out) and a copy at reports/<collection>/latest.json (what a person opens first).
 * Objects are encrypted at rest by S3 (SSE-S3, or SSE-KMS when a key is given).
 *
 * Memory stays bounded whatever the sitemap: the full URL lists (a streamed attachment) are gzipped as a stream into
 * one 5 MB buffer, sent as a single PutObject when it never fills, else as the parts of a multipart upload, the
 * buffer reused for each; the latest copies are server-side CopyObject calls of the dated objects, never a second
 * upload. (@aws-sdk/lib-storage was tried first: with one part in flight it still held about 70 MB of part buffers
 * at once on the 50,000-URL bench, a fresh Buffer per part left to the garbage collector.)
 */
import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { StoredObject } from '../../core/post-run/emails.ts';
import type { PreviousRun } from '../../core/post-run/ports.ts';
import type { ReportAttachment } from '../../core/render/attachments.ts';
import type { RunsPageRow } from '../../core/render/html/runs-page.ts';
import type { ValidationReport } from '../../core/report/report.ts';
import { pathSegment } from '../path-segment.ts';
import { abortable } from './clients.ts';
import { awsSinkError, classifyAwsError } from './errors.ts';
import { type RunIndexEntry, readRunIndex, runIndexKey, withRun } from './s3-run-index.ts';

export interface S3ReportStoreOptions {
  client: S3Client;
  bucket: string;
  /** Top-level prefix; the IAM policy grants PutObject under it only. */
  prefix?: string;
  /** A KMS key id or ARN for SSE-KMS; SSE-S3 (AES256) when absent. */
  kmsKeyId?: string;
}

/** The archived report: where its JSON is, and what became of each attachment. */
export interface ArchivedReport extends StoredObject {
  /** The HTML and CSV beside the JSON: conveniences, so a failure is reported, not thrown. */
  attachments: (
    | { suffix: string; key: string; stored: true }
    | { suffix: string; key: string; stored: false; reason: string }
  )[];
}

/** The archived report and its latest copy. */
export interface SavedReport extends ArchivedReport {
  /** latest.json is a convenience copy: failing to update it does not lose the report, so it is reported, not thrown. */
  latest: { key: string; updated: true } | { key: string; updated: false; reason: string };
}

/** Where a run's archived report lives in the bucket. */
export function buildReportKey(
  report: Pick<ValidationReport, 'collection' | 'timestamp' | 'run_id'>,
  prefix = 'reports',
): string {
  const day = new Date(report.timestamp);
  const yyyy = String(day.getUTCFullYear());
  const mm = String(day.getUTCMonth() + 1).padStart(2, '0');
  const dd = String(day.getUTCDate()).padStart(2, '0');
  return `${prefix}/${keySegment(report.collection)}/${yyyy}/${mm}/${dd}/${report.run_id}.json`;
}

/** Where the collection's latest report lives in the bucket. */
export function buildLatestKey(collection: string, prefix = 'reports'): string {
  return `${prefix}/${keySegment(collection)}/latest.json`;
}

/** Where the collection's page of past runs lives in the bucket: beside latest.json. */
function buildRunsPageKey(collection: string, prefix = 'reports'): string {
  return `${prefix}/${keySegment(collection)}/index.html`;
}

/** Runs on the page of past runs: a month of nightly runs and then some. */
const RUNS_PAGE_SIZE = 30;

/** Writes reports to S3; failures become SinkError after the SDK's own retries. */
export class S3ReportStore {
  readonly #options: S3ReportStoreOptions;

  constructor(options: S3ReportStoreOptions) {
    this.#options = options;
  }

  /** The dated report and its attachments, then the latest copies; `signal` aborts every put. */
  async save(
    report: ValidationReport,
    attachments: ReportAttachment[] = [],
    options: { signal?: AbortSignal } = {},
  ): Promise<SavedReport> {
    const archived = await this.saveArchive(report, { ...options, attachments });
    const key = buildLatestKey(report.collection, this.#options.prefix);
    try {
      await this.saveLatest(report, { ...options, attachments });
      return { ...archived, latest: { key, updated: true } };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { ...archived, latest: { key, updated: false, reason } };
    }
  }

  /**
   * The dated report (the copy that must not be lost: its failure throws) and its attachments (conveniences: each
   * failure is reported). The handler bounds this apart from the latest copies.
   */
  async saveArchive(
    report: ValidationReport,
    options: { signal?: AbortSignal; attachments?: ReportAttachment[] } = {},
  ): Promise<ArchivedReport> {
    const { bucket, prefix } = this.#options;
    const key = buildReportKey(report, prefix);
    const body = serialise(report);
    await this.#put(key, body, 'application/json', options.signal);
    await this.#index(report, key, Buffer.byteLength(body), options.signal);
    const stored: ArchivedReport['attachments'] = [];
    for (const attachment of options.attachments ?? []) {
      const attachmentKey = key.replace(/\.json$/, attachment.suffix);
      try {
        if ('body' in attachment)
          await this.#put(attachmentKey, attachment.body, attachment.contentType, options.signal);
        else await this.#upload(attachmentKey, attachment.pieces, attachment.contentType, options.signal);
        stored.push({ suffix: attachment.suffix, key: attachmentKey, stored: true });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        stored.push({ suffix: attachment.suffix, key: attachmentKey, stored: false, reason });
      }
    }
    const html = stored.find((a) => a.suffix === '.html' && a.stored);
    return {
      location: `s3://${bucket}/${key}`,
      htmlLocation: html === undefined ? null : `s3://${bucket}/${html.key}`,
      bucket,
      key,
      htmlKey: html === undefined ? null : html.key,
      runsPageKey: buildRunsPageKey(report.collection, prefix),
      attachments: stored,
    };
  }

  /**
   * The run in its environment's run index (s3-run-index.ts), so the history finds it whatever else the month holds.
   * A convenience: its failure leaves the history to list the month instead, so it is not the archive's failure.
   */
  async #index(report: ValidationReport, key: string, bytes: number, signal: AbortSignal | undefined): Promise<void> {
    const { client, bucket, prefix = 'reports' } = this.#options;
    const indexKey = runIndexKey(prefix, keySegment(report.collection), keySegment(report.environment));
    try {
      const current = await readRunIndex(client, bucket, indexKey, signal);
      await this.#put(indexKey, withRun(current, indexEntry(report, key, bytes)), 'application/json', signal);
    } catch {
      // The history lists the month for this run (bounded), as it did before the index existed.
    }
  }

  /**
   * latest.json and its latest.html (and .csv, and the full URL lists) beside it: what a person opens without
   * knowing a run id. Server-side copies of the dated objects (saveArchive's), so nothing is uploaded twice.
   */
  async saveLatest(
    report: ValidationReport,
    options: { signal?: AbortSignal; attachments?: ReportAttachment[] } = {},
  ): Promise<{ key: string }> {
    const { prefix } = this.#options;
    const key = buildLatestKey(report.collection, prefix);
    const dated = buildReportKey(report, prefix);
    await this.#copy(dated, key, options.signal);
    for (const attachment of options.attachments ?? [])
      await this.#copy(
        dated.replace(/\.json$/, attachment.suffix),
        key.replace(/\.json$/, attachment.suffix),
        options.signal,
      );
    return { key };
  }

  /**
   * The page of past runs at reports/<collection>/index.html: the environment's last runs from its run index (one
   * GetObject, whatever else the bucket holds), this run first even when the index could not take it, made into a
   * page by `render`; `link` gives each run's report link from its HTML key (the Lambda: its S3 console page).
   */
  async saveRunsPage(
    report: ValidationReport,
    render: (runs: RunsPageRow[]) => string,
    options: { signal?: AbortSignal; link?: (htmlKey: string) => string } = {},
  ): Promise<{ key: string }> {
    const { client, bucket, prefix = 'reports' } = this.#options;
    const indexKey = runIndexKey(prefix, keySegment(report.collection), keySegment(report.environment));
    const own = indexEntry(report, buildReportKey(report, prefix), 0);
    const indexed = (await readRunIndex(client, bucket, indexKey, options.signal)) ?? [];
    const runs = [own, ...indexed.filter((e) => e.key !== own.key)]
      .sort((a, b) => b.started_at.localeCompare(a.started_at))
      .slice(0, RUNS_PAGE_SIZE)
      .map((e) => runsPageRow(e, options.link ?? ((k) => k)));
    const key = buildRunsPageKey(report.collection, prefix);
    await this.#put(key, render(runs), 'text/html; charset=utf-8', options.signal);
    return { key };
  }

  /** The previous run's headline from latest.json (before this run overwrites it), or null when there is none. */
  async readLatest(collection: string, options: { signal?: AbortSignal } = {}): Promise<PreviousRun | null> {
    const { client, bucket, prefix } = this.#options;
    const key = buildLatestKey(collection, prefix);
    let text: string;
    try {
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }), abortable(options.signal));
      text = (await object.Body?.transformToString('utf8')) ?? '';
    } catch (error) {
      if (classifyAwsError(error).kind === 'not_found') return null;
      throw awsSinkError(`S3 GetObject s3://${bucket}/${key} failed`, error);
    }
    try {
      const previous = JSON.parse(text) as Partial<Record<'run_id' | 'status' | 'timestamp', unknown>>;
      if (
        typeof previous.run_id !== 'string' ||
        typeof previous.status !== 'string' ||
        typeof previous.timestamp !== 'string'
      )
        return null;
      return { runId: previous.run_id, status: previous.status, startedAt: previous.timestamp };
    } catch {
      return null;
    }
  }

  async #put(key: string, body: string, contentType: string, signal: AbortSignal | undefined): Promise<void> {
    const { client, bucket, kmsKeyId } = this.#options;
    try {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          ...encryption(kmsKeyId),
        }),
        abortable(signal),
      );
    } catch (error) {
      throw awsSinkError(`S3 PutObject s3://${bucket}/${key} failed`, error);
    }
  }

  /**
   * The gzip of `pieces`, streamed through one buffer of S3's smallest part (5 MB): never the whole text nor the
   * whole gzip in memory. A failed multipart upload is aborted, so no part is left billed in the bucket.
   */
  async #upload(
    key: string,
    pieces: () => Iterable<string>,
    contentType: string,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const { client, bucket, kmsKeyId } = this.#options;
    const part = Buffer.allocUnsafe(PART_BYTES);
    let filled = 0;
    let uploadId: string | undefined;
    const parts: { ETag: string | undefined; PartNumber: number }[] = [];
    const sendPart = async () => {
      if (uploadId === undefined) {
        const created = await client.send(
          new CreateMultipartUploadCommand({
            Bucket: bucket,
            Key: key,
            ContentType: contentType,
            ...encryption(kmsKeyId),
          }),
          abortable(signal),
        );
        uploadId = created.UploadId;
      }
      const PartNumber = parts.length + 1;
      const sent = await client.send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber,
          Body: part.subarray(0, filled),
        }),
        abortable(signal),
      );
      parts.push({ ETag: sent.ETag, PartNumber });
      filled = 0;
    };
    const gzip = createGzip();
    // pipeline, not pipe: a failure of the pieces destroys the gzip with it, which ends the loop below.
    pipeline(Readable.from(pieces()), gzip, () => undefined);
    try {
      for await (const chunk of gzip as AsyncIterable<Buffer>) {
        for (let at = 0; at < chunk.length; ) {
          const copied = chunk.copy(part, filled, at);
          filled += copied;
          at += copied;
          if (filled === PART_BYTES) await sendPart();
        }
      }
      if (uploadId === undefined) {
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: part.subarray(0, filled),
            ContentType: contentType,
            ...encryption(kmsKeyId),
          }),
          abortable(signal),
        );
        return;
      }
      if (filled > 0) await sendPart();
      await client.send(
        new CompleteMultipartUploadCommand({
          Bucket: bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
        abortable(signal),
      );
    } catch (error) {
      gzip.destroy();
      if (uploadId !== undefined)
        await client
          .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }))
          .catch(() => undefined);
      throw awsSinkError(`S3 upload s3://${bucket}/${key} failed`, error);
    }
  }

  /** A server-side copy within the bucket, encrypted as every object is. */
  async #copy(from: string, to: string, signal: AbortSignal | undefined): Promise<void> {
    const { client, bucket, kmsKeyId } = this.#options;
    try {
      await client.send(
        new CopyObjectCommand({
          Bucket: bucket,
          Key: to,
          CopySource: `${bucket}/${from.split('/').map(encodeURIComponent).join('/')}`,
          ...encryption(kmsKeyId),
        }),
        abortable(signal),
      );
    } catch (error) {
      throw awsSinkError(`S3 CopyObject s3://${bucket}/${from} to ${to} failed`, error);
    }
  }
}

/** A run's entry in the run index: where its report is, and its headline for the page of past runs. */
function indexEntry(report: ValidationReport, key: string, bytes: number): RunIndexEntry {
  const completed = report.passed_queries + report.failed_queries > 0;
  return {
    key,
    started_at: report.timestamp,
    bytes,
    run_id: report.run_id,
    status: report.status,
    pass_rate: report.status !== 'ERROR' && completed ? report.pass_rate : null,
  };
}

const STATUSES: readonly string[] = ['PASSED', 'FAILED', 'ERROR'];

/** An index entry as a row of the runs page; an entry from before the index kept statuses says so (null). */
function runsPageRow(e: RunIndexEntry, link: (htmlKey: string) => string): RunsPageRow {
  return {
    run_id:
      e.run_id ??
      e.key
        .split('/')
        .at(-1)
        ?.replace(/\.json$/, '') ??
      null,
    started_at: e.started_at,
    status: e.status !== undefined && STATUSES.includes(e.status) ? (e.status as RunsPageRow['status']) : null,
    pass_rate: typeof e.pass_rate === 'number' && Number.isFinite(e.pass_rate) ? e.pass_rate : null,
    href: link(e.key.replace(/\.json$/, '.html')),
  };
}

/** S3's smallest part but the last: the one buffer a streamed upload holds. */
const PART_BYTES = 5 * 1024 * 1024;

function encryption(kmsKeyId: string | undefined) {
  return kmsKeyId === undefined
    ? { ServerSideEncryption: 'AES256' as const }
    : { ServerSideEncryption: 'aws:kms' as const, SSEKMSKeyId: kmsKeyId };
}

function serialise(report: ValidationReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

// Keys stay readable and predictable (and inside the IAM prefix) whatever the collection is called.
export function keySegment(name: string): string {
  return pathSegment(name);
}
