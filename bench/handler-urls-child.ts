/**
 * The real nightly handler in a process of its own, bundled as the Lambda is (bench/handler-urls-bench.ts forks it):
 * the production configuration parser and SDK clients pointed at the stand-ins, and a Lambda context counting down
 * from 600 s. Answers one message with the handler's outcome and the process's peak RSS, then exits, as Lambda
 * freezes the process once the handler settles.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { createAwsClients } from '../functions/adapters/aws/clients.ts';
import { parseNightlyConfig } from '../functions/nightly/config.ts';
import { createNightlyDeps } from '../functions/nightly/deps.ts';
import { createHandler } from '../functions/nightly/handler.ts';
import { redactingLogger } from '../functions/nightly/redacting-logger.ts';
import { STAND_IN_CREDENTIALS, STAND_IN_REGION } from '../sandbox/aws/index.ts';
import { peakRssKb } from './peak-rss.ts';

/** What the child measured. */
export interface HandlerFigures {
  outcome: 'returned' | 'threw';
  status: string | null;
  detail: string;
  wallMs: number;
  baselineRssMb: number;
  /** The process's peak RSS (getrusage ru_maxrss), loading included. */
  peakRssMb: number;
}

const send = process.send?.bind(process);
if (send === undefined) throw new Error('bench/handler-urls-child.ts is forked by the bench');
const rssMb = () => peakRssKb() / 1024;
const baselineRssMb = rssMb();
if (process.env.BENCH_TRACE) {
  const t0 = Date.now();
  setInterval(() => {
    const m = process.memoryUsage();
    process.stderr.write(
      `trace ${Date.now() - t0} rss ${(m.rss / 1e6).toFixed(0)} heap ${(m.heapUsed / 1e6).toFixed(0)} ext ${(m.external / 1e6).toFixed(0)} ab ${(m.arrayBuffers / 1e6).toFixed(0)}\n`,
    );
  }, 250).unref();
}
const started = Date.now();
const clients = createAwsClients({
  region: STAND_IN_REGION,
  credentials: STAND_IN_CREDENTIALS,
  endpoints: JSON.parse(process.env.BENCH_AWS_ENDPOINTS ?? '{}'),
});
// The Lambda's own logger: the production log lines are part of what the process holds.
const logger = redactingLogger(new Logger({ serviceName: 'ragwatch-nightly' }));
let figures: HandlerFigures;
try {
  const handler = createHandler(createNightlyDeps(parseNightlyConfig(process.env), clients, logger));
  const result = await handler(
    { source: 'ragwatch.schedule' },
    { awsRequestId: 'bench', getRemainingTimeInMillis: () => 600_000 - (Date.now() - started) },
  );
  figures = {
    outcome: 'returned',
    status: result.status,
    detail: JSON.stringify(result.sinks).slice(0, 400),
    wallMs: Date.now() - started,
    baselineRssMb,
    peakRssMb: rssMb(),
  };
} catch (error) {
  figures = {
    outcome: 'threw',
    status: null,
    detail: error instanceof Error ? error.message.slice(0, 400) : String(error),
    wallMs: Date.now() - started,
    baselineRssMb,
    peakRssMb: rssMb(),
  };
}
send(figures, () => process.exit(0));
