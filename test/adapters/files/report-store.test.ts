/** The disk store of the CLI and the demo: the HTML and CSV beside the JSON. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { FileReportStore } from '../../../functions/adapters/files/report-store.ts';
import { buildReportAttachments, type StreamedAttachment } from '../../../functions/core/render/attachments.ts';
import type { RunsPageRow } from '../../../functions/core/render/html/runs-page.ts';
import { buildErrorReport, buildFailedReport } from '../../nightly/fixtures/reports.ts';

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
});

describe('FileReportStore: the full URL lists', () => {
  it('gzips the streamed lists beside the JSON and copies every dated file to latest', async () => {
    // Prepare
    const dir = tempDir();
    const report = buildFailedReport();
    const lists: StreamedAttachment = {
      suffix: '.urls.json.gz',
      contentType: 'application/gzip',
      pieces: function* () {
        yield '{"missing_urls":[';
        for (let i = 0; i < 3_000; i++) yield `${i === 0 ? '' : ','}"https://b.example/docs/${i}"`;
        yield ']}';
      },
    };

    // Act
    const saved = await new FileReportStore(dir).save(report, [...buildReportAttachments(report), lists]);

    // Assess
    const base = saved.location.replace(/\.json$/, '');
    const full = JSON.parse(gunzipSync(readFileSync(`${base}.urls.json.gz`)).toString('utf8'));
    expect(full.missing_urls).toHaveLength(3_000);
    for (const suffix of ['.json', '.html', '.csv', '.urls.json.gz'])
      expect(readFileSync(path.join(dir, 'book', `latest${suffix}`))).toEqual(readFileSync(`${base}${suffix}`));
    expect(readdirSync(path.join(dir, 'book')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('FileReportStore: the page of past runs', () => {
  it('writes <collection>/index.html from the environment’s runs in the folder, newest first, each linking its report', async () => {
    // Prepare: an ERROR night without HTML, a failing night with it, and a run of another environment
    const dir = tempDir();
    const store = new FileReportStore(dir);
    const error = { ...buildErrorReport(), run_id: 'r-error', timestamp: '2026-03-13T02:00:00.000Z' };
    await store.saveArchive(error, []);
    const failed = buildFailedReport();
    await store.saveArchive(failed, buildReportAttachments(failed));
    const staging = { ...buildFailedReport(), run_id: 'r-staging', environment: 'staging' };
    await store.saveArchive(staging, []);
    let given: RunsPageRow[] = [];

    // Act
    await store.saveRunsPage(failed, (runs) => {
      given = runs;
      return '<!doctype html><title>runs</title>';
    });

    // Assess
    expect(given.map((r) => [r.run_id, r.status, r.pass_rate, r.href])).toEqual([
      [failed.run_id, 'FAILED', 40, `2026-03-14T02-00-00-000Z_${failed.run_id}.html`],
      ['r-error', 'ERROR', 0, '2026-03-13T02-00-00-000Z_r-error.json'],
    ]);
    expect(readFileSync(path.join(dir, 'book', 'index.html'), 'utf8')).toBe('<!doctype html><title>runs</title>');
  });
});
