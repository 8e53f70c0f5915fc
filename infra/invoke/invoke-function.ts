/**
 * Invokes the deployed nightly function now, synchronously, through the Lambda API, and turns the answer (or the
 * refusal) into what `npm run invoke` prints. The client is passed in, so tests point it at the Lambda stand-in.
 */
import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { describeInvocation } from './describe-invocation.ts';

/** Runs the function once and returns the lines to print and the exit code. */
export async function invokeNightly(
  client: LambdaClient,
  options: { functionName: string; region: string },
): Promise<{ lines: string[]; exitCode: number }> {
  try {
    const answer = await client.send(
      new InvokeCommand({
        FunctionName: options.functionName,
        InvocationType: 'RequestResponse',
        Payload: new TextEncoder().encode(JSON.stringify({ source: 'ragwatch.invoke' })),
      }),
    );
    return describeInvocation({
      ...options,
      functionError: answer.FunctionError,
      payload: answer.Payload === undefined ? '' : new TextDecoder().decode(answer.Payload),
    });
  } catch (error) {
    return { exitCode: 1, lines: [explainRefusal(error, options.functionName)] };
  }
}

function explainRefusal(error: unknown, functionName: string): string {
  const e = error as { name?: string; message?: string };
  switch (e.name) {
    case 'ResourceNotFoundException':
      return `No function ${functionName} in this account and region: deploy the stack first, or pass --function <name> (the stack's FunctionName output) and --region.`;
    case 'TooManyRequestsException':
      return `${functionName} is already running (it runs one at a time): the scheduled run may be in progress. Try again in a few minutes.`;
    case 'CredentialsProviderError':
      return `No AWS credentials: set AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY (${e.message ?? ''}).`;
    default:
      return `Invoking ${functionName} failed: ${e.name ?? 'Error'}: ${e.message ?? String(error)}`;
  }
}
