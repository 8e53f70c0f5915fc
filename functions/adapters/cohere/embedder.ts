/**
 * The Embedder port on Cohere's v2 embed API, through cohere-ai's CohereClientV2. Every failure is translated once
 * (errors.ts) into an EmbeddingError whose message names the endpoint and the status, is cut to one line, and never
 * carries the API key (a response body that echoes it is redacted).
 */
import { CohereClientV2, CohereEnvironment } from 'cohere-ai';
import type { Embedder, EmbeddingResult } from '../../core/ports.ts';
import { DependencyGate, type RunSignal, retryTransient } from '../transport.ts';
import { malformedEmbedAnswer, translateEmbedError, urlCredentials, withoutCredentials } from './errors.ts';

/** How to reach Cohere. */
export interface CohereEmbedderOptions {
  apiKey: string;
  /** e.g. embed-english-v3.0 */
  model: string;
  timeoutMs: number;
  /** Another base URL (a proxy, the local stand-in); Cohere's production API by default. */
  baseUrl?: string;
  /** Retries of 429 (after Retry-After, up to 60 s) and 5xx answers and refused connections; 2 by default. */
  maxRetries?: number;
  /** The run's deadline: every request listens to it, and no retry starts after it. */
  run?: RunSignal;
  /** Shared with the chat adapter: once Cohere failed hard in this run, later calls are not tried. */
  gate?: DependencyGate;
}

/** A Retry-After longer than this is not waited for: the 429 is final (Cohere's trial keys limit per minute). */
const MAX_RETRY_AFTER_MS = 60_000;

type InputType = 'search_query' | 'search_document';

/** Cohere's limit on texts in one embed call. */
const MAX_TEXTS = 96;

/** Embeds texts with Cohere as search queries or as search documents, at most 96 per call. */
export class CohereEmbedder implements Embedder {
  readonly model: string;
  readonly maxBatchSize = MAX_TEXTS;
  readonly #client: CohereClientV2;
  /** Kept only to redact them from messages: the API key, and any user and password in the base URL. */
  readonly #secrets: string[];
  readonly #endpoint: string;
  readonly #timeoutMs: number;
  readonly #retries: number;
  readonly #run: RunSignal | undefined;
  readonly #gate: DependencyGate;

  constructor(options: CohereEmbedderOptions) {
    this.model = options.model;
    this.#timeoutMs = options.timeoutMs;
    this.#retries = options.maxRetries ?? 2;
    this.#run = options.run;
    this.#gate = options.gate ?? new DependencyGate('Cohere');
    const baseUrl = options.baseUrl ?? CohereEnvironment.Production;
    this.#secrets = [options.apiKey, ...urlCredentials(baseUrl)];
    this.#endpoint = `POST ${withoutCredentials(baseUrl)}/v2/embed`;
    // An explicit token keeps the SDK from falling back to the CO_API_KEY environment variable; an empty one sends no
    // Authorization header at all, which Cohere answers with a clear 401.
    this.#client = new CohereClientV2({
      token: options.apiKey,
      baseUrl,
      timeoutInSeconds: options.timeoutMs / 1000,
      // The SDK's retries are off: transport.ts retries, reading Retry-After itself and stopping at the deadline.
      maxRetries: 0,
    });
  }

  /** Embeds golden queries (input_type search_query). */
  embedQueries(texts: string[]): Promise<EmbeddingResult> {
    return this.#embed(texts, 'search_query');
  }

  /** Embeds book chunks for indexing (input_type search_document). */
  embedDocuments(texts: string[]): Promise<EmbeddingResult> {
    return this.#embed(texts, 'search_document');
  }

  async #embed(texts: string[], inputType: InputType): Promise<EmbeddingResult> {
    if (texts.length > MAX_TEXTS) {
      throw new Error(`CohereEmbedder: at most ${MAX_TEXTS} texts per call, got ${texts.length}; batch before calling`);
    }
    if (texts.length === 0) return { vectors: [] };
    const call = async () => {
      try {
        return await this.#client.embed(
          { model: this.model, texts, inputType, embeddingTypes: ['float'] },
          this.#run ? { abortSignal: this.#run.signal } : {},
        );
      } catch (error) {
        throw translateEmbedError(error, {
          what: `Cohere embed ${inputType} (${this.#endpoint})`,
          secrets: this.#secrets,
          timeoutMs: this.#timeoutMs,
          run: this.#run,
        });
      }
    };
    // A call cut by this embedder's own deadline is no strike against Cohere (the agent's comes before the run's).
    const response = await this.#gate.run(
      () =>
        retryTransient(call, {
          retries: this.#retries,
          maxRetryAfterMs: MAX_RETRY_AFTER_MS,
          ...(this.#run ? { run: this.#run } : {}),
        }),
      this.#run?.signal,
    );
    const vectors = this.#readVectors(response, texts.length);
    const billed = response.meta?.billedUnits?.inputTokens;
    return billed === undefined ? { vectors } : { vectors, billedInputTokens: billed };
  }

  /** The float vectors, checked: one per text, each a non-empty list of finite numbers of the same length. */
  #readVectors(response: unknown, count: number): number[][] {
    const malformed = (what: string) => malformedEmbedAnswer(this.#endpoint, what);
    const embeddings = (response as { embeddings?: { float?: unknown } } | undefined)?.embeddings;
    if (typeof embeddings !== 'object' || embeddings === null) throw malformed('no "embeddings" object');
    const vectors = embeddings.float;
    if (!Array.isArray(vectors)) throw malformed('no "embeddings.float" list');
    if (vectors.length !== count) throw malformed(`${vectors.length} float vectors for ${count} texts`);
    const size = Array.isArray(vectors[0]) ? vectors[0].length : 0;
    vectors.forEach((v: unknown, i) => {
      if (!Array.isArray(v) || v.length === 0 || v.length !== size || !v.every((x) => Number.isFinite(x)))
        throw malformed(`embeddings.float[${i}] is not a list of ${size || 'some'} finite numbers`);
    });
    return vectors as number[][];
  }
}
