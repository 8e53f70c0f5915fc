import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildLatestKey, buildReportKey, S3ReportStore } from '../../../functions/adapters/aws/s3-report-store.ts';
import { buildReportAttachments, type StreamedAttachment } from '../../../functions/core/render/attachments.ts';
import { renderReportHtml } from '../../../functions/core/render/html/render-html.ts';
import type { RunsPageRow } from '../../../functions/core/render/html/runs-page.ts';
import { SinkError } from '../../../functions/core/shared/errors.ts';
import { type AwsStandIns, startAwsStandIns } from '../../../sandbox/aws/index.ts';
import { buildErrorReport, buildFailedReport, RUN_ID } from '../../nightly/fixtures/reports.ts';
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
      runsPageKey: 'reports/book/index.html',
      latest: { key: 'reports/book/latest.json', updated: true },
      attachments: [],
    });
    // The run is in its environment's run index too, for the history (s3-run-index.ts).
    expect((await aws.listKeys()).sort()).toEqual(
      [key, 'reports/book/_history/prod.json', 'reports/book/latest.json'].sort(),
    );
    expect(JSON.parse((await aws.readObject('reports/book/_history/prod.json')) ?? 'null')).toEqual({
      runs: [
        {
          key,
          started_at: report.timestamp,
          bytes: Buffer.byteLength(`${JSON.stringify(report, null, 2)}\n`),
          run_id: RUN_ID,
          status: 'FAILED',
          pass_rate: 40,
        },
      ],
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

  /** The full URL lists as render/url-lists.ts hands them over: `urls` URLs of pseudo-random letters. */
  function fullLists(urls: number): StreamedAttachment {
    const url = (i: number) => {
      let seed = i + 1;
      let slug = '';
      while (slug.length < 1_000) {
        seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
        slug += String.fromCharCode(97 + ((seed >>> 16) % 26));
      }
      return `https://b.example/docs/${i}/${slug}`;
    };
    return {
      suffix: '.urls.json.gz',
      contentType: 'application/gzip',
      pieces: function* () {
        yield '{"missing_urls":[';
        for (let i = 0; i < urls; i++) yield `${i === 0 ? '' : ','}${JSON.stringify(url(i))}`;
        yield ']}';
      },
    };
  }

  async function gunzipped(key: string): Promise<{ missing_urls: string[] }> {
    const object = await clients.s3.send(new GetObjectCommand({ Bucket: aws.bucket, Key: key }));
    return JSON.parse(gunzipSync(await (object.Body?.transformToByteArray() ?? new Uint8Array())).toString('utf8'));
  }

  /** The SDK commands `work` sends, in order. */
  async function commandsOf(work: () => Promise<unknown>): Promise<string[]> {
    const wire: string[] = [];
    clients.s3.middlewareStack.add(
      (next, context) => async (args) => {
        wire.push((context.commandName ?? '').replace(/Command$/, ''));
        return next(args);
      },
      { step: 'initialize', name: 'recordCommands' },
    );
    try {
      await work();
    } finally {
      clients.s3.middlewareStack.remove('recordCommands');
    }
    return wire;
  }

  it('gzips the full URL lists as a stream, in 5 MB parts past 5 MB, and copies every object to latest server-side', async () => {
    // Prepare: 15,000 URLs of 1 KB of random letters: about 9 MB of gzip, two parts
    const report = buildFailedReport();
    const store = new S3ReportStore({ client: clients.s3, bucket: aws.bucket });
    const attachments = [...buildReportAttachments(report), fullLists(15_000)];

    // Act
    let stored: Awaited<ReturnType<S3ReportStore['save']>> | undefined;
    const wire = await commandsOf(async () => {
      stored = await store.save(report, attachments);
    });

    // Assess
    const base = `reports/book/2026/03/14/${RUN_ID}`;
    expect(stored?.attachments).toContainEqual({ suffix: '.urls.json.gz', key: `${base}.urls.json.gz`, stored: true });
    expect(wire.filter((c) => c === 'UploadPart')).toHaveLength(2);
    // latest.*: four server-side copies (JSON, HTML, CSV, URL lists), nothing uploaded a second time.
    expect(wire.slice(wire.lastIndexOf('CompleteMultipartUpload') + 1)).toEqual(Array(4).fill('CopyObject'));
    const full = await gunzipped(`${base}.urls.json.gz`);
    expect(full.missing_urls).toHaveLength(15_000);
    expect(full.missing_urls[14_999]).toMatch(/^https:\/\/b\.example\/docs\/14999\/[a-z]{1000}$/);
    expect(await gunzipped('reports/book/latest.urls.json.gz')).toEqual(full);
    expect(await aws.readObject('reports/book/latest.json')).toBe(await aws.readObject(`${base}.json`));
    expect(await aws.readObject('reports/book/latest.html')).toBe(await aws.readObject(`${base}.html`));
    const object = await clients.s3.send(new GetObjectCommand({ Bucket: aws.bucket, Key: `${base}.urls.json.gz` }));
    expect(object.ContentType).toBe('application/gzip');
  });

  it('sends a small gzip of the URL lists as one PutObject, no multipart upload', async () => {
    // Prepare
    const report = buildFailedReport();
    const store = new S3ReportStore({ client: clients.s3, bucket: aws.bucket });

    // Act
    const wire = await commandsOf(() => store.saveArchive(report, { attachments: [fullLists(200)] }));

    // Assess: the report, the run index (read, written), the lists
    expect(wire).toEqual(['PutObject', 'GetObject', 'PutObject', 'PutObject']);
    expect((await gunzipped(`reports/book/2026/03/14/${RUN_ID}.urls.json.gz`)).missing_urls).toHaveLength(200);
  });

  it('reports a failed URL-lists upload as that attachment not stored, and leaves no multipart upload behind', async () => {
    // Prepare: the pieces throw half-way, after the first part went up
    const report = buildFailedReport();
    const store = new S3ReportStore({ client: clients.s3, bucket: aws.bucket });
    const broken: StreamedAttachment = {
      ...fullLists(0),
      pieces: function* () {
        yield* fullLists(10_000).pieces();
        throw new Error('the lists broke');
      },
    };

    // Act
    let stored: Awaited<ReturnType<S3ReportStore['saveArchive']>> | undefined;
    const wire = await commandsOf(async () => {
      stored = await store.saveArchive(report, { attachments: [broken] });
    });

    // Assess
    expect(stored?.attachments).toEqual([
      expect.objectContaining({
        suffix: '.urls.json.gz',
        stored: false,
        reason: expect.stringMatching(/the lists broke/),
      }),
    ]);
    expect(wire).toContain('UploadPart');
    expect(wire.at(-1)).toBe('AbortMultipartUpload');
    expect(wire).not.toContain('CompleteMultipartUpload');
    expect(await aws.listKeys()).not.toContain(`reports/book/2026/03/14/${RUN_ID}.urls.json.gz`);
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
    // The dated report, the run index (read, then written), latest.json: a server-side copy of the dated report.
    expect(
      sent.map((s) => [
        s.headers['content-type'],
        s.headers['x-amz-server-side-encryption'],
        s.headers['x-amz-copy-source'] ?? null,
      ]),
    ).toEqual([
      ['application/json', 'AES256', null],
      [undefined, undefined, null],
      ['application/json', 'AES256', null],
      [undefined, 'AES256', `ragwatch-reports/reports/book/2026/03/14/${RUN_ID}.json`],
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
  it('writes the page of past runs at reports/<collection>/index.html from the run index, newest first', async () => {
    // Prepare: an ERROR night, then a failing one; an entry from before the index kept statuses
    const store = new S3ReportStore({ client: clients.s3, bucket: aws.bucket });
    const error = { ...buildErrorReport(), timestamp: '2026-03-13T02:00:00.000Z', run_id: 'r-error' };
    await store.saveArchive(error);
    const failed = buildFailedReport();
    await store.saveArchive(failed);
    const index = JSON.parse((await aws.readObject('reports/book/_history/prod.json')) ?? '{}') as { runs: object[] };
    index.runs.push({ key: 'reports/book/2026/03/12/r-old.json', started_at: '2026-03-12T02:00:00.000Z', bytes: 9 });
    await clients.s3.send(
      new PutObjectCommand({ Bucket: aws.bucket, Key: 'reports/book/_history/prod.json', Body: JSON.stringify(index) }),
    );
    sent.length = 0;
    let given: RunsPageRow[] = [];

    // Act
    const written = await store.saveRunsPage(
      failed,
      (runs) => {
        given = runs;
        return '<!doctype html><title>runs</title>';
      },
      { link: (key) => `https://console.example/${key}` },
    );

    // Assess
    expect(written).toEqual({ key: 'reports/book/index.html' });
    expect(given).toEqual([
      {
        run_id: RUN_ID,
        started_at: failed.timestamp,
        status: 'FAILED',
        pass_rate: 40,
        href: `https://console.example/reports/book/2026/03/14/${RUN_ID}.html`,
      },
      {
        run_id: 'r-error',
        started_at: '2026-03-13T02:00:00.000Z',
        status: 'ERROR',
        pass_rate: null,
        href: 'https://console.example/reports/book/2026/03/13/r-error.html',
      },
      {
        run_id: 'r-old',
        started_at: '2026-03-12T02:00:00.000Z',
        status: null,
        pass_rate: null,
        href: 'https://console.example/reports/book/2026/03/12/r-old.html',
      },
    ]);
    expect(await aws.readObject('reports/book/index.html')).toBe('<!doctype html><title>runs</title>');
    // Bounded: one read of the index and one write, whatever the bucket holds; no listing.
    expect(sent.map((s) => s.key.replace(/\?.*$/, ''))).toEqual([
      `/${aws.bucket}/reports/book/_history/prod.json`,
      `/${aws.bucket}/reports/book/index.html`,
    ]);
    expect(sent[1]?.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('puts this run first on the page when the run index could not be read', async () => {
    const store = new S3ReportStore({ client: clients.s3, bucket: aws.bucket });
    const report = buildFailedReport();
    let given: RunsPageRow[] = [];
    await store.saveRunsPage(report, (runs) => {
      given = runs;
      return 'x';
    });
    expect(given.map((r) => [r.run_id, r.status, r.href])).toEqual([
      [RUN_ID, 'FAILED', `reports/book/2026/03/14/${RUN_ID}.html`],
    ]);
  });

  it('dates the key by the run’s start in UTC and keeps odd collection names inside the prefix', () => {
    // Act
    const key = buildReportKey({ collection: '../docs v2', timestamp: '2026-01-05T23:59:59-02:00', run_id: 'r1' });

    // Assess
    expect(key).toBe('reports/.._docs_v2/2026/01/06/r1.json');
    expect(buildLatestKey('../docs v2')).toBe('reports/.._docs_v2/latest.json');
  });
});
