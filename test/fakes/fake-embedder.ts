/** An Embedder for core unit tests: a fixed vector per text (or a default), call log, and scripted failures. */
import type { Embedder, EmbeddingResult } from '../../functions/core/ports.ts';

export class FakeEmbedder implements Embedder {
  readonly model = 'fake-embed';
  readonly maxBatchSize: number;
  readonly calls: string[][] = [];
  /** Failures to throw, by call number (0-based). */
  readonly failOnCall = new Map<number, Error>();
  readonly #vectors: Map<string, number[]>;
  readonly #fallback: number[];

  constructor(options: { vectors?: Record<string, number[]>; fallback?: number[]; maxBatchSize?: number } = {}) {
    this.#vectors = new Map(Object.entries(options.vectors ?? {}));
    this.#fallback = options.fallback ?? [1, 0, 0];
    this.maxBatchSize = options.maxBatchSize ?? 96;
  }

  /** Documents get the same vectors as queries here: a drift-free model. */
  embedDocuments(texts: string[]): Promise<EmbeddingResult> {
    return this.embedQueries(texts);
  }

  async embedQueries(texts: string[]): Promise<EmbeddingResult> {
    const call = this.calls.length;
    this.calls.push(texts);
    const failure = this.failOnCall.get(call);
    if (failure) throw failure;
    return { vectors: texts.map((t) => this.#vectors.get(t) ?? this.#fallback), billedInputTokens: texts.length };
  }
}
