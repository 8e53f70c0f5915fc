/**
 * The ReportSink port on the local disk, for the CLI and the demo: one file per run plus latest.json, under
 * <dir>/<collection>/, so runs stay comparable side by side. The HTML and CSV attachments go beside the JSON under
 * the same name (and as latest.html, latest.csv). Every file is written then renamed into place. The full URL lists
 * (a streamed attachment) are gzipped as a stream into their file; the latest copies are copies of the dated files.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { copyFile, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { ReportSink, StoredReport } from '../../core/post-run/ports.ts';
import type { ReportAttachment } from '../../core/render/attachments.ts';
import type { RunsPageRow } from '../../core/render/html/runs-page.ts';
import type { ValidationReport } from '../../core/report/report.ts';
import { pathSegment } from '../path-segment.ts';
import { fileSinkError } from './errors.ts';
import { FileRunHistory } from './run-history.ts';

/** Runs on the page of past runs, as in S3. */
const RUNS_PAGE_SIZE = 30;

/** A report archived in the folder: its JSON, and the files written beside it. */
export interface StoredFile extends StoredReport {
  attachments: string[];
}

export class FileReportStore implements ReportSink<StoredFile> {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  /** The dated report and its attachments, then the latest copies. */
  async save(report: ValidationReport, attachments: ReportAttachment[] = []): Promise<StoredFile> {
    const stored = await this.saveArchive(report, attachments);
    await this.saveLatest(report, attachments);
    return stored;
  }

  /** <time>_<run_id>.json and its .html and .csv: the files that must not be lost. */
  async saveArchive(report: ValidationReport, attachments: ReportAttachment[]): Promise<StoredFile> {
    const base = this.#base(report);
    const written: string[] = [];
    await this.#write(report, attachments, async (suffix, body) => {
      await writeAtomically(`${base}${suffix}`, body);
      if (suffix !== '.json') written.push(`${base}${suffix}`);
    });
    return {
      location: `${base}.json`,
      htmlLocation: written.find((file) => file.endsWith('.html')) ?? null,
      attachments: written,
    };
  }

  /**
   * latest.json, latest.html and latest.csv (and latest.urls.json.gz): what a person opens without knowing a run id.
   * Copies of the dated files saveArchive wrote, so nothing is rendered or compressed twice.
   */
  async saveLatest(report: ValidationReport, attachments: ReportAttachment[]): Promise<void> {
    const latest = path.join(this.#folder(report), 'latest');
    const base = this.#base(report);
    try {
      for (const suffix of ['.json', ...attachments.map((a) => a.suffix)]) {
        const tmp = `${latest}${suffix}.${process.pid}.tmp`;
        await copyFile(`${base}${suffix}`, tmp);
        await rename(tmp, `${latest}${suffix}`);
      }
    } catch (error) {
      throw fileSinkError(error);
    }
  }

  /**
   * <collection>/index.html, the page of past runs: the environment's last runs in the folder (read as the history
   * reads them: one listing, at most twice the page's runs read), each linking its HTML report beside the page.
   */
  async saveRunsPage(report: ValidationReport, render: (runs: RunsPageRow[]) => string): Promise<void> {
    const digests = await new FileRunHistory(this.#dir).recentRuns({
      collection: report.collection,
      environment: report.environment,
      before: '9999-12-31T23:59:59.999Z',
      limit: RUNS_PAGE_SIZE,
    });
    const html = (json: string) => json.replace(/\.json$/, '.html');
    const runs = digests.map(
      (d): RunsPageRow => ({
        run_id: d.runId,
        started_at: d.startedAt,
        status: d.status,
        pass_rate: d.metrics.pass_rate ?? null,
        // The HTML beside the JSON, or the JSON itself for a run written with --no-html.
        href: encodeURIComponent(path.basename(existsSync(html(d.location)) ? html(d.location) : d.location)),
      }),
    );
    try {
      await writeAtomically(path.join(this.#folder(report), 'index.html'), render(runs));
    } catch (error) {
      throw fileSinkError(error);
    }
  }

  #base(report: ValidationReport): string {
    return path.join(this.#folder(report), `${report.timestamp.replace(/[:.]/g, '-')}_${report.run_id}`);
  }

  #folder(report: ValidationReport): string {
    return path.join(this.#dir, pathSegment(report.collection));
  }

  /** The report's JSON, then each attachment, through `put`; a failure is translated once (errors.ts). */
  async #write(
    report: ValidationReport,
    attachments: ReportAttachment[],
    put: (suffix: string, body: string | (() => Iterable<string>)) => Promise<void>,
  ): Promise<void> {
    try {
      await mkdir(this.#folder(report), { recursive: true });
      await put('.json', `${JSON.stringify(report, null, 2)}\n`);
      for (const attachment of attachments)
        await put(attachment.suffix, 'body' in attachment ? attachment.body : attachment.pieces);
    } catch (error) {
      throw fileSinkError(error);
    }
  }
}

// Write then rename, so a reader (or a crash) never sees half a report. Pieces are gzipped as a stream.
async function writeAtomically(file: string, body: string | (() => Iterable<string>)): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  if (typeof body === 'string') await writeFile(tmp, body, 'utf8');
  else await pipeline(Readable.from(body()), createGzip(), createWriteStream(tmp));
  await rename(tmp, file);
}
