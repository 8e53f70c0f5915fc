/**
 * The incident state on S3, through the real SDK to fauxqs behind the conditional-PUT proxy (fauxqs alone ignores
 * If-Match / If-None-Match on PutObject). Two runs racing on the same state: one wins.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildIncidentKey, S3IncidentStore } from '../../../functions/adapters/aws/s3-incident-store.ts';
import { settleIncidents } from '../../../functions/core/incident/settle-incidents.ts';
import { emptyState } from '../../../functions/core/report/incident-state.ts';
import { type AwsStandIns, startAwsStandIns } from '../../../sandbox/aws/index.ts';
import { buildFailedReport } from '../../nightly/fixtures/reports.ts';
import { buildStandInClients, type StandInClients } from '../../nightly/stand-in-clients.ts';

let aws: AwsStandIns;
let clients: StandInClients;
const key = { collection: 'book', environment: 'prod' };

beforeAll(async () => {
  aws = await startAwsStandIns();
  clients = buildStandInClients(aws.endpoints, { maxAttempts: 1 });
});

afterAll(async () => {
  clients.destroy();
  await aws.stop();
});

beforeEach(() => {
  aws.fauxqs.reset();
});

describe('the S3 stand-in behind the conditional-PUT proxy', () => {
  it('refuses If-None-Match: * on an existing object with 412, as S3 does', async () => {
    const put = (IfNoneMatch?: string) =>
      clients.s3.send(new PutObjectCommand({ Bucket: aws.bucket, Key: 'k.json', Body: '{}', IfNoneMatch }));
    await put('*');
    await expect(put('*')).rejects.toMatchObject({ name: 'PreconditionFailed', $metadata: { httpStatusCode: 412 } });
  });

  it('refuses If-Match with a stale ETag with 412 and accepts the current one', async () => {
    const first = await clients.s3.send(new PutObjectCommand({ Bucket: aws.bucket, Key: 'k.json', Body: '1' }));
    await clients.s3.send(new PutObjectCommand({ Bucket: aws.bucket, Key: 'k.json', Body: '2', IfMatch: first.ETag }));
    await expect(
      clients.s3.send(new PutObjectCommand({ Bucket: aws.bucket, Key: 'k.json', Body: '3', IfMatch: first.ETag })),
    ).rejects.toMatchObject({ $metadata: { httpStatusCode: 412 } });
    expect(await aws.readObject('k.json')).toBe('2');
  });
});

describe('S3IncidentStore', () => {
  const store = () => new S3IncidentStore({ client: clients.s3, bucket: aws.bucket });

  it('reads nothing, with no version, before any state is stored', async () => {
    expect(await store().read(key)).toEqual({ state: null, version: null });
  });

  it('writes the first state only if none exists, beside the reports', async () => {
    const version = await store().write(key, emptyState('book', 'prod'), null);
    expect(version).toMatch(/^"[0-9a-f]+"$/);
    expect(buildIncidentKey(key)).toBe('reports/book/incidents/prod.json');
    expect(await store().write(key, emptyState('book', 'prod'), null)).toBeNull();
  });

  it('reads a body that is not JSON as unparseable with its ETag, so a write conditional on it can replace it', async () => {
    const put = await clients.s3.send(
      new PutObjectCommand({ Bucket: aws.bucket, Key: buildIncidentKey(key), Body: '{"open": ' }),
    );
    const read = await store().read(key);
    expect(read).toEqual({ state: { unparseable: true }, version: put.ETag });
    expect(await store().write(key, emptyState('book', 'prod'), null)).toBeNull();
    expect(await store().write(key, emptyState('book', 'prod'), read.version)).toMatch(/^"[0-9a-f]+"$/);
    expect((await store().read(key)).state).toEqual(emptyState('book', 'prod'));
  });

  it('refuses a write naming a version that is no longer current', async () => {
    // ETags are content hashes: each write here stores a different state, as successive runs do.
    const first = await store().write(key, emptyState('book', 'prod'), null);
    const second = await store().write(key, emptyState('book', 'night-2'), first);
    expect(second).not.toBeNull();
    expect(await store().write(key, emptyState('book', 'night-3'), first)).toBeNull();
    expect((await store().read(key)).version).toBe(second);
  });

  it('lets only one of two runs racing on the same night send the onset', async () => {
    const report = buildFailedReport();
    let n = 0;
    const settle = () =>
      settleIncidents({ store: store(), report, reportLocation: 's3://b/k.json', newId: () => `id-${++n}` });
    const [a, b] = await Promise.all([settle(), settle()]);
    const notices = [a, b].flatMap((s) => (s.ok ? s.notices.map((x) => x.kind) : ['failed']));
    expect(notices).toEqual(['onset']);
  });
});
