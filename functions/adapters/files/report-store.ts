/**
 * The ReportStore port on the local disk, for the CLI and the demo: one file per run plus latest.json,
 * under <dir>/<collection>/, so runs stay comparable side by side. The HTML and CSV attachments go beside the
 * JSON under the same name (and as latest.html, latest.csv).
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ReportStore } from '../../core/ports.ts';
import type { ReportAttachment } from '../../core/render/attachments.ts';
import type { ValidationReport } from '../../core/report/report.ts';
import { pathSegment } from '../path-segment.ts';
import { fileSinkError } from './errors.ts';

export class FileReportStore implements ReportStore {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  async save(
    report: ValidationReport,
    attachments: ReportAttachment[] = [],
  ): Promise<{ location: string; attachments: string[] }> {
    try {
      return await this.#save(report, attachments);
    } catch (error) {
      throw fileSinkError(error);
    }
  }

  async #save(
    report: ValidationReport,
    attachments: ReportAttachment[],
  ): Promise<{ location: string; attachments: string[] }> {
    const dir = path.join(this.#dir, safeSegment(report.collection));
    await mkdir(dir, { recursive: true });
    const stamp = report.timestamp.replace(/[:.]/g, '-');
    const base = path.join(dir, `${stamp}_${report.run_id}`);
    const body = `${JSON.stringify(report, null, 2)}\n`;
    await writeAtomically(`${base}.json`, body);
    await writeAtomically(path.join(dir, 'latest.json'), body);
    const written: string[] = [];
    for (const attachment of attachments) {
      await writeAtomically(`${base}${attachment.suffix}`, attachment.body);
      await writeAtomically(path.join(dir, `latest${attachment.suffix}`), attachment.body);
      written.push(`${base}${attachment.suffix}`);
    }
    return { location: `${base}.json`, attachments: written };
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
