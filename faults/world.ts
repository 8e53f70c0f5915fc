/**
 * Everything the fault matrix runs against, started once: the sandbox (Qdrant and Cohere stand-ins, the sample
 * book indexed, its sitemaps), a fault proxy in front of each service ragwatch talks to (Qdrant, Cohere, and each
 * AWS service), the AWS stand-ins with the API keys in Secrets Manager, a Cohere stand-in of the wrong dimension,
 * a collection of the wrong dimension, and the hostile sitemap server. `reset` puts it back between cases.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { QdrantClient } from '@qdrant/js-client-rest';
import { type AwsStandIns, startAwsStandIns } from '../sandbox/aws/index.ts';
import { SAMPLE_BOOK_BASE_URL } from '../sandbox/book-server.ts';
import { type CohereStandIn, startCohereStandIn } from '../sandbox/cohere/index.ts';
import { type FaultProxy, startFaultProxy } from '../sandbox/faults/fault-proxy.ts';
import { indexSampleBook, type Sandbox, seedIndexDrift, startSandbox } from '../sandbox/start-sandbox.ts';
import { type HostileSitemaps, startHostileSitemaps } from './hostile-sitemaps.ts';

/** Distinct fake secrets, so any of them found in an output is a leak, not a coincidence. */
export const SECRETS = {
  cohereKey: 'co-faults-7Hq2xZ9pL4mN',
  qdrantKey: 'qd-faults-K8m3Vt6Rw1sB',
  sitemapPassword: 'sitemap-pass-Zr5Yw2Qe',
  /** In SITEMAP_URL's query string (`?token=`): the run goes on, and the token must be in none of its outputs. */
  sitemapToken: 'tok-faults-Jw4Pq8Zs1X',
  /** A Cohere key pasted with a check mark (U+2713): unusable, and never quoted. */
  pastedKey: 'co-f\u2713ults-Nq3Xv7Ty',
} as const;
/** The Secrets Manager secret that holds the pasted key. */
export const PASTED_KEY_SECRET = 'ragwatch/cohere-pasted';

const WRONG_DIMENSION_COLLECTION = 'faults-wrong-dimension';
/** A collection of the right size whose distance the similarity rules are not defined for. */
export const EUCLID_COLLECTION = 'faults-euclid';
/** Queries in the large suite: one full Cohere embed call of 96 and one of 54. */
export const LARGE_SUITE_QUERIES = 150;
export type AwsService = 's3' | 'sns' | 'cloudWatch' | 'secretsManager';

export interface World {
  sandbox: Sandbox;
  qdrant: FaultProxy;
  cohere: FaultProxy;
  cohereWrongDimension: CohereStandIn;
  aws: AwsStandIns;
  awsProxies: Record<AwsService, FaultProxy>;
  sitemaps: HostileSitemaps;
  /** The sample suite's queries repeated to 150 (no agent questions): more than one embed call. */
  largeSuitePath: string;
  /** Two queries the sample book answers: a PASSED night, for the rows about what a clean night must still say. */
  passingSuitePath: string;
  /** A loopback port nothing listens on: a service that is down. */
  closedPort: number;
  /** The CLI's environment for a normal run. */
  cliEnv(): Record<string, string>;
  /** The Lambda's environment for a normal run (keys in Secrets Manager). */
  lambdaEnv(): Record<string, string>;
  reset(): void;
  stop(): Promise<void>;
}

export async function startWorld(): Promise<World> {
  const sandbox = await startSandbox();
  await indexSampleBook(sandbox);
  await seedIndexDrift(sandbox);
  const client = new QdrantClient({ url: sandbox.qdrant.url, checkCompatibility: false });
  await client.createCollection(WRONG_DIMENSION_COLLECTION, { vectors: { size: 8, distance: 'Cosine' } });
  await client.createCollection(EUCLID_COLLECTION, { vectors: { size: 1024, distance: 'Euclid' } });
  const suiteDir = mkdtempSync(path.join(tmpdir(), 'ragwatch-faults-suite-'));
  const largeSuitePath = path.join(suiteDir, 'large-suite.json');
  writeFileSync(largeSuitePath, JSON.stringify(largeSuite()));
  const passingSuitePath = path.join(suiteDir, 'passing-suite.json');
  writeFileSync(passingSuitePath, JSON.stringify(PASSING_SUITE));
  const [qdrant, cohere, cohereWrongDimension, aws, sitemaps, closedPort] = await Promise.all([
    startFaultProxy(sandbox.qdrant.url),
    startFaultProxy(sandbox.cohere.url),
    startCohereStandIn({ dimensions: 512 }),
    startAwsStandIns({
      secrets: {
        'ragwatch/cohere': SECRETS.cohereKey,
        'ragwatch/qdrant': JSON.stringify({ api_key: SECRETS.qdrantKey }),
        [PASTED_KEY_SECRET]: SECRETS.pastedKey,
      },
    }),
    startHostileSitemaps(),
    freePort(),
  ]);
  const awsProxies = {
    s3: await startFaultProxy(aws.endpoints.s3),
    sns: await startFaultProxy(aws.endpoints.sns),
    cloudWatch: await startFaultProxy(aws.endpoints.cloudWatch),
    secretsManager: await startFaultProxy(aws.endpoints.secretsManager),
  };
  const engineEnv = () => ({
    QDRANT_URL: qdrant.url,
    QDRANT_COLLECTION: 'book',
    COHERE_BASE_URL: cohere.url,
    DOCUSAURUS_BASE_URL: SAMPLE_BOOK_BASE_URL,
    SITEMAP_URL: `${sandbox.book.url}/sitemap-index.xml`,
    ENVIRONMENT: 'faults',
    NO_COLOR: '1',
  });
  const world: World = {
    sandbox,
    qdrant,
    cohere,
    cohereWrongDimension,
    aws,
    awsProxies,
    sitemaps,
    largeSuitePath,
    passingSuitePath,
    closedPort,
    cliEnv: () => ({ ...engineEnv(), COHERE_API_KEY: SECRETS.cohereKey, QDRANT_API_KEY: SECRETS.qdrantKey }),
    lambdaEnv: () => ({
      ...engineEnv(),
      REPORT_BUCKET: aws.bucket,
      ALERT_TOPIC_ARN: aws.topicArn,
      COHERE_SECRET_ID: 'ragwatch/cohere',
      QDRANT_SECRET_ID: 'ragwatch/qdrant',
      AWS_REGION: 'us-east-1',
      AWS_LAMBDA_LOG_GROUP_NAME: '/aws/lambda/ragwatch-nightly',
      FAULTS_AWS_ENDPOINTS: JSON.stringify(
        Object.fromEntries(Object.entries(awsProxies).map(([name, proxy]) => [name, proxy.url])),
      ),
    }),
    reset: () => {
      for (const proxy of [qdrant, cohere, ...Object.values(awsProxies)]) {
        proxy.setFault({ kind: 'pass' });
        proxy.resetCount();
      }
      aws.fauxqs.reset();
      aws.cloudWatch.datums.length = 0;
      aws.cloudWatch.refuseMetric(null);
      sitemaps.resetCounts();
    },
    stop: async () => {
      const proxies = [qdrant, cohere, ...Object.values(awsProxies)];
      await Promise.all([
        ...proxies.map((p) => p.stop()),
        cohereWrongDimension.stop(),
        aws.stop(),
        sitemaps.stop(),
        sandbox.stop(),
      ]);
      rmSync(suiteDir, { recursive: true, force: true });
    },
  };
  return world;
}

const PASSING_SUITE = {
  name: 'passing',
  defaults: { min_similarity: 0.2 },
  // The world's index is seeded with rot on purpose (seedIndexDrift): a clean night here is one whose bars allow it.
  success_criteria: {
    min_coverage: 0,
    max_orphan_urls: 1000,
    min_completeness: 0,
    max_stale_chunk_pages: 1000,
    max_missing_chunk_pages: 1000,
    max_stale_pages: 1000,
    max_embedding_models: 10,
    min_canary_cosine: -1,
    min_ann_recall: 0,
    max_filter_violations: 1000,
  },
  queries: [
    { id: 'vslam', query_text: 'What is visual SLAM in Isaac ROS?', expected_module: 'Module 3 Nvidia Isaac' },
    { id: 'unity', query_text: 'Why use Unity for human-robot interaction?', expected_module: 'Module 2 Digital Twin' },
  ],
};

function largeSuite() {
  const sample = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'sandbox', 'suite.json'), 'utf8')) as {
    queries: { id: string; agent?: boolean }[];
  };
  const queries = Array.from({ length: LARGE_SUITE_QUERIES }, (_, i) => {
    const { agent: _agent, ...query } = sample.queries[i % sample.queries.length] as { id: string; agent?: boolean };
    return { ...query, id: `${query.id}-${i}` };
  });
  return { ...sample, queries };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
