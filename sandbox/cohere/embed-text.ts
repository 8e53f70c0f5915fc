/**
 * The stand-in's embedding model: deterministic lexical vectors, so cosine similarity measures shared content words.
 *
 * How: content terms (see tokenizer.ts) and their adjacent pairs are feature-hashed (FNV-1a) into `dimensions` slots
 * with a second hash choosing the sign, so colliding features cancel out on average instead of piling up. A term
 * weighs 1 + ln(tf) (sub-linear, so a repeated word does not drown the rest); a pair weighs half that. The vector is
 * L2-normalised, so a dot product is a cosine. Queries and documents use the same algorithm (input_type only changes
 * the label), so a query and a passage meet exactly on the content words they share.
 *
 * The scale, measured at 1024 dims against three 40-50 word passages of a ROS 2 book (golden-query thresholds are
 * calibrated to it; test/sandbox/cohere-embed-text.test.ts holds these examples and their bounds):
 * - the same text: 1.0
 * - a question paraphrasing a passage with most of its content words, 0.3 to 0.6:
 *   "How do I install ROS 2 on Ubuntu?" vs the install passage 0.41; "How do publishers and subscribers exchange
 *   messages on a topic?" vs the topics passage 0.54; "How can I simulate a robot with sensors in Gazebo?" 0.47
 * - a question sharing only one or two content words, 0.05 to 0.25: "Which team won the football world cup?" vs the
 *   Gazebo passage ("worlds") 0.14; "What does the setup script do?" vs the install passage 0.22
 * - unrelated text, -0.1 to 0.1: exactly 0.0 without a hash collision, about +-0.07 with one
 * A longer passage scores lower for the same shared words, because its norm spreads over more terms: the install
 * question against a 190-word install chunk scores 0.27, against the 50-word install passage 0.41.
 */

import { extractTerms, tokenizeWords } from './tokenizer.ts';

const PAIR_WEIGHT = 0.5;

/** Embeds a text as an L2-normalised vector of `dimensions` floats; the same text always gives the same vector. */
export function embedText(text: string, dimensions = 1024): number[] {
  const vector = new Float64Array(dimensions);
  for (const [feature, weight] of weighFeatures(text)) {
    const hash = hashString(feature);
    const sign = mix(hash) & 1 ? -1 : 1;
    vector[hash % dimensions] = (vector[hash % dimensions] ?? 0) + sign * weight;
  }
  let squares = 0;
  for (const value of vector) squares += value * value;
  const norm = Math.sqrt(squares);
  // Text with no word at all still gets a unit vector, as Cohere always returns one.
  if (norm === 0) return Array.from(vector, (_, i) => (i === 0 ? 1 : 0));
  return Array.from(vector, (value) => value / norm);
}

/** Cosine similarity of two vectors of the same length. */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

function weighFeatures(text: string): Map<string, number> {
  let terms = extractTerms(text);
  // A text made only of stop words ("what is it?") falls back to its plain words rather than to nothing.
  if (terms.length === 0) terms = tokenizeWords(text);
  const counts = new Map<string, number>();
  const add = (feature: string) => counts.set(feature, (counts.get(feature) ?? 0) + 1);
  terms.forEach((term, i) => {
    add(`w:${term}`);
    const next = terms[i + 1];
    if (next !== undefined) add(`p:${term} ${next}`);
  });
  const weights = new Map<string, number>();
  for (const [feature, tf] of counts) {
    const base = 1 + Math.log(tf);
    weights.set(feature, feature.startsWith('p:') ? base * PAIR_WEIGHT : base);
  }
  return weights;
}

// FNV-1a, 32 bits: tiny, fast and stable across runs and platforms.
function hashString(text: string, seed = 0x811c9dc5): number {
  let hash = seed;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

// A murmur3-style finaliser, so the sign bit does not depend on the same low bits that choose the slot.
function mix(hash: number): number {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a then the murmur finaliser, 32 bits, from `seed`: a cheap, deterministic, well-spread hash (replay noise). */
export function seededHash(text: string, seed?: number): number {
  return mix(hashString(text, seed));
}
