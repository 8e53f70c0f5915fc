import { GetObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildLatestKey, buildReportKey, S3ReportStore } from '../../../functions/adapters/aws/s3-report-store.ts';
import { buildReportAttachments } from '../../../functions/core/render/attachments.ts';
import { renderReportHtml } from '../../../functions/core/render/html/render-html.ts';
import { SinkError } from '../../../functions/core/shared/errors.ts';
import { type AwsStandIns, startAwsStandIns } from '../../../sandbox/aws/index.ts';
import { buildFailedReport, RUN_ID } from '../../nightly/fixtures/reports.ts';
import { buildStandInClients, type StandInClients } from '../../nightly/stand-in-clients.ts';

let aws: AwsStandIns;
let clients: StandInClients;
const sent: { key: string; headers: Record<string, string> }[] = [];

beforeAll(async () => {
  aws = await startAwsStandIns();
  clients = buildStandInClients(aws.endpoints, { maxAttempts: 1 });
  // Observes the signed request as it leaves the SDK: fauxqs ignores SSE headers, so they are checked here.
  clients.s3.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { path: string; headers: Record<string, string> };
      sent.push({ key: decodeURIComponent(request.path), headers: request.headers });
      return next(args);
    },
    { step: 'finalizeRequest', name: 'recordWire' },
  );
});

afterAll(async () => {
  clients.destroy();
  await aws.stop();
});

beforeEach(() => {
  aws.fauxqs.reset();
  sent.length = 0;
});

describe('S3ReportStore', () => {
  it('stores the report at reports/<collection>/<yyyy>/<mm>/<dd>/<run_id>.json and as latest.json', async () => {
    // Prepare
    const report = buildFailedReport();
    const store = new S3ReportStore({ client: clients.s3, bucket: aws.bucket });

    // Act
    const stored = await store.save(report);

    // Assess
    const key = `reports/book/2026/03/14/${RUN_ID}.json`;
    expect(stored).toEqual({
      location: `s3://ragwatch-reports/${key}`,
      htmlLocation: null,
      bucket: 'ragwatch-reports',
      key,
      htmlKey: null,
      latest: { key: 'reports/book/latest.json', updated: true },
      attachments: [],
    });
    // The run is in its environment's run index too, for the history (s3-run-index.ts).
    expect((await aws.listKeys()).sort()).toEqual(
      [key, 'reports/book/_history/prod.json', 'reports/book/latest.json'].sort(),
    );
    expect(JSON.parse((await aws.readObject('reports/book/_history/prod.json')) ?? 'null')).toEqual({
      runs: [{ key, started_at: report.timestamp, bytes: Buffer.byteLength(`${JSON.stringify(report, null, 2)}\n`) }],
    });
  });

  it('puts the HTML and CSV beside the JSON and as latest.html and latest.csv, each with its content type', async () => {
    // Prepare
    const report = buildFailedReport();
    const store = new S3ReportStore({ client: clients.s3, bucket: aws.bucket });

    // Act
    const stored = await store.save(report, buildReportAttachments(report));

    // Assess
    const base = `reports/book/2026/03/14/${RUN_ID}`;
    expect(stored.attachments).toEqual([
      { suffix: '.html', key: `${base}.html`, stored: true },
      { suffix: '.csv', key: `${base}.csv`, stored: true },
    ]);
    expect(stored).toMatchObject({ htmlKey: `${base}.html`, htmlLocation: `s3://ragwatch-reports/${base}.html` });
    for (const [key, type] of [
      [`${base}.html`, 'text/html; charset=utf-8'],
      ['reports/book/latest.html', 'text/html; charset=utf-8'],
      [`${base}.csv`, 'text/csv; charset=utf-8'],
      ['reports/book/latest.csv', 'text/csv; charset=utf-8'],
    ]) {
      const object = await clients.s3.send(new GetObjectCommand({ Bucket: aws.bucket, Key: key }));
      expect(object.ContentType).toBe(type);
    }
    expect(await aws.readObject(`${base}.html`)).toBe(renderReportHtml(report));
  });

  it('stores an object that parses back to the very report', async () => {
    // Prepare
    const report = buildFailedReport();
    const store = new S3ReportStore({ client: clients.s3, bucket: aws.bucket });

    // Act
    const stored = await store.save(report);

    // Assess
    expect(JSON.parse((await aws.readObject(stored.key)) ?? 'null')).toEqual(report);
    expect(JSON.parse((await aws.readObject('reports/book/latest.json')) ?? 'null')).toEqual(report);
  });

  it('sends application/json with S3-managed encryption by default', async () => {
    // Prepare
    const store = new S3ReportStore({ client: clients.s3, bucket: aws.bucket });

    // Act
    await store.save(buildFailedReport());

    // Assess
    // The dated report, the run index (read, then written), latest.json.
    expect(sent.map((s) => [s.headers['content-type'], s.headers['x-amz-server-side-encryption']])).toEqual([
      ['application/json', 'AES256'],
      [undefined, undefined],
      ['application/json', 'AES256'],
      ['application/json', 'AES256'],
    ]);
  });

  it('asks for SSE-KMS with the given key when one is configured', async () => {
    // Prepare
    const kmsKeyId = 'arn:aws:kms:us-east-1:000000000000:key/1234abcd-12ab-34cd-56ef-1234567890ab';
    const store = new S3ReportStore({ client: clients.s3, bucket: aws.bucket, kmsKeyId });

    // Act
    await store.save(buildFailedReport());

    // Assess
    expect(sent[0]?.headers['x-amz-server-side-encryption']).toBe('aws:kms');
    expect(sent[0]?.headers['x-amz-server-side-encryption-aws-kms-key-id']).toBe(kmsKeyId);
  });

  it('reads the previous run’s headline from latest.json, and null before any run', async () => {
    // Prepare
    const store = new S3ReportStore({ client: clients.s3, bucket: aws.bucket });
    const before = await store.readLatest('book');
    await store.save(buildFailedReport());

    // Act
    const after = await store.readLatest('book');

    // Assess
    expect(before).toBeNull();
    expect(after).toEqual({ runId: RUN_ID, status: 'FAILED', startedAt: '2026-03-14T02:00:00.000Z' });
  });

  it('throws a not_found SinkError naming the bucket and key when the bucket does not exist', async () => {
    // Prepare
    const store = new S3ReportStore({ client: clients.s3, bucket: 'no-such-bucket' });

    // Act
    const saving = store.save(buildFailedReport());

    // Assess
    await expect(saving).rejects.toBeInstanceOf(SinkError);
    await expect(saving).rejects.toMatchObject({
      kind: 'not_found',
      status: 404,
      message: expect.stringMatching(
        new RegExp(
          `^S3 PutObject s3://no-such-bucket/reports/book/2026/03/14/${RUN_ID}\\.json failed \\(not_found\\): NoSuchBucket`,
        ),
      ),
    });
  });

  it('throws an unavailable SinkError when nothing listens at the endpoint', async () => {
    // Prepare
    const closed = buildStandInClients({ ...aws.endpoints, s3: 'http://127.0.0.1:9' }, { maxAttempts: 1 });
    const store = new S3ReportStore({ client: closed.s3, bucket: aws.bucket });

    // Act
    const saving = store.save(buildFailedReport());

    // Assess
    await expect(saving).rejects.toMatchObject({ name: 'SinkError', kind: 'unavailable' });
    closed.destroy();
  });
});

describe('report keys', () => {
  it('dates the key by the run’s start in UTC and keeps odd collection names inside the prefix', () => {
    // Act
    const key = buildReportKey({ collection: '../docs v2', timestamp: '2026-01-05T23:59:59-02:00', run_id: 'r1' });

    // Assess
    expect(key).toBe('reports/.._docs_v2/2026/01/06/r1.json');
    expect(buildLatestKey('../docs v2')).toBe('reports/.._docs_v2/latest.json');
  });
});
