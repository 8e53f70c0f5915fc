/** An Embedder for core unit tests: a fixed vector per text (or a default), call log, and scripted failures. */
import type { Embedder, EmbeddingResult } from '../../functions/core/ports.ts';

export class FakeEmbedder implements Embedder {
  readonly model = 'fake-embed';
  readonly maxBatchSize: number;
  readonly calls: string[][] = [];
  /** Failures to throw, by call number (0-based). */
  readonly failOnCall = new Map<number, Error>();
  readonly #vectors: Map<string, number[]>;
  readonly #documentVectors: Map<string, number[]>;
  readonly #fallback: number[];

  constructor(
    options: {
      vectors?: Record<string, number[]>;
      /** Vectors for documents only (a model that drifted for these texts); others get `vectors`' or the fallback. */
      documentVectors?: Record<string, number[]>;
      fallback?: number[];
      maxBatchSize?: number;
    } = {},
  ) {
    this.#vectors = new Map(Object.entries(options.vectors ?? {}));
    this.#documentVectors = new Map(Object.entries(options.documentVectors ?? {}));
    this.#fallback = options.fallback ?? [1, 0, 0];
    this.maxBatchSize = options.maxBatchSize ?? 96;
  }

  /** Documents get the same vectors as queries here (a drift-free model), unless `documentVectors` names them. */
  embedDocuments(texts: string[]): Promise<EmbeddingResult> {
    return this.#embed(texts, (t) => this.#documentVectors.get(t) ?? this.#vectors.get(t));
  }

  embedQueries(texts: string[]): Promise<EmbeddingResult> {
    return this.#embed(texts, (t) => this.#vectors.get(t));
  }

  async #embed(texts: string[], vectorOf: (text: string) => number[] | undefined): Promise<EmbeddingResult> {
    const call = this.calls.length;
    this.calls.push(texts);
    const failure = this.failOnCall.get(call);
    if (failure) throw failure;
    return { vectors: texts.map((t) => vectorOf(t) ?? this.#fallback), billedInputTokens: texts.length };
  }
}
