/**
 * The replay's world: the sandbox (Qdrant and Cohere stand-ins, the sample book indexed once through the real
 * clients), the AWS stand-ins, and a book server whose sitemap is rewritten every night. Each night starts from
 * the clean world: the collection is rebuilt from the snapshot of the first indexing (through the real Qdrant
 * client), the night's faults and noise are applied, and the real nightly handler runs on a fake clock set to
 * 02:00 UTC of that night.
 */
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SNSClient } from '@aws-sdk/client-sns';
import { QdrantClient } from '@qdrant/js-client-rest';
import type { AwsClients } from '../../functions/adapters/aws/clients.ts';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { createNightlyDeps, type NightlyLogger } from '../../functions/nightly/deps.ts';
import { createHandler } from '../../functions/nightly/handler.ts';
import { type AwsStandIns, STAND_IN_CREDENTIALS, STAND_IN_REGION, startAwsStandIns } from '../aws/index.ts';
import { type BookServer, SAMPLE_BOOK_BASE_URL, SAMPLE_BOOK_DIR, startBookServer } from '../book-server.ts';
import { indexSampleBook, SANDBOX_COLLECTION, type Sandbox, startSandbox } from '../start-sandbox.ts';

const REPLAY_SUITE_PATH = path.join(import.meta.dirname, 'suite.json');

interface SnapshotPoint {
  id: string | number;
  vector: number[];
  payload: Record<string, unknown>;
}

/** What a night's faults may change. */
export interface NightWorld {
  date: string;
  baseUrl: string;
  points: SnapshotPoint[];
  sitemapPaths: string[];
  qdrantDown: boolean;
  /** Share of the points approximate search visits (1: healthy). */
  annVisitFraction: number;
}

export interface DeliveredEmail {
  kind: string;
  track: string;
  severity: string;
  subject: string;
}

interface NightOutcome {
  status: string;
  emails: DeliveredEmail[];
  /** The stored report's regression findings as kind (kind:metric for a metric), for checks; not printed. */
  findings: string[];
}

export interface ReplayWorld {
  /** Runs one night: `shape` applies the night's faults to a fresh copy of the clean world. */
  runNight(options: {
    date: string;
    shape: (world: NightWorld) => void;
    latencyMs: number;
    reindexed: number[];
  }): Promise<NightOutcome>;
  stop(): Promise<void>;
}

const silentLogger: NightlyLogger = { info() {}, warn() {}, error() {}, appendKeys() {} };

/** Starts every stand-in, indexes the sample book once and keeps its points as the clean snapshot. */
export async function startReplayWorld(): Promise<ReplayWorld> {
  const sandbox: Sandbox = await startSandbox();
  await indexSampleBook(sandbox);
  const qdrant = new QdrantClient({ url: sandbox.qdrant.url, checkCompatibility: false });
  const info = await qdrant.getCollection(SANDBOX_COLLECTION);
  const vectors = info.config.params.vectors as { size: number; distance: 'Cosine' };
  const indexes = Object.entries(info.payload_schema ?? {}).map(([field, schema]) => ({
    field,
    type: (schema as { data_type: string }).data_type as 'keyword' | 'integer',
  }));
  const scrolled = await qdrant.scroll(SANDBOX_COLLECTION, { limit: 10_000, with_payload: true, with_vector: true });
  const snapshot: SnapshotPoint[] = scrolled.points.map((p) => ({
    id: p.id,
    vector: p.vector as number[],
    payload: (p.payload ?? {}) as Record<string, unknown>,
  }));
  // The book as indexed, plus the site's two non-doc pages: a clean night's sitemap is exactly what is indexed.
  const indexedPaths = [...new Set(snapshot.map((p) => new URL(String(p.payload.source_url)).pathname))].sort();
  const basePaths = ['/', '/blog', ...indexedPaths];

  const bookDir = await mkdtemp(path.join(tmpdir(), 'ragwatch-replay-book-'));
  await copyFile(path.join(SAMPLE_BOOK_DIR, 'sitemap-index.xml'), path.join(bookDir, 'sitemap-index.xml'));
  const book: BookServer = await startBookServer({ dir: bookDir });
  const aws: AwsStandIns = await startAwsStandIns({ secrets: { 'ragwatch/cohere': sandbox.env.COHERE_API_KEY ?? '' } });
  const clients = buildClients(aws);
  const { COHERE_API_KEY: _fromSecretsManager, ...engineEnv } = sandbox.env;
  const config = parseNightlyConfig({
    ...engineEnv,
    SITEMAP_URL: `${book.url}/sitemap-index.xml`,
    ENVIRONMENT: 'replay',
    REPORT_BUCKET: aws.bucket,
    ALERT_TOPIC_ARN: aws.topicArn,
    COHERE_SECRET_ID: 'ragwatch/cohere',
    SUITE_PATH: REPLAY_SUITE_PATH,
    // Reminders off: the replay counts every email on a fault's later nights as a duplicate, which is what it
    // measures (one email per incident); the reminders' own cadence is tested in test/nightly/incident-alerts.test.ts.
    ALERT_REMINDER_DAYS: '0',
  });
  let delivered = 0;

  async function rebuild(points: SnapshotPoint[]): Promise<void> {
    await qdrant.deleteCollection(SANDBOX_COLLECTION);
    await qdrant.createCollection(SANDBOX_COLLECTION, { vectors });
    for (const { field, type } of indexes)
      await qdrant.createPayloadIndex(SANDBOX_COLLECTION, { field_name: field, field_schema: type, wait: true });
    await qdrant.upsert(SANDBOX_COLLECTION, { wait: true, points });
  }

  return {
    async runNight({ date, shape, latencyMs, reindexed }) {
      sandbox.qdrant.clearFaults();
      sandbox.qdrant.setLatency(0);
      sandbox.qdrant.degradeAnn(1);
      const world: NightWorld = {
        date,
        baseUrl: SAMPLE_BOOK_BASE_URL,
        points: structuredClone(snapshot),
        sitemapPaths: [...basePaths],
        qdrantDown: false,
        annVisitFraction: 1,
      };
      shape(world);
      await rebuild(world.points);
      // Noise: a few chunks re-indexed with the same content, as a nightly re-index of unchanged pages does.
      const same = reindexed.flatMap((i) =>
        world.points[i % world.points.length] ? [world.points[i % world.points.length] as SnapshotPoint] : [],
      );
      if (same.length > 0) await qdrant.upsert(SANDBOX_COLLECTION, { wait: true, points: same });
      await writeFile(path.join(bookDir, 'sitemap.xml'), sitemapXml(world.sitemapPaths));
      sandbox.qdrant.setLatency(latencyMs);
      sandbox.qdrant.degradeAnn(world.annVisitFraction);
      if (world.qdrantDown) sandbox.qdrant.inject({ operationId: 'all', status: 503, times: 1_000_000 });

      const deps = createNightlyDeps(config, clients, silentLogger);
      const t0 = performance.now();
      deps.clock = {
        now: () => new Date(Date.parse(date) + (performance.now() - t0)),
        monotonicMs: () => performance.now(),
      };
      const result = await createHandler(deps)({}, { awsRequestId: `replay-${date}` });
      const alerts = aws.deliveredAlerts().slice(delivered);
      delivered += alerts.length;
      const stored = JSON.parse((await aws.readObject(`reports/${SANDBOX_COLLECTION}/latest.json`)) ?? '{}') as {
        regression?: { findings: { kind: string; metric: string | null }[] };
      };
      return {
        status: result.status,
        findings: [...new Set(stored.regression?.findings.map((f) => (f.metric ? `${f.kind}:${f.metric}` : f.kind)))],
        emails: alerts.map((a) => ({
          kind: a.attributes.alert_kind ?? 'run-alert',
          track: a.attributes.incident_track ?? 'unknown',
          severity: a.attributes.severity ?? '',
          subject: a.subject ?? '',
        })),
      };
    },
    async stop() {
      for (const client of Object.values(clients)) client.destroy();
      await Promise.all([book.stop(), aws.stop(), sandbox.stop()]);
      await rm(bookDir, { recursive: true, force: true });
    },
  };
}

function sitemapXml(paths: string[]): string {
  const urls = paths.map((p) => `  <url><loc>${SAMPLE_BOOK_BASE_URL}${p}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

function buildClients(aws: AwsStandIns): AwsClients {
  const base = (endpoint: string) => ({ endpoint, region: STAND_IN_REGION, credentials: STAND_IN_CREDENTIALS });
  return {
    s3: new S3Client({ ...base(aws.endpoints.s3), forcePathStyle: true }),
    cloudWatch: new CloudWatchClient(base(aws.endpoints.cloudWatch)),
    sns: new SNSClient(base(aws.endpoints.sns)),
    secretsManager: new SecretsManagerClient(base(aws.endpoints.secretsManager)),
  };
}
