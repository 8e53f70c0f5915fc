/**
 * The RunHistory on S3 (through the real SDK to the fauxqs stand-in), over what the S3 report store wrote: the
 * history reads exactly what runs leave behind.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { S3ReportStore } from '../../../functions/adapters/aws/s3-report-store.ts';
import { S3RunHistory } from '../../../functions/adapters/aws/s3-run-history.ts';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import { type AwsStandIns, startAwsStandIns } from '../../../sandbox/aws/index.ts';
import { buildPassedReport } from '../../nightly/fixtures/reports.ts';
import { buildStandInClients, type StandInClients } from '../../nightly/stand-in-clients.ts';

let aws: AwsStandIns;
let clients: StandInClients;
const requests: string[] = [];

/** The passed fixture as run on `day` (UTC date) in `environment`, with its own run id. */
function night(day: string, environment = 'prod', hour = '02'): ValidationReport {
  const n = Number(day.replaceAll('-', '')) % 100_000_000;
  const runId = `00000000-0000-4000-8000-${String(n).padStart(8, '0')}${hour}00`;
  return { ...buildPassedReport(), run_id: runId, timestamp: `${day}T${hour}:00:00.000Z`, environment };
}

beforeAll(async () => {
  aws = await startAwsStandIns();
  clients = buildStandInClients(aws.endpoints, { maxAttempts: 1 });
  clients.s3.middlewareStack.add(
    (next) => async (args) => {
      requests.push((args.request as { method: string }).method);
      return next(args);
    },
    { step: 'finalizeRequest', name: 'countRequests' },
  );
});

afterAll(async () => {
  clients.destroy();
  await aws.stop();
});

beforeEach(() => {
  aws.fauxqs.reset();
  aws.fauxqs.createBucket(aws.bucket);
});

describe('S3RunHistory', () => {
  const query = { collection: 'book', environment: 'prod', limit: 3, before: '2026-03-10T02:00:00.000Z' };

  async function store(...reports: ValidationReport[]) {
    const writer = new S3ReportStore({ client: clients.s3, bucket: aws.bucket });
    for (const report of reports) await writer.save(report);
    requests.length = 0;
  }

  it('lists the last K runs before the given time, newest first, across a month boundary', async () => {
    await store(
      night('2026-02-27'),
      night('2026-02-28'),
      night('2026-03-02'),
      night('2026-03-09'),
      night('2026-03-10'),
    );
    const runs = await new S3RunHistory({ client: clients.s3, bucket: aws.bucket }).recentRuns(query);
    expect(runs.map((r) => r.startedAt.slice(0, 10))).toEqual(['2026-03-09', '2026-03-02', '2026-02-28']);
    expect(runs[0]?.location).toMatch(/^s3:\/\/ragwatch-reports\/reports\/book\/2026\/03\/09\/.+\.json$/);
  });

  it('skips runs of another environment in the same bucket', async () => {
    await store(night('2026-03-07'), night('2026-03-08', 'staging'), night('2026-03-09', 'staging'));
    const runs = await new S3RunHistory({ client: clients.s3, bucket: aws.bucket }).recentRuns(query);
    expect(runs.map((r) => r.environment)).toEqual(['prod']);
  });

  it('reads at most 2 x K reports and lists at most maxMonths prefixes', async () => {
    const days = ['01', '02', '03', '04', '05', '06', '07', '08'].map((d) => night(`2026-03-${d}`, 'staging'));
    await store(...days);
    await new S3RunHistory({ client: clients.s3, bucket: aws.bucket, maxMonths: 2 }).recentRuns(query);
    expect(requests.filter((m) => m === 'GET').length).toBe(2 + 2 * query.limit);
  });

  it('skips a report larger than the byte bound without reading it', async () => {
    await store(night('2026-03-08'), night('2026-03-09'));
    const runs = await new S3RunHistory({ client: clients.s3, bucket: aws.bucket, maxReportBytes: 100 }).recentRuns(
      query,
    );
    expect(runs).toEqual([]);
    // The run index (its entries carry the sizes), then three month listings: no report read.
    expect(requests.length).toBe(4);
  });

  it('finds the newest runs through the run index when 2,100 reports of another environment fill the month', async () => {
    // Prepare: three prod nights late in March, and 2,100 staging reports earlier in the month: S3 lists keys in
    // ascending order, so a listing's 2 pages of 1,000 keys end inside the staging ones, before prod's.
    await store(night('2026-03-06'), night('2026-03-07'), night('2026-03-08'));
    const staging = JSON.stringify({ ...night('2026-03-05', 'staging') });
    const { PutObjectCommand } = await import('@aws-sdk/client-s3');
    for (let i = 0; i < 2_100; i += 100)
      await Promise.all(
        Array.from({ length: 100 }, (_, j) =>
          clients.s3.send(
            new PutObjectCommand({
              Bucket: aws.bucket,
              Key: `reports/book/2026/03/0${1 + ((i + j) % 5)}/0000${String(i + j).padStart(6, '0')}.json`,
              Body: staging,
            }),
          ),
        ),
      );
    requests.length = 0;

    // Act
    const runs = await new S3RunHistory({ client: clients.s3, bucket: aws.bucket }).recentRuns(query);

    // Assess: the three prod runs, newest first, for 1 + 3 requests (the index, then each report), no listing.
    expect(runs.map((r) => [r.environment, r.startedAt.slice(0, 10)])).toEqual([
      ['prod', '2026-03-08'],
      ['prod', '2026-03-07'],
      ['prod', '2026-03-06'],
    ]);
    expect(requests).toEqual(['GET', 'GET', 'GET', 'GET']);
  }, 60_000);

  it('without a run index, still finds what a bounded listing reaches (runs from before the index existed)', async () => {
    // Prepare
    await store(night('2026-03-08'), night('2026-03-09'));
    const { DeleteObjectCommand } = await import('@aws-sdk/client-s3');
    await clients.s3.send(new DeleteObjectCommand({ Bucket: aws.bucket, Key: 'reports/book/_history/prod.json' }));
    requests.length = 0;

    // Act
    const runs = await new S3RunHistory({ client: clients.s3, bucket: aws.bucket }).recentRuns(query);

    // Assess
    expect(runs.map((r) => r.startedAt.slice(0, 10))).toEqual(['2026-03-09', '2026-03-08']);
  });

  it('skips an object that is not a report', async () => {
    await store(night('2026-03-08'));
    await clients.s3.send(
      new (await import('@aws-sdk/client-s3')).PutObjectCommand({
        Bucket: aws.bucket,
        Key: 'reports/book/2026/03/09/garbage.json',
        Body: '{not json',
      }),
    );
    const runs = await new S3RunHistory({ client: clients.s3, bucket: aws.bucket }).recentRuns(query);
    expect(runs.map((r) => r.startedAt.slice(0, 10))).toEqual(['2026-03-08']);
  });
});
