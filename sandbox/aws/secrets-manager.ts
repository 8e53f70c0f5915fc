/**
 * A Secrets Manager stand-in for GetSecretValue, speaking AWS JSON 1.1 (X-Amz-Target
 * secretsmanager.GetSecretValue) as @aws-sdk/client-secrets-manager sends it; it counts calls so a test can see
 * the Powertools cache at work.
 */
import { AwsJsonError, type RecordedRequest, startJsonRpcServer } from './json-rpc-server.ts';

export interface SecretsManagerStandIn {
  endpoint: string;
  requests: RecordedRequest[];
  /** Creates or replaces a secret (by name) holding this text. */
  putSecret(name: string, value: string): void;
  stop(): Promise<void>;
}

const REGION = 'us-east-1';
const ACCOUNT = '000000000000';

/** Starts the stand-in on 127.0.0.1 and an ephemeral port, holding `secrets` (name -> value). */
export async function startSecretsManagerStandIn(secrets: Record<string, string> = {}): Promise<SecretsManagerStandIn> {
  const store = new Map(Object.entries(secrets));
  const arnOf = (name: string) => `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${name}-AbCdEf`;
  const server = await startJsonRpcServer({
    targetPrefix: 'secretsmanager',
    contentType: 'application/x-amz-json-1.1',
    operations: {
      GetSecretValue: (input) => {
        const id = typeof input.SecretId === 'string' ? input.SecretId : '';
        const name = [...store.keys()].find((n) => n === id || arnOf(n) === id);
        if (name === undefined)
          throw new AwsJsonError(400, 'ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
        return {
          ARN: arnOf(name),
          Name: name,
          VersionId: '00000000-0000-4000-8000-000000000001',
          SecretString: store.get(name),
          VersionStages: ['AWSCURRENT'],
          CreatedDate: 1_767_225_600,
        };
      },
    },
  });
  return {
    endpoint: server.endpoint,
    requests: server.requests,
    putSecret: (name, value) => {
      store.set(name, value);
    },
    stop: server.stop,
  };
}
