/**
 * The local Cohere stand-in: start it with startCohereStandIn() and point CohereClientV2 at it with
 * `new CohereClientV2({ baseUrl: standIn.url, token: 'any-token' })`. embedText is its embedding model, exported for
 * the benchmark and for calibrating golden-query thresholds.
 */

export {
  ABSTENTION_TEXT,
  type Answer,
  answerFromDocuments,
  type ChatBehaviour,
  type ChatDocument,
  type Citation,
  MIN_SENTENCE_OVERLAP,
} from './answer-from-documents.ts';
export { CHAT_MODELS } from './chat-route.ts';
export { EMBED_MODELS, MAX_EMBED_TEXTS } from './embed-route.ts';
export { cosineSimilarity, embedText } from './embed-text.ts';
export {
  type CohereEndpoint,
  type CohereFault,
  type CohereStandIn,
  type CohereStandInOptions,
  startCohereStandIn,
} from './server.ts';
export { extractTerms, stemWord, tokenizeWords } from './tokenizer.ts';
