/**
 * API keys from AWS Secrets Manager through Powertools Parameters (cached for maxAge, so a warm Lambda does not
 * call Secrets Manager on every run). A secret holds the key as plain text, or as JSON with an `api_key` (or
 * `apiKey`) field, as the console's key/value editor writes it. Messages name the secret, never its value.
 */

import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { unusableApiKeyReason } from '../../core/shared/api-key.ts';
import { SecretError, secretReadError } from './errors.ts';

export interface SecretsReaderOptions {
  /** Built once at module scope by the handler (or pointed at a stand-in by a test). */
  client?: SecretsManagerClient;
  /** How long a fetched value is reused, in seconds. */
  maxAgeSeconds?: number;
}

/** Reads API keys from Secrets Manager, cached. */
export class SecretsReader {
  readonly #provider: SecretsProvider;
  readonly #maxAge: number;

  constructor(options: SecretsReaderOptions = {}) {
    this.#provider = new SecretsProvider(options.client === undefined ? {} : { awsSdkV3Client: options.client });
    this.#maxAge = options.maxAgeSeconds ?? 900;
  }

  /** The key in `secretId`; `service` (Cohere, Qdrant) names what it is for in a message. */
  async getApiKey(secretId: string, service?: string): Promise<string> {
    let value: unknown;
    try {
      value = await this.#provider.get(secretId, { maxAge: this.#maxAge });
    } catch (error) {
      // Powertools wraps the SDK's error in GetParameterError; the SDK's is the one that says what happened.
      throw secretReadError(secretId, error);
    }
    if (typeof value !== 'string')
      throw new SecretError(secretId, 'bad_request', 'holds no text value (binary secrets are not supported)');
    const key = extractKey(secretId, value);
    const unusable = unusableApiKeyReason(key);
    if (unusable !== null)
      throw new SecretError(secretId, 'bad_request', `${service ? `the ${service} API key ` : ''}${unusable}`);
    return key;
  }
}

function extractKey(secretId: string, raw: string): string {
  const text = raw.trim();
  if (text.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new SecretError(secretId, 'bad_request', 'looks like JSON but does not parse');
    }
    const record = parsed as Record<string, unknown>;
    const key = record.api_key ?? record.apiKey;
    if (typeof key !== 'string' || key.trim() === '')
      throw new SecretError(secretId, 'bad_request', 'is JSON without a non-empty "api_key" (or "apiKey") field');
    return key.trim();
  }
  if (text === '') throw new SecretError(secretId, 'bad_request', 'is empty');
  return text;
}
