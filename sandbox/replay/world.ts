/**
 * The replay's world: the sandbox (Qdrant and Cohere stand-ins, the sample book indexed once through the real
 * clients), the AWS stand-ins, and a book server whose sitemap is rewritten every night. Each night starts from
 * the clean world: the collection is rebuilt from the snapshot of the first indexing (through the real Qdrant
 * client), the night's faults and noise are applied, and the real nightly handler runs on a fake clock set to
 * 02:00 UTC of that night.
 */
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SNSClient } from '@aws-sdk/client-sns';
import { QdrantClient } from '@qdrant/js-client-rest';
import type { AwsClients } from '../../functions/adapters/aws/clients.ts';
import { buildIncidentKey } from '../../functions/adapters/aws/s3-incident-store.ts';
import { CohereEmbedder } from '../../functions/adapters/cohere/embedder.ts';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { createNightlyDeps, type NightlyLogger } from '../../functions/nightly/deps.ts';
import { createHandler } from '../../functions/nightly/handler.ts';
import { type AwsStandIns, STAND_IN_CREDENTIALS, STAND_IN_REGION, startAwsStandIns } from '../aws/index.ts';
import { type BookServer, SAMPLE_BOOK_BASE_URL, SAMPLE_BOOK_DIR, startBookServer } from '../book-server.ts';
import {
  indexSampleBook,
  SANDBOX_COHERE_KEY,
  SANDBOX_COLLECTION,
  type Sandbox,
  startSandbox,
} from '../start-sandbox.ts';
import { type NightNoise, scoreNoise } from './noise.ts';

const REPLAY_SUITE_PATH = path.join(import.meta.dirname, 'suite.json');

interface SnapshotPoint {
  id: string | number;
  vector: number[];
  payload: Record<string, unknown>;
}

/** The next `times` requests of one Qdrant operation hang (the stand-in's fault; the client times out). */
export interface QdrantHang {
  operationId: 'query_batch_points' | 'facet' | 'scroll_points' | 'count_points';
  times: number;
}

/** What a night's faults may change. */
export interface NightWorld {
  date: string;
  baseUrl: string;
  points: SnapshotPoint[];
  sitemapPaths: string[];
  qdrantDown: boolean;
  /** Requests that hang until the client's timeout, each the next `times` requests of its operation. */
  qdrantHangs: QdrantHang[];
  /** Operations whose every request of the night answers `delayMs` late. */
  qdrantSlow: { operationId: QdrantHang['operationId']; delayMs: number }[];
  /** Share of the points approximate search visits (1: healthy). */
  annVisitFraction: number;
  /** Every score Qdrant returns is multiplied by this (1: healthy). */
  scoreFactor: number;
  /** The golden suite the night's run reads (a fault may add a query to it). */
  suite: { queries: Record<string, unknown>[] } & Record<string, unknown>;
}

export interface DeliveredEmail {
  kind: string;
  track: string;
  severity: string;
  subject: string;
  /** The email's text, which must name what a fault breaks for the fault to count as detected. */
  body: string;
}

interface NightOutcome {
  status: string;
  emails: DeliveredEmail[];
  /** The stored report's regression findings as kind (kind:metric for a metric), for checks; not printed. */
  findings: string[];
  /** Each query's outcome in the stored report, for the suite's margins and checks; not printed. */
  queries: QueryOutcome[];
  /** The stored report's latency percentiles (ms, each query's share of its batched calls); null without a report. */
  latency: { p50: number | null; p95: number | null; p99: number | null } | null;
  /** On a night with a state event: the incident state object's body just before the run and after it (null: none). */
  incidentState?: { before: string | null; after: string | null };
}

export interface QueryOutcome {
  id: string;
  status: string;
  best_similarity: number | null;
  fail_reason: string | null;
  /** The results as the report lists them (module and score), best first. */
  top_results: { module_name: string | null; similarity_score: number }[];
}

export interface ReplayWorld {
  /** Runs one night: `shape` applies the night's faults to a fresh copy of the clean world. */
  runNight(options: {
    date: string;
    shape: (world: NightWorld) => void;
    latencyMs: number;
    reindexed: number[];
    /** Score noise and the flaky query's bad night, if any. */
    noise: NightNoise;
    /** The incident state corrupted or deleted before the run, or two runs at once (scenario state_events). */
    state?: 'corrupt' | 'deleted' | 'overlap';
  }): Promise<NightOutcome>;
  /** A query's embedding as the run makes it (Cohere stand-in), for the noise model's flaky query. */
  embedQuery(text: string): Promise<number[]>;
  /** Runs the next nights as environment `environment` (its own history and incidents), as a new replay would. */
  startOver(environment: string): Promise<void>;
  /** The clean suite's queries: id, text and expected module. */
  cleanQueries(): { id: string; text: string; module: string }[];
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
  const cleanSuite = JSON.parse(await readFile(REPLAY_SUITE_PATH, 'utf8')) as NightWorld['suite'];
  const suitePath = path.join(bookDir, 'suite.json');
  const embedder = new CohereEmbedder({
    apiKey: SANDBOX_COHERE_KEY,
    baseUrl: sandbox.cohere.url,
    model: 'embed-english-v3.0',
    timeoutMs: 30_000,
  });
  await copyFile(path.join(SAMPLE_BOOK_DIR, 'sitemap-index.xml'), path.join(bookDir, 'sitemap-index.xml'));
  const book: BookServer = await startBookServer({ dir: bookDir });
  const aws: AwsStandIns = await startAwsStandIns({ secrets: { 'ragwatch/cohere': sandbox.env.COHERE_API_KEY ?? '' } });
  const clients = buildClients(aws);
  const { COHERE_API_KEY: _fromSecretsManager, ...engineEnv } = sandbox.env;
  const configFor = (environment: string, bucket: string) =>
    parseNightlyConfig({
      ...engineEnv,
      SITEMAP_URL: `${book.url}/sitemap-index.xml`,
      ENVIRONMENT: environment,
      REPORT_BUCKET: bucket,
      ALERT_TOPIC_ARN: aws.topicArn,
      COHERE_SECRET_ID: 'ragwatch/cohere',
      SUITE_PATH: suitePath,
      // Reminders off: the replay counts every email on a fault's later nights as a duplicate, which is what it
      // measures (one email per incident); the reminders' own cadence is tested in test/nightly/incident-alerts.test.ts.
      ALERT_REMINDER_DAYS: '0',
    });
  let config = configFor('replay', aws.bucket);
  let delivered = 0;

  async function rebuild(points: SnapshotPoint[]): Promise<void> {
    await qdrant.deleteCollection(SANDBOX_COLLECTION);
    await qdrant.createCollection(SANDBOX_COLLECTION, { vectors });
    for (const { field, type } of indexes)
      await qdrant.createPayloadIndex(SANDBOX_COLLECTION, { field_name: field, field_schema: type, wait: true });
    await qdrant.upsert(SANDBOX_COLLECTION, { wait: true, points });
  }

  return {
    async startOver(environment) {
      // A bucket of its own: its own history, incident state and latest report, as a separate deployment has (the
      // latest report and the run index are per collection, so a shared bucket would carry one replay into the next).
      const bucket = `replay-${environment}`
        .toLowerCase()
        .replace(/[^a-z0-9-]/g, '-')
        .slice(0, 63);
      await clients.s3.send(new CreateBucketCommand({ Bucket: bucket }));
      config = configFor(environment, bucket);
    },
    cleanQueries: () =>
      cleanSuite.queries.map((q) => ({
        id: String(q.id),
        text: String(q.query_text),
        module: String(q.expected_module),
      })),
    async embedQuery(text) {
      const { vectors } = await embedder.embedQueries([text]);
      return vectors[0] ?? [];
    },
    async runNight({ date, shape, latencyMs, reindexed, noise, state }) {
      sandbox.qdrant.clearFaults();
      sandbox.qdrant.setLatency(0);
      sandbox.qdrant.degradeAnn(1);
      sandbox.qdrant.perturbScores(null);
      const world: NightWorld = {
        date,
        baseUrl: SAMPLE_BOOK_BASE_URL,
        points: structuredClone(snapshot),
        sitemapPaths: [...basePaths],
        qdrantDown: false,
        qdrantHangs: [],
        qdrantSlow: [],
        annVisitFraction: 1,
        scoreFactor: 1,
        suite: structuredClone(cleanSuite),
      };
      shape(world);
      await writeFile(suitePath, JSON.stringify(world.suite));
      await rebuild(world.points);
      // Noise: a few chunks re-indexed with the same content, as a nightly re-index of unchanged pages does.
      const same = reindexed.flatMap((i) =>
        world.points[i % world.points.length] ? [world.points[i % world.points.length] as SnapshotPoint] : [],
      );
      if (same.length > 0) await qdrant.upsert(SANDBOX_COLLECTION, { wait: true, points: same });
      await writeFile(path.join(bookDir, 'sitemap.xml'), sitemapXml(world.sitemapPaths));
      sandbox.qdrant.setLatency(latencyMs);
      sandbox.qdrant.degradeAnn(world.annVisitFraction);
      sandbox.qdrant.perturbScores(scoreNoise(noise, world.points, world.scoreFactor));
      if (world.qdrantDown) sandbox.qdrant.inject({ operationId: 'all', status: 503, times: 1_000_000 });
      for (const { operationId, times } of world.qdrantHangs) sandbox.qdrant.inject({ operationId, hang: true, times });
      for (const { operationId, delayMs } of world.qdrantSlow)
        sandbox.qdrant.inject({ operationId, delayMs, times: 1_000_000 });

      const stateKey = buildIncidentKey({
        collection: config.engine.collection,
        environment: config.engine.environment,
      });
      if (state === 'corrupt')
        await clients.s3.send(
          new PutObjectCommand({
            Bucket: config.reportBucket,
            Key: stateKey,
            Body: '{"schema_version": "1", "open": {',
          }),
        );
      if (state === 'deleted')
        await clients.s3.send(new DeleteObjectCommand({ Bucket: config.reportBucket, Key: stateKey }));
      const readState = () =>
        clients.s3
          .send(new GetObjectCommand({ Bucket: config.reportBucket, Key: stateKey }))
          .then((o) => o.Body?.transformToString() ?? null)
          .catch(() => null);
      const stateBefore = state === undefined ? null : await readState();
      const t0 = performance.now();
      const run = (id: string) => {
        const deps = createNightlyDeps(config, clients, silentLogger);
        deps.clock = {
          now: () => new Date(Date.parse(date) + (performance.now() - t0)),
          monotonicMs: () => performance.now(),
        };
        return createHandler(deps)({}, { awsRequestId: id });
      };
      // Two runs at once (a retried invocation beside the first): both read the incident state before either writes.
      const [result] = await Promise.all(
        state === 'overlap' ? [run(`replay-${date}`), run(`replay-${date}-again`)] : [run(`replay-${date}`)],
      );
      const alerts = aws.deliveredAlerts().slice(delivered);
      delivered += alerts.length;
      const latest = await clients.s3
        .send(new GetObjectCommand({ Bucket: config.reportBucket, Key: `reports/${SANDBOX_COLLECTION}/latest.json` }))
        .then((o) => o.Body?.transformToString())
        // No latest report: the run could not store one (its status and emails still count).
        .catch(() => undefined);
      const stored = JSON.parse(latest ?? '{}') as {
        regression?: { findings: { kind: string; metric: string | null }[] };
        query_results?: QueryOutcome[];
        validation_metrics?: {
          p50_latency_ms: number | null;
          p95_latency_ms: number | null;
          p99_latency_ms: number | null;
        };
      };
      const figures = stored.validation_metrics;
      return {
        ...(state === undefined ? {} : { incidentState: { before: stateBefore, after: await readState() } }),
        status: result.status,
        latency: figures
          ? { p50: figures.p50_latency_ms, p95: figures.p95_latency_ms, p99: figures.p99_latency_ms }
          : null,
        findings: [...new Set(stored.regression?.findings.map((f) => (f.metric ? `${f.kind}:${f.metric}` : f.kind)))],
        queries: (stored.query_results ?? []).map(({ id, status, best_similarity, fail_reason, top_results }) => ({
          id,
          status,
          best_similarity,
          fail_reason,
          top_results: top_results.map(({ module_name, similarity_score }) => ({ module_name, similarity_score })),
        })),
        emails: alerts.map((a) => ({
          kind: a.attributes.alert_kind ?? 'run-alert',
          track: a.attributes.incident_track ?? 'unknown',
          severity: a.attributes.severity ?? '',
          subject: a.subject ?? '',
          body: a.message,
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
