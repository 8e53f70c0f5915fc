/**
 * POST /v2/embed: validates the request the way Cohere does and answers with float embeddings in the v2
 * `embeddings_by_type` shape that cohere-ai's EmbedByTypeResponse serializer reads.
 */

import { randomUUID } from 'node:crypto';
import { embedText } from './embed-text.ts';
import { tokenizeWords } from './tokenizer.ts';
import { isObject, type RouteResult, replyError, replyUnknownModel } from './wire.ts';

/** Cohere's limit on texts in one embed call. */
const MAX_EMBED_TEXTS = 96;

/** The embedding models the stand-in serves; each needs an input_type (v3 and later). */
const EMBED_MODELS: ReadonlySet<string> = new Set([
  'embed-english-v3.0',
  'embed-english-light-v3.0',
  'embed-multilingual-v3.0',
  'embed-multilingual-light-v3.0',
  'embed-v4.0',
]);

const INPUT_TYPES = new Set(['search_document', 'search_query', 'classification', 'clustering']);
const EMBEDDING_TYPES = new Set(['float', 'int8', 'uint8', 'binary', 'ubinary', 'base64']);
const TRUNCATE_MODES = new Set(['NONE', 'START', 'END']);

/** Answers one embed request body (already parsed JSON) with vectors of `dimensions` floats. */
export function handleEmbed(body: unknown, dimensions: number, variant?: string): RouteResult {
  if (!isObject(body)) return replyError(400, 'invalid request: body must be a JSON object');
  const { model, texts, input_type: inputType, embedding_types: embeddingTypes, truncate } = body;
  if (typeof model !== 'string' || model === '') return replyError(400, 'invalid request: model must be specified');
  if (!EMBED_MODELS.has(model)) return replyUnknownModel(model);
  if (!Array.isArray(texts) || texts.length === 0) {
    return replyError(400, 'invalid request: texts must be a non-empty list of strings');
  }
  if (texts.length > MAX_EMBED_TEXTS) {
    return replyError(
      400,
      `invalid request: total number of texts must be at most ${MAX_EMBED_TEXTS} - received ${texts.length}`,
    );
  }
  if (!texts.every((text) => typeof text === 'string')) {
    return replyError(400, 'invalid request: texts must be a list of strings');
  }
  if (typeof inputType !== 'string' || !INPUT_TYPES.has(inputType)) {
    return replyError(400, 'invalid request: valid input_type must be provided with the provided model');
  }
  const typeProblem = checkEmbeddingTypes(embeddingTypes);
  if (typeProblem !== undefined) return replyError(400, typeProblem);
  if (truncate !== undefined && (typeof truncate !== 'string' || !TRUNCATE_MODES.has(truncate))) {
    return replyError(400, `invalid request: truncate must be one of NONE, START, END - received ${String(truncate)}`);
  }
  const inputs = texts as string[];
  return {
    status: 200,
    body: {
      id: randomUUID(),
      texts: inputs,
      embeddings: {
        float: inputs.map((text) => {
          const vector = embedText(text, dimensions);
          return variant === undefined ? vector : otherModel(vector, variant);
        }),
      },
      meta: {
        api_version: { version: '2' },
        billed_units: { input_tokens: inputs.reduce((sum, text) => sum + tokenizeWords(text).length, 0) },
      },
      response_type: 'embeddings_by_type',
    },
  };
}

// Cohere defaults to float when embedding_types is left out; the stand-in computes nothing but floats.
function checkEmbeddingTypes(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((type) => typeof type !== 'string' || !EMBEDDING_TYPES.has(type))) {
    return 'invalid request: embedding_types must be a list of float, int8, uint8, binary, ubinary or base64';
  }
  if (value.some((type) => type !== 'float')) {
    return `invalid request: the Cohere stand-in only returns float embeddings - received ${value.join(', ')}`;
  }
  return undefined;
}

/**
 * The same text as another model would embed it: a fixed signed permutation of the dimensions chosen by `variant`.
 * Its own vectors stay consistent with each other (cosines between them are unchanged), but against vectors of the
 * normal model they are unrelated: what a model silently swapped under the same name does to an index.
 */
function otherModel(vector: number[], variant: string): number[] {
  let seed = 2166136261;
  for (let i = 0; i < variant.length; i++) seed = Math.imul(seed ^ variant.charCodeAt(i), 16777619) >>> 0;
  const next = () => {
    seed = (Math.imul(seed ^ (seed >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
    return seed;
  };
  const order = vector.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = next() % (i + 1);
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order.map((from) => (vector[from] as number) * (next() & 1 ? -1 : 1));
}
