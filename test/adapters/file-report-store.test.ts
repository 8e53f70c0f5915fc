/** The disk store of the CLI and the demo: the HTML and CSV beside the JSON, and the folder's runs as a trend. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileReportStore } from '../../functions/adapters/file-report-store.ts';
import { buildReportAttachments } from '../../functions/core/report/attachments.ts';
import { buildTrendPoint } from '../../functions/core/report/trend-point.ts';
import { buildFailedReport, buildPassedReport } from '../nightly/fixtures/reports.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ragwatch-store-'));
  dirs.push(dir);
  return dir;
};

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('FileReportStore', () => {
  it('writes the HTML and CSV under the JSON’s name and as latest.html and latest.csv', async () => {
    // Prepare
    const dir = tempDir();
    const report = buildFailedReport();
    const attachments = buildReportAttachments(report);

    // Act
    const saved = await new FileReportStore(dir).save(report, attachments);

    // Assess
    const base = saved.location.replace(/\.json$/, '');
    expect(saved.attachments).toEqual([`${base}.html`, `${base}.csv`]);
    expect(readdirSync(path.join(dir, 'book')).sort()).toEqual(
      [
        path.basename(`${base}.json`),
        path.basename(`${base}.html`),
        path.basename(`${base}.csv`),
        'latest.json',
        'latest.html',
        'latest.csv',
      ].sort(),
    );
    expect(readFileSync(path.join(dir, 'book', 'latest.html'), 'utf8')).toBe(attachments[0]?.body);
  });

  it('reads the headline figures of the folder’s runs, oldest first, skipping a file that is not a report', async () => {
    // Prepare
    const dir = tempDir();
    const store = new FileReportStore(dir);
    const first = {
      ...buildPassedReport(),
      run_id: '11111111-1111-4111-8111-111111111111',
      timestamp: '2026-03-12T02:00:00.000Z',
    };
    const second = {
      ...buildFailedReport(),
      run_id: '22222222-2222-4222-8222-222222222222',
      timestamp: '2026-03-13T02:00:00.000Z',
    };
    await store.save(second);
    await store.save(first);
    writeFileSync(
      path.join(dir, 'book', '2026-03-14T02-00-00-000Z_33333333-3333-4333-8333-333333333333.json'),
      '{"trunc',
    );

    // Act
    const history = await store.readHistory('book');

    // Assess
    expect(history).toEqual([buildTrendPoint(first), buildTrendPoint(second)]);
  });

  it('reads no history for a collection it has never stored', async () => {
    // Act
    const history = await new FileReportStore(tempDir()).readHistory('book');

    // Assess
    expect(history).toEqual([]);
  });
});
