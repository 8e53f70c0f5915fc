/** The CLI's run history: the newest reports of its folder, read from one directory listing. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FileReportStore } from '../../../functions/adapters/files/report-store.ts';
import { FileRunHistory } from '../../../functions/adapters/files/run-history.ts';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import { asSchemaVersion1 } from '../../helpers/schema-v1-report.ts';
import { buildPassedReport } from '../../nightly/fixtures/reports.ts';

/** The passed fixture as run on `day` (UTC date) in `environment`, with its own run id. */
function night(day: string, environment = 'prod', hour = '02'): ValidationReport {
  const n = Number(day.replaceAll('-', '')) % 100_000_000;
  const runId = `00000000-0000-4000-8000-${String(n).padStart(8, '0')}${hour}00`;
  return { ...buildPassedReport(), run_id: runId, timestamp: `${day}T${hour}:00:00.000Z`, environment };
}

describe('FileRunHistory', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ragwatch-history-'));
    return () => rm(dir, { recursive: true, force: true });
  });
  const query = { collection: 'book', environment: 'prod', limit: 2, before: '2026-03-10T02:00:00.000Z' };

  it('lists the last K runs of the folder before the given time, newest first', async () => {
    const writer = new FileReportStore(dir);
    for (const day of ['2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10']) await writer.save(night(day));
    const runs = await new FileRunHistory(dir).recentRuns(query);
    expect(runs.map((r) => r.startedAt.slice(0, 10))).toEqual(['2026-03-09', '2026-03-08']);
  });

  it('skips reports of another environment, unreadable files and latest.json', async () => {
    const writer = new FileReportStore(dir);
    await writer.save(night('2026-03-07'));
    await writer.save(night('2026-03-08', 'staging'));
    await writeFile(path.join(dir, 'book', '2026-03-09T02-00-00-000Z_broken.json'), '{');
    const runs = await new FileRunHistory(dir).recentRuns(query);
    expect(runs.map((r) => r.startedAt.slice(0, 10))).toEqual(['2026-03-07']);
  });

  it('keeps a report an older ragwatch stored under schema_version 1 in the history, beside newer ones', async () => {
    // Prepare: the night before as version 1 wrote it, the other in version 2
    const writer = new FileReportStore(dir);
    await writer.save(night('2026-03-09'));
    const old = night('2026-03-08');
    await writeFile(
      path.join(dir, 'book', `2026-03-08T02-00-00-000Z_${old.run_id}.json`),
      JSON.stringify(asSchemaVersion1(old)),
    );

    // Act
    const runs = await new FileRunHistory(dir).recentRuns(query);

    // Assess
    expect(runs.map((r) => [r.startedAt.slice(0, 10), r.runId])).toEqual([
      ['2026-03-09', night('2026-03-09').run_id],
      ['2026-03-08', old.run_id],
    ]);
    expect(runs[1]?.metrics.pass_rate).toBe(old.pass_rate);
  });

  it('is empty when the folder has no report yet', async () => {
    expect(await new FileRunHistory(path.join(dir, 'nothing')).recentRuns(query)).toEqual([]);
  });
});
