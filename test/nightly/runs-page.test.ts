/**
 * The page of past runs from the real handler, through the real S3 client against the stand-in: each run writes
 * reports/<collection>/index.html from the run index, with the incidents it left open; a page that cannot be written
 * is logged and the run ends as it would have.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ValidationReport } from '../../functions/core/report/report.ts';
import { SinkError } from '../../functions/core/shared/errors.ts';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { createNightlyDeps, type NightlyDeps } from '../../functions/nightly/deps.ts';
import { createHandler } from '../../functions/nightly/handler.ts';
import { buildErrorReport, buildFailedReport, buildPassedReport } from './fixtures/reports.ts';
import { RecordingLogger } from './recording-logger.ts';
import { useAwsStandIns } from './stand-in-clients.ts';

const SUITE = path.resolve(import.meta.dirname, 'fixtures/suite.json');
const standIns = useAwsStandIns('co-key-for-the-runs-page-test');

/** The handler with a fake engine giving `build()`'s report, started `day` days after the fixtures' night. */
function handlerFor(
  build: () => ValidationReport,
  day: number,
  options: { logger?: RecordingLogger; reportStore?: (deps: NightlyDeps) => NightlyDeps['reportStore'] } = {},
) {
  const config = parseNightlyConfig({
    QDRANT_URL: 'http://127.0.0.1:6333',
    QDRANT_COLLECTION: 'book',
    DOCUSAURUS_BASE_URL: 'https://book.example.org',
    ENVIRONMENT: 'prod',
    REPORT_BUCKET: standIns.aws.bucket,
    ALERT_TOPIC_ARN: standIns.aws.topicArn,
    COHERE_SECRET_ID: 'ragwatch/cohere',
    SUITE_PATH: SUITE,
    AWS_REGION: 'eu-west-1',
  });
  const deps = createNightlyDeps(config, standIns.clients, options.logger ?? new RecordingLogger());
  const runEngine: NightlyDeps['runEngine'] = async (_engine, run) => {
    const report = build();
    report.run_id = run.newId();
    report.validation_metrics.validation_run_id = report.run_id;
    const shift = (iso: string) => new Date(Date.parse(iso) + day * 86_400_000).toISOString();
    report.timestamp = shift(report.timestamp);
    report.finished_at = shift(report.finished_at);
    return report;
  };
  return createHandler({
    ...deps,
    runEngine,
    ...(options.reportStore ? { reportStore: options.reportStore(deps) } : {}),
  });
}

describe('the page of past runs, from the nightly handler', () => {
  it('lists each run newest first with its status, pass rate (n/a for ERROR) and its report’s console page', async () => {
    // Act: three nights
    const ids: string[] = [];
    for (const [day, build] of [buildPassedReport, buildErrorReport, buildFailedReport].entries())
      ids.push((await handlerFor(build, day)({}, { awsRequestId: `req-${day}` })).runId);

    // Assess
    const page = (await standIns.aws.readObject('reports/book/index.html')) ?? '';
    const rows = [
      ...page.matchAll(
        /<tr><td title="([^"]*)">[^<]*<\/td><td><span class="tag \w+">(\w+)<\/span><\/td><td class="num">([^<]*)<\/td><td><a href="([^"]*)"[^>]*>([^<]*)<\/a>/g,
      ),
    ].map((m) => ({
      started: m[1],
      status: m[2],
      passRate: m[3],
      href: (m[4] ?? '').replace(/&amp;/g, '&'),
      id: m[5],
    }));
    expect(rows.map((r) => [r.status, r.passRate, r.id])).toEqual([
      ['FAILED', '40%', ids[2]],
      ['ERROR', 'n/a', ids[1]],
      ['PASSED', '100%', ids[0]],
    ]);
    expect(rows.map((r) => r.started)).toEqual([
      '2026-03-16T02:00:00.000Z',
      '2026-03-15T02:00:00.000Z',
      '2026-03-14T02:00:00.000Z',
    ]);
    const link = new URL(rows[0]?.href ?? '');
    expect(link.origin).toBe('https://eu-west-1.console.aws.amazon.com');
    expect(link.pathname).toBe(`/s3/object/${standIns.aws.bucket}`);
    expect(link.searchParams.get('prefix')).toBe(`reports/book/2026/03/16/${ids[2]}.html`);
    expect(await standIns.aws.readObject(`reports/book/2026/03/16/${ids[2]}.html`)).toContain('<!doctype html>');
  });

  it('shows the incident the failing night opened', async () => {
    // Act
    await handlerFor(buildFailedReport, 0)({}, { awsRequestId: 'req-1' });

    // Assess
    const page = (await standIns.aws.readObject('reports/book/index.html')) ?? '';
    expect(page).toContain('<h2>Open incidents (1)</h2>');
    expect(page).toMatch(
      /<tr><td class="sev \w+">\w+<\/td><td>quality<\/td><td title="2026-03-14T02:00:00.000Z">2026-03-14 02:00<\/td>/,
    );
  });

  it('logs a page S3 would not take, and the run still stores its report and sends its alert', async () => {
    // Prepare: S3 refuses only the page (the stand-in cannot fail one key)
    const logger = new RecordingLogger();
    const handler = handlerFor(buildFailedReport, 0, {
      logger,
      reportStore: (deps) => ({
        saveArchive: (...args) => deps.reportStore.saveArchive(...args),
        saveLatest: (...args) => deps.reportStore.saveLatest(...args),
        readLatest: (...args) => deps.reportStore.readLatest(...args),
        saveRunsPage: async () => {
          throw new SinkError(
            'S3 PutObject s3://ragwatch-reports/reports/book/index.html failed: AccessDenied',
            'unauthorized',
          );
        },
      }),
    });

    // Act
    const result = await handler({}, { awsRequestId: 'req-1' });

    // Assess
    expect(result.sinks.report.ok).toBe(true);
    expect(result.sinks.alert.ok).toBe(true);
    expect(standIns.aws.deliveredAlerts()).toHaveLength(1);
    expect(await standIns.aws.readObject('reports/book/index.html')).toBeUndefined();
    expect(logger.lines.filter((l) => l.message === 'runs page not written').map((l) => l.extra)).toEqual([
      { reason: 'S3 PutObject s3://ragwatch-reports/reports/book/index.html failed: AccessDenied' },
    ]);
  });
});
