/**
 * The handler's log lines through Powertools' real Logger: each carries the Lambda context (request id, cold start,
 * function name) beside the run's own keys, and a warm invocation starts without the previous one's keys.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { createNightlyDeps, type LambdaContext } from '../../functions/nightly/deps.ts';
import { createHandler } from '../../functions/nightly/handler.ts';
import { type AwsStandIns, startAwsStandIns } from '../../sandbox/aws/index.ts';
import { buildPassedReport } from './fixtures/reports.ts';
import { buildStandInClients, type StandInClients, standInNightlyEnv } from './stand-in-clients.ts';

let aws: AwsStandIns;
let clients: StandInClients;

beforeAll(async () => {
  aws = await startAwsStandIns({ secrets: { 'ragwatch/cohere': 'co-test-key' } });
  clients = buildStandInClients(aws.endpoints);
});

afterAll(async () => {
  clients.destroy();
  await aws.stop();
});

const context = (awsRequestId: string): LambdaContext => ({
  awsRequestId,
  functionName: 'ragwatch-prod-book',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:ragwatch-prod-book',
  memoryLimitInMB: '512',
});

/** Runs the handler with a real Logger and returns the JSON lines it printed. */
async function logLinesOf(invocations: LambdaContext[], extraKeys?: (logger: Logger) => void) {
  const logger = new Logger({ serviceName: 'ragwatch-nightly' });
  const config = parseNightlyConfig(standInNightlyEnv(aws));
  const handler = createHandler({
    ...createNightlyDeps(config, clients, logger),
    runEngine: async (_engine, run) => ({ ...buildPassedReport(), run_id: run.newId() }),
  });
  const printed: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    printed.push(String(chunk));
    return true;
  });
  try {
    for (const invocation of invocations) {
      await handler({}, invocation);
      extraKeys?.(logger);
    }
  } finally {
    spy.mockRestore();
  }
  return printed
    .join('')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('the handler’s log lines', () => {
  it('carry the Lambda request id, cold start and function name on every line', async () => {
    // Act
    const lines = await logLinesOf([context('req-cold')]);

    // Assess
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines)
      expect(line).toMatchObject({
        function_request_id: 'req-cold',
        function_name: 'ragwatch-prod-book',
        function_memory_size: '512',
        cold_start: expect.any(Boolean),
        run_id: expect.any(String),
        service: 'ragwatch-nightly',
      });
  });

  it('say cold_start false on the second invocation of the same function', async () => {
    // Act
    const lines = await logLinesOf([context('req-1'), context('req-2')]);

    // Assess
    const second = lines.filter((l) => l.function_request_id === 'req-2');
    expect(second.length).toBeGreaterThan(0);
    for (const line of second) expect(line.cold_start).toBe(false);
  });

  it('start a warm invocation without the keys the previous one appended', async () => {
    // Act
    const lines = await logLinesOf([context('req-1'), context('req-2')], (logger) =>
      logger.appendKeys({ left_over: 'from the previous run' }),
    );

    // Assess
    const second = lines.filter((l) => l.function_request_id === 'req-2');
    expect(second.length).toBeGreaterThan(0);
    for (const line of second) expect(line).not.toHaveProperty('left_over');
  });
});
