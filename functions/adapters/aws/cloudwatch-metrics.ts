/**
 * Publishes a report's metric datums to CloudWatch with PutMetricData, in as many calls as the API's limits need
 * (see core/delivery/metric-data.ts). The SDK retries each call. One datum CloudWatch refuses must not take the
 * others with it: RunSucceeded (the heartbeat the alarms read) goes alone in the first call, every call is sent
 * whatever the one before it answered, and a call refused as invalid (400) is split in halves until the datums it
 * refuses are found. What was not published is one SinkError at the end naming those datums, so the run's alert says
 * so; the rest is in CloudWatch.
 */
import { type CloudWatchClient, type MetricDatum, PutMetricDataCommand } from '@aws-sdk/client-cloudwatch';
import { buildMetricData, chunkMetricData } from '../../core/delivery/metric-data.ts';
import type { ValidationReport } from '../../core/report/report.ts';
import { type FailureKind, SinkError } from '../../core/shared/errors.ts';
import { abortable } from './clients.ts';
import { classifyAwsError } from './errors.ts';

export interface CloudWatchMetricsOptions {
  client: CloudWatchClient;
  /** The IAM policy allows PutMetricData in this namespace only. */
  namespace: string;
}

export interface PublishedMetrics {
  namespace: string;
  datums: number;
  calls: number;
}

/**
 * Calls spent at most on splitting refused calls: one bad datum among 30 costs about 10, every datum refused about
 * 60; past the budget the datums left are reported as not published rather than tried one by one.
 */
const SPLIT_CALL_BUDGET = 64;

/** How many refused metric names a message lists. */
const NAMES_LISTED = 10;

/** Sends a report's figures to CloudWatch. */
export class CloudWatchMetrics {
  readonly #options: CloudWatchMetricsOptions;

  constructor(options: CloudWatchMetricsOptions) {
    this.#options = options;
  }

  /** `signal` aborts the remaining calls (the sink's bound, see adapters/bounded.ts). */
  async publish(report: ValidationReport, options: { signal?: AbortSignal } = {}): Promise<PublishedMetrics> {
    const { namespace } = this.#options;
    const datums = buildMetricData(report);
    const heartbeat = datums.filter((d) => d.MetricName === 'RunSucceeded');
    const others = datums.filter((d) => d.MetricName !== 'RunSucceeded');
    const calls = [...(heartbeat.length > 0 ? [heartbeat] : []), ...chunkMetricData(others)];
    const state: PublishState = { calls: 0, published: 0, notSent: [], first: null, stopped: null };
    for (const call of calls) {
      if (state.stopped !== null) state.notSent.push(...call);
      else await this.#send(call, state, options.signal);
    }
    if (state.notSent.length > 0) throw notPublished(namespace, datums.length, state);
    return { namespace, datums: datums.length, calls: state.calls };
  }

  /** Sends one call; a 400 splits it in halves, any other failure stops the publish (the next call would meet it). */
  async #send(call: MetricDatum[], state: PublishState, signal: AbortSignal | undefined): Promise<void> {
    const { client, namespace } = this.#options;
    state.calls += 1;
    try {
      await client.send(new PutMetricDataCommand({ Namespace: namespace, MetricData: call }), abortable(signal));
      state.published += call.length;
      return;
    } catch (error) {
      const failure = classifyAwsError(error);
      state.first ??= { kind: failure.kind, summary: failure.summary, status: failure.status };
      const invalid = failure.kind === 'bad_request' && !signal?.aborted;
      if (invalid && call.length > 1 && state.calls < SPLIT_CALL_BUDGET) {
        const half = Math.ceil(call.length / 2);
        await this.#send(call.slice(0, half), state, signal);
        if (state.stopped === null) await this.#send(call.slice(half), state, signal);
        else state.notSent.push(...call.slice(half));
        return;
      }
      state.notSent.push(...call);
      if (!invalid) state.stopped = failure.summary;
    }
  }
}

interface PublishState {
  calls: number;
  published: number;
  notSent: MetricDatum[];
  /** The first failure: its kind and words are the error's. */
  first: { kind: FailureKind; summary: string; status: number | undefined } | null;
  /** Why the remaining calls were not sent (a failure that is not a refused datum), or null. */
  stopped: string | null;
}

/** "CloudWatch PutMetricData to RagWatch: 1 of 29 datums not published (PassRate) (bad_request): ...; 28 were". */
function notPublished(namespace: string, total: number, state: PublishState): SinkError {
  const names = [...new Set(state.notSent.map((d) => d.MetricName ?? '?'))];
  const listed =
    names.length > NAMES_LISTED
      ? `${names.slice(0, NAMES_LISTED).join(', ')} and ${names.length - NAMES_LISTED} more`
      : names.join(', ');
  const first = state.first ?? { kind: 'unexpected' as const, summary: 'unknown failure', status: undefined };
  return new SinkError(
    `CloudWatch PutMetricData to ${namespace}: ${state.notSent.length} of ${total} datums not published (${listed}) ` +
      `(${first.kind}): ${first.summary}; ${state.published} published in ${state.calls} calls`,
    first.kind,
    { status: first.status },
  );
}
