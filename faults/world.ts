/**
 * Everything the fault matrix runs against, started once: the sandbox (Qdrant and Cohere stand-ins, the sample
 * book indexed, its sitemaps), a fault proxy in front of each service ragwatch talks to (Qdrant, Cohere, and each
 * AWS service), the AWS stand-ins with the API keys in Secrets Manager, a Cohere stand-in of the wrong dimension,
 * a collection of the wrong dimension, and the hostile sitemap server. `reset` puts it back between cases.
 */
import { createServer } from 'node:net';
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
} as const;

const WRONG_DIMENSION_COLLECTION = 'faults-wrong-dimension';
export type AwsService = 's3' | 'sns' | 'cloudWatch' | 'secretsManager';

export interface World {
  sandbox: Sandbox;
  qdrant: FaultProxy;
  cohere: FaultProxy;
  cohereWrongDimension: CohereStandIn;
  aws: AwsStandIns;
  awsProxies: Record<AwsService, FaultProxy>;
  sitemaps: HostileSitemaps;
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
  const [qdrant, cohere, cohereWrongDimension, aws, sitemaps, closedPort] = await Promise.all([
    startFaultProxy(sandbox.qdrant.url),
    startFaultProxy(sandbox.cohere.url),
    startCohereStandIn({ dimensions: 512 }),
    startAwsStandIns({
      secrets: {
        'ragwatch/cohere': SECRETS.cohereKey,
        'ragwatch/qdrant': JSON.stringify({ api_key: SECRETS.qdrantKey }),
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
    },
  };
  return world;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
