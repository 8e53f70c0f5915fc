/**
 * `npm run invoke [-- --function <name>] [--region <region>] [--environment <env>] [--collection <name>]`: runs the
 * deployed nightly job now and prints where its report is. Without --function the name is derived, as the stack
 * derives it, from cdk.json's environment and collection (or the flags). Needs AWS credentials (AWS_PROFILE, ...).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { functionName } from '../names.ts';
import { invokeNightly } from './invoke-function.ts';

const { values } = parseArgs({
  options: {
    function: { type: 'string' },
    region: { type: 'string' },
    environment: { type: 'string' },
    collection: { type: 'string' },
  },
});
const cdkJson = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../cdk.json'), 'utf8')) as {
  context: Record<string, unknown>;
};
const name =
  values.function ??
  functionName({
    environment: values.environment ?? String(cdkJson.context.environment ?? 'prod'),
    collection: values.collection ?? String(cdkJson.context.collection ?? 'book'),
  });
// The run takes up to the function's 10-minute timeout: the socket must outlast it.
const client = new LambdaClient({
  ...(values.region ? { region: values.region } : {}),
  // One attempt: a retried synchronous invoke after a dropped connection would run the whole job twice.
  maxAttempts: 1,
  requestHandler: { requestTimeout: 11 * 60_000, connectionTimeout: 10_000 },
});
const region = await client.config.region().catch(() => {
  process.stderr.write('No AWS region: pass --region <region> or set AWS_REGION (or a profile with a region).\n');
  process.exit(2);
});
process.stderr.write(`Invoking ${name} in ${region} (this waits for the run, up to 10 minutes)...\n`);
const { lines, exitCode } = await invokeNightly(client, { functionName: name, region });
process.stdout.write(`${lines.join('\n')}\n`);
process.exitCode = exitCode;
