import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SecretError } from '../../../functions/adapters/aws/errors.ts';
import { SecretsReader } from '../../../functions/adapters/aws/secrets.ts';
import { type SecretsManagerStandIn, startSecretsManagerStandIn } from '../../../sandbox/aws/index.ts';
import { standInClientConfig } from '../../nightly/stand-in-clients.ts';

const COHERE_KEY = 'co-test-0123456789abcdef';
let secretsManager: SecretsManagerStandIn;
let client: SecretsManagerClient;

beforeAll(async () => {
  secretsManager = await startSecretsManagerStandIn({
    'ragwatch/cohere': COHERE_KEY,
    'ragwatch/qdrant': JSON.stringify({ api_key: 'qd-secret-value' }),
    'ragwatch/camel': JSON.stringify({ apiKey: 'camel-secret-value' }),
    'ragwatch/wrong-shape': JSON.stringify({ token: 'tok-secret-value' }),
    'ragwatch/empty': '   ',
    'ragwatch/pasted': 'co-t\u2713st-0123456789',
  });
  client = new SecretsManagerClient(standInClientConfig(secretsManager.endpoint, 1));
});

afterAll(async () => {
  client.destroy();
  await secretsManager.stop();
});

beforeEach(() => {
  secretsManager.requests.length = 0;
});

describe('SecretsReader', () => {
  it('reads a key stored as plain text through GetSecretValue', async () => {
    // Prepare
    const reader = new SecretsReader({ client });

    // Act
    const key = await reader.getApiKey('ragwatch/cohere');

    // Assess
    expect(key).toBe(COHERE_KEY);
    expect(secretsManager.requests.map((r) => [r.target, r.body])).toEqual([
      ['secretsmanager.GetSecretValue', { SecretId: 'ragwatch/cohere' }],
    ]);
  });

  it('reads the api_key field of a key/value secret', async () => {
    // Act
    const key = await new SecretsReader({ client }).getApiKey('ragwatch/qdrant');

    // Assess
    expect(key).toBe('qd-secret-value');
  });

  it('accepts apiKey as the field name too', async () => {
    // Act
    const key = await new SecretsReader({ client }).getApiKey('ragwatch/camel');

    // Assess
    expect(key).toBe('camel-secret-value');
  });

  it('reuses a fetched key within its max age instead of calling Secrets Manager again', async () => {
    // Prepare
    const reader = new SecretsReader({ client, maxAgeSeconds: 300 });

    // Act
    await reader.getApiKey('ragwatch/cohere');
    await reader.getApiKey('ragwatch/cohere');

    // Assess
    expect(secretsManager.requests).toHaveLength(1);
  });

  it('throws a not_found SecretError naming the secret when it does not exist', async () => {
    // Act
    const reading = new SecretsReader({ client }).getApiKey('ragwatch/missing');

    // Assess
    await expect(reading).rejects.toBeInstanceOf(SecretError);
    await expect(reading).rejects.toMatchObject({
      kind: 'not_found',
      message: expect.stringMatching(
        /^secret ragwatch\/missing: could not be read \(not_found\): ResourceNotFoundException/,
      ),
    });
  });

  it('refuses a JSON secret without an api_key field, without quoting its value', async () => {
    // Act
    const reading = new SecretsReader({ client }).getApiKey('ragwatch/wrong-shape');

    // Assess
    await expect(reading).rejects.toThrow(
      'secret ragwatch/wrong-shape: is JSON without a non-empty "api_key" (or "apiKey") field',
    );
    await expect(reading).rejects.not.toThrow(/tok-secret-value/);
  });

  it('refuses a key an HTTP header cannot carry, naming the secret and the service and no character of it', async () => {
    // Act
    const reading = new SecretsReader({ client }).getApiKey('ragwatch/pasted', 'Cohere');

    // Assess
    await expect(reading).rejects.toThrow(
      'secret ragwatch/pasted: the Cohere API key holds 1 character that an HTTP header cannot carry',
    );
    await expect(reading).rejects.not.toThrow(/co-t|0123|10003|\u2713/);
  });

  it('refuses an empty secret', async () => {
    // Act
    const reading = new SecretsReader({ client }).getApiKey('ragwatch/empty');

    // Assess
    await expect(reading).rejects.toThrow('secret ragwatch/empty: is empty');
  });
});
