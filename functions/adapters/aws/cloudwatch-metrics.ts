/**
 * Publishes a report's metric datums to CloudWatch with PutMetricData, in as many calls as the API's limits need
 * (see core/delivery/metric-data.ts). The SDK retries each call; a call that still fails becomes a SinkError.
 */
import { type CloudWatchClient, PutMetricDataCommand } from '@aws-sdk/client-cloudwatch';
import { buildMetricData, chunkMetricData } from '../../core/delivery/metric-data.ts';
import type { ValidationReport } from '../../core/report/report.ts';
import { abortable } from './clients.ts';
import { awsSinkError } from './errors.ts';

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

/** Sends a report's figures to CloudWatch. */
export class CloudWatchMetrics {
  readonly #options: CloudWatchMetricsOptions;

  constructor(options: CloudWatchMetricsOptions) {
    this.#options = options;
  }

  /** `signal` aborts the remaining calls (the sink's bound, see adapters/bounded.ts). */
  async publish(report: ValidationReport, options: { signal?: AbortSignal } = {}): Promise<PublishedMetrics> {
    const { client, namespace } = this.#options;
    const datums = buildMetricData(report);
    const calls = chunkMetricData(datums);
    for (const [i, MetricData] of calls.entries()) {
      try {
        await client.send(new PutMetricDataCommand({ Namespace: namespace, MetricData }), abortable(options.signal));
      } catch (error) {
        throw awsSinkError(
          `CloudWatch PutMetricData to ${namespace} failed on call ${i + 1} of ${calls.length}`,
          error,
        );
      }
    }
    return { namespace, datums: datums.length, calls: calls.length };
  }
}
