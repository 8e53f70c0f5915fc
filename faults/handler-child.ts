/**
 * The real nightly handler in a process of its own: the production configuration parser, the production SDK
 * clients (createAwsClients: the same timeouts) pointed at the fault proxies, Powertools' logger on stdout, and a
 * Lambda context whose remaining time counts down from FAULTS_LAMBDA_TIMEOUT_MS. Lambda freezes the process once
 * the handler settles, so this one exits then, after writing the outcome and peak RSS to FAULTS_OUT.
 */
import { writeFileSync } from 'node:fs';
import { Logger } from '@aws-lambda-powertools/logger';
import { peakRssKb } from '../bench/peak-rss.ts';
import { createAwsClients } from '../functions/adapters/aws/clients.ts';
import { parseNightlyConfig } from '../functions/nightly/config.ts';
import { createNightlyDeps } from '../functions/nightly/deps.ts';
import { createHandler } from '../functions/nightly/handler.ts';
import { STAND_IN_CREDENTIALS, STAND_IN_REGION } from '../sandbox/aws/index.ts';

const out = process.env.FAULTS_OUT ?? '';
const timeoutMs = Number(process.env.FAULTS_LAMBDA_TIMEOUT_MS ?? 600_000);
const started = Date.now();
const clients = createAwsClients({
  region: STAND_IN_REGION,
  credentials: STAND_IN_CREDENTIALS,
  endpoints: JSON.parse(process.env.FAULTS_AWS_ENDPOINTS ?? '{}'),
});
const logger = new Logger({ serviceName: 'ragwatch-nightly' });
let outcome: Record<string, unknown>;
try {
  const handler = createHandler(createNightlyDeps(parseNightlyConfig(process.env), clients, logger));
  const result = await handler(
    { source: 'ragwatch.schedule' },
    { awsRequestId: 'faults', getRemainingTimeInMillis: () => timeoutMs - (Date.now() - started) },
  );
  outcome = { outcome: 'returned', result };
} catch (error) {
  outcome = { outcome: 'threw', error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}
writeFileSync(out, JSON.stringify({ ...outcome, maxRssKb: peakRssKb() }));
process.exit(0);
