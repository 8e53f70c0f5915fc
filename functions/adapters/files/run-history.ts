/**
 * The RunHistory port on the CLI's report folder: <dir>/<collection>/<timestamp>_<run_id>.json, as
 * FileReportStore writes them. The timestamp in the name sorts in time order, so the newest K files are found
 * from one directory listing; at most 2 x K files (of at most 2 MB each; larger ones are skipped) are read.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { digestReport, type RunDigest } from '../../core/history/run-digest.ts';
import type { RunHistory } from '../../core/ports.ts';
import { pathSegment } from '../path-segment.ts';

const REPORT_FILE = /^(\d{4}-\d{2}-\d{2}T[\d-]+Z)_[^/]+\.json$/;

export class FileRunHistory implements RunHistory {
  readonly #dir: string;
  readonly #maxReportBytes: number;

  constructor(dir: string, options: { maxReportBytes?: number } = {}) {
    this.#dir = dir;
    this.#maxReportBytes = options.maxReportBytes ?? 2_000_000;
  }

  async recentRuns(query: Parameters<RunHistory['recentRuns']>[0]): Promise<RunDigest[]> {
    const dir = path.join(this.#dir, pathSegment(query.collection));
    const names = await readdir(dir).catch(() => [] as string[]);
    const beforeStamp = query.before.replace(/[:.]/g, '-');
    const files = names
      .flatMap((name) => {
        const stamp = REPORT_FILE.exec(name)?.[1];
        return stamp !== undefined && stamp < beforeStamp ? [name] : [];
      })
      .sort()
      .reverse()
      .slice(0, 2 * query.limit);
    const found: RunDigest[] = [];
    for (const name of files) {
      if (found.length >= query.limit) break;
      const digest = await this.#read(path.join(dir, name));
      if (digest && digest.environment === query.environment) found.push(digest);
    }
    return found;
  }

  async #read(file: string): Promise<RunDigest | null> {
    try {
      if ((await stat(file)).size > this.#maxReportBytes) return null;
      return digestReport(JSON.parse(await readFile(file, 'utf8')), file);
    } catch {
      return null;
    }
  }
}
