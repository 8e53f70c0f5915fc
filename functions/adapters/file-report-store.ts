/**
 * The ReportStore port on the local disk, for the CLI and the demo: one file per run plus latest.json,
 * under <dir>/<collection>/, so runs stay comparable side by side.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ReportStore } from '../core/ports.ts';
import type { ValidationReport } from '../core/report/report.ts';
import { pathSegment } from './path-segment.ts';

export class FileReportStore implements ReportStore {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  async save(report: ValidationReport): Promise<{ location: string }> {
    const dir = path.join(this.#dir, safeSegment(report.collection));
    await mkdir(dir, { recursive: true });
    const stamp = report.timestamp.replace(/[:.]/g, '-');
    const file = path.join(dir, `${stamp}_${report.run_id}.json`);
    const body = `${JSON.stringify(report, null, 2)}\n`;
    await writeAtomically(file, body);
    await writeAtomically(path.join(dir, 'latest.json'), body);
    return { location: file };
  }
}

// Write then rename, so a reader (or a crash) never sees half a report.
async function writeAtomically(file: string, body: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, body, 'utf8');
  await rename(tmp, file);
}

function safeSegment(name: string): string {
  return pathSegment(name);
}
