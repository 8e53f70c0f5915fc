/**
 * A CloudWatch stand-in for PutMetricData, speaking what @aws-sdk/client-cloudwatch 3.11xx actually sends:
 * AWS JSON 1.0 (X-Amz-Target GraniteServiceVersion20100801.PutMetricData), gzip-compressed above 10 KB, with
 * awsQuery-compatible errors. It checks the API's limits the way CloudWatch does, records every datum, and can be
 * told to fail the next calls, or to refuse (400 InvalidParameterValue, the whole call, as CloudWatch does) every call
 * that carries a datum of a given name.
 */
import { AwsJsonError, type JsonRpcServer, type RecordedRequest, startJsonRpcServer } from './json-rpc-server.ts';

interface RecordedDatum {
  namespace: string;
  MetricName: string;
  Dimensions: { Name: string; Value: string }[];
  /** Epoch seconds, as the protocol carries timestamps. */
  Timestamp: number | undefined;
  Unit: string | undefined;
  Value: number | undefined;
  Values: number[] | undefined;
  Counts: number[] | undefined;
}

export interface CloudWatchStandIn {
  endpoint: string;
  /** Every datum accepted, in arrival order. */
  datums: RecordedDatum[];
  /** Every request as it arrived (headers, wire and decoded sizes, body). */
  requests: RecordedRequest[];
  /** Fails the next `times` PutMetricData calls with this status and error type. */
  failNext(times: number, failure?: { status: number; type: string }): void;
  /** Refuses every call carrying a datum named `metricName` as invalid (null: none). */
  refuseMetric(metricName: string | null): void;
  stop(): Promise<void>;
}

const LIMITS = { datums: 1000, values: 150, bytes: 1_048_576, dimensions: 30 };

/** Starts the stand-in on 127.0.0.1 and an ephemeral port. */
export async function startCloudWatchStandIn(): Promise<CloudWatchStandIn> {
  const datums: RecordedDatum[] = [];
  let failures: { times: number; status: number; type: string } = {
    times: 0,
    status: 500,
    type: 'InternalServiceFault',
  };
  let refused: string | null = null;
  const server: JsonRpcServer = await startJsonRpcServer({
    targetPrefix: 'GraniteServiceVersion20100801',
    contentType: 'application/x-amz-json-1.0',
    maxBodyBytes: LIMITS.bytes,
    operations: {
      PutMetricData: (input) => {
        if (failures.times > 0) {
          failures.times -= 1;
          throw new AwsJsonError(failures.status, failures.type, 'injected failure', `${failures.type};Receiver`);
        }
        const valid = validate(input);
        const bad = valid.findIndex((d) => d.MetricName === refused);
        if (bad !== -1) invalid(`MetricData.member.${bad + 1}.Value: refused (injected)`);
        datums.push(...valid);
        return {};
      },
    },
  });
  return {
    endpoint: server.endpoint,
    datums,
    requests: server.requests,
    failNext: (times, failure = { status: 500, type: 'InternalServiceFault' }) => {
      failures = { times, ...failure };
    },
    refuseMetric: (metricName) => {
      refused = metricName;
    },
    stop: server.stop,
  };
}

function invalid(message: string): never {
  throw new AwsJsonError(400, 'InvalidParameterValueException', message, 'InvalidParameterValue;Sender');
}

function validate(input: Record<string, unknown>): RecordedDatum[] {
  const namespace = input.Namespace;
  if (typeof namespace !== 'string' || namespace === '' || namespace.length > 255) invalid('Namespace: 1..255 chars');
  if (namespace.startsWith('AWS/')) invalid('Namespace: the AWS/ prefix is reserved');
  const data = input.MetricData;
  if (!Array.isArray(data) || data.length === 0) invalid('MetricData: required');
  if (data.length > LIMITS.datums) invalid(`MetricData: at most ${LIMITS.datums} datums, got ${data.length}`);
  return data.map((raw: Record<string, unknown>, i) => {
    const at = `MetricData.member.${i + 1}`;
    if (typeof raw.MetricName !== 'string' || raw.MetricName === '') invalid(`${at}.MetricName: required`);
    const dims = (raw.Dimensions ?? []) as { Name: string; Value: string }[];
    if (dims.length > LIMITS.dimensions) invalid(`${at}.Dimensions: at most ${LIMITS.dimensions}`);
    for (const d of dims)
      if (!d.Name || !d.Value || d.Value.length > 1024) invalid(`${at}.Dimensions: name and value 1..1024 chars`);
    const value = raw.Value as unknown;
    const values = raw.Values as unknown[] | undefined;
    const counts = raw.Counts as unknown[] | undefined;
    if (value !== undefined && values !== undefined) invalid(`${at}: Value and Values are mutually exclusive`);
    // Doubles that are not finite travel as the strings "NaN" / "Infinity" in AWS JSON; CloudWatch refuses them.
    for (const v of [value, ...(values ?? []), ...(counts ?? [])])
      if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v)))
        invalid(`${at}: non-finite value ${String(v)}`);
    if (values !== undefined && values.length > LIMITS.values) invalid(`${at}.Values: at most ${LIMITS.values}`);
    if (counts !== undefined && counts.length !== values?.length) invalid(`${at}.Counts: must match Values`);
    return {
      namespace,
      MetricName: raw.MetricName,
      Dimensions: dims,
      Timestamp: raw.Timestamp as number | undefined,
      Unit: raw.Unit as string | undefined,
      Value: value as number | undefined,
      Values: values as number[] | undefined,
      Counts: counts as number[] | undefined,
    };
  });
}
