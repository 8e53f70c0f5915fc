/**
 * Local AWS for the nightly Lambda's tests: fauxqs for S3 and SNS (REST-XML and Query protocols), and this
 * folder's CloudWatch (AWS JSON 1.0) and Secrets Manager (AWS JSON 1.1) stand-ins, all on 127.0.0.1 and
 * ephemeral ports. An SQS queue subscribed to the topic receives what an email subscriber would, as SNS's
 * JSON envelope (Subject, Message, MessageAttributes), so tests read alerts exactly as SNS delivered them.
 */
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { type FauxqsServer, startFauxqs } from 'fauxqs';
import { type CloudWatchStandIn, startCloudWatchStandIn } from './cloudwatch.ts';
import { type ConditionalPutProxy, startConditionalPutProxy } from './conditional-put.ts';
import { type SecretsManagerStandIn, startSecretsManagerStandIn } from './secrets-manager.ts';

export { type CloudWatchStandIn, startCloudWatchStandIn } from './cloudwatch.ts';
export { type SecretsManagerStandIn, startSecretsManagerStandIn } from './secrets-manager.ts';

export const STAND_IN_REGION = 'us-east-1';
/** Dummy credentials: the stand-ins check that requests are SigV4-signed, not by whom. */
export const STAND_IN_CREDENTIALS = { accessKeyId: 'AKIDSTANDIN', secretAccessKey: 'stand-in-secret' };

/** An alert as an SNS subscriber received it. */
interface DeliveredAlert {
  subject: string | undefined;
  message: string;
  attributes: Record<string, string>;
}

export interface AwsStandIns {
  bucket: string;
  topicArn: string;
  fauxqs: FauxqsServer;
  /** In front of fauxqs for S3: enforces If-Match / If-None-Match on PutObject, which fauxqs ignores. */
  s3Proxy: ConditionalPutProxy;
  cloudWatch: CloudWatchStandIn;
  secretsManager: SecretsManagerStandIn;
  /** SDK client settings per service: endpoint, region, dummy credentials (and path-style S3). */
  endpoints: { s3: string; sns: string; cloudWatch: string; secretsManager: string };
  /** The object's text, or undefined when it does not exist. */
  readObject(key: string): Promise<string | undefined>;
  /** The object's bytes (a gzip attachment), or undefined when it does not exist. */
  readObjectBytes(key: string): Promise<Uint8Array | undefined>;
  listKeys(): Promise<string[]>;
  deliveredAlerts(): DeliveredAlert[];
  stop(): Promise<void>;
}

/** Starts every AWS stand-in the nightly Lambda talks to, with its bucket, topic and secrets in place. */
export async function startAwsStandIns(
  options: { bucket?: string; topic?: string; secrets?: Record<string, string> } = {},
): Promise<AwsStandIns> {
  const bucket = options.bucket ?? 'ragwatch-reports';
  const topic = options.topic ?? 'ragwatch-alerts';
  const inbox = `${topic}-inbox`;
  const fauxqs = await startFauxqs({ port: 0, logger: false, host: '127.0.0.1', defaultRegion: STAND_IN_REGION });
  fauxqs.createBucket(bucket);
  const { topicArn } = fauxqs.createTopic(topic);
  fauxqs.createQueue(inbox);
  fauxqs.subscribe({ topic, queue: inbox });
  const s3Proxy = await startConditionalPutProxy(fauxqs.address);
  const cloudWatch = await startCloudWatchStandIn();
  const secretsManager = await startSecretsManagerStandIn(options.secrets);
  const s3 = new S3Client({
    endpoint: fauxqs.address,
    region: STAND_IN_REGION,
    credentials: STAND_IN_CREDENTIALS,
    forcePathStyle: true,
  });
  return {
    bucket,
    topicArn,
    fauxqs,
    s3Proxy,
    cloudWatch,
    secretsManager,
    endpoints: {
      s3: s3Proxy.url,
      sns: fauxqs.address,
      cloudWatch: cloudWatch.endpoint,
      secretsManager: secretsManager.endpoint,
    },
    readObject: async (key) => {
      try {
        const result = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return await result.Body?.transformToString('utf8');
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
    readObjectBytes: async (key) => {
      try {
        const result = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return await result.Body?.transformToByteArray();
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
    listKeys: async () => {
      const result = await s3.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (result.Contents ?? []).map((o) => o.Key ?? '').sort();
    },
    deliveredAlerts: () => {
      const queue = fauxqs.inspectQueue(inbox);
      return (queue?.messages.ready ?? []).map((m) => toAlert(m.body));
    },
    stop: async () => {
      s3.destroy();
      await Promise.all([s3Proxy.stop(), fauxqs.stop(), cloudWatch.stop(), secretsManager.stop()]);
    },
  };
}

function toAlert(envelopeText: string): DeliveredAlert {
  const envelope = JSON.parse(envelopeText) as {
    Subject?: string;
    Message: string;
    MessageAttributes?: Record<string, { Type: string; Value: string }>;
  };
  return {
    subject: envelope.Subject,
    message: envelope.Message,
    attributes: Object.fromEntries(Object.entries(envelope.MessageAttributes ?? {}).map(([k, v]) => [k, v.Value])),
  };
}
