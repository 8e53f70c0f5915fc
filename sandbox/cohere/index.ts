/**
 * The local Cohere stand-in: start it with startCohereStandIn() and point CohereClientV2 at it with
 * `new CohereClientV2({ baseUrl: standIn.url, token: 'any-token' })`. embedText is its embedding model, exported for
 * the benchmark and for calibrating golden-query thresholds.
 */

export { ABSTENTION_TEXT } from './answer-from-documents.ts';

export { cosineSimilarity, embedText } from './embed-text.ts';
export {
  type CohereStandIn,
  startCohereStandIn,
} from './server.ts';
