/**
 * The replay's noise model, so that "0 false alerts" is earned on nights that look like real ones:
 * - score noise: every (chunk, query) similarity moves by N(0, sigma) each night (sigma 0.01 by default), drawn
 *   from a hash of (night seed, point id, query), so exact and approximate search see the same scores within a
 *   night and nights differ;
 * - latency jitter: each night Qdrant answers with a delay drawn from the scenario's range; on a busy night
 *   (10 % of nights by default) five times that;
 * - one flaky query: on some nights (25 % by default) its expected module's chunks score 0.3 lower for that query
 *   alone, so it fails that night and passes the next, as a query near its threshold does in real life.
 */
import { seededHash as hash } from '../cohere/embed-text.ts';
import type { ScorePerturbation } from '../qdrant/search.ts';

export interface NightNoise {
  /** Standard deviation of the per-(chunk, query) score noise (0: none). */
  sigma: number;
  /** The night's seed: same seed, same noise. */
  seed: number;
  /** The flaky query's embedding and its expected module (folder name), on a night it is to fail; else null. */
  flaky: { vector: readonly number[]; module: string } | null;
}

/** How much lower the flaky query's module scores on its bad nights: enough to push it out of the top results. */
const FLAKY_PENALTY = 0.3;

/** The stand-in's score perturbation for a night, or null when there is no noise at all. */
export function scoreNoise(
  noise: NightNoise,
  points: readonly { id: string | number; payload: Record<string, unknown> }[],
  /** A fault's factor on every score (1: none). */
  factor = 1,
): ScorePerturbation | null {
  if (noise.sigma === 0 && noise.flaky === null && factor === 1) return null;
  // A point's module is its page's folder: /docs/<module>/<page>.
  const moduleOf = new Map(
    points.map((p) => [String(p.id), new URL(String(p.payload.source_url)).pathname.split('/')[2] ?? '']),
  );
  const flaky = noise.flaky === null ? null : normalised(noise.flaky.vector);
  const queries = new WeakMap<Float32Array, { key: number; flaky: boolean }>();
  const describe = (query: Float32Array) => {
    let known = queries.get(query);
    if (known === undefined) {
      known = { key: hash(Array.from(query.subarray(0, 8), (x) => x.toFixed(6)).join(','), noise.seed), flaky: false };
      if (flaky !== null) {
        let dot = 0;
        for (let i = 0; i < query.length; i++) dot += (query[i] as number) * (flaky[i] ?? 0);
        known.flaky = dot > 0.999;
      }
      queries.set(query, known);
    }
    return known;
  };
  return (id, query, score) => {
    const q = describe(query);
    const n = noise.sigma === 0 ? 0 : noise.sigma * gaussian(hash(String(id), q.key), hash(String(id), ~q.key));
    const penalty = q.flaky && moduleOf.get(String(id)) === noise.flaky?.module ? FLAKY_PENALTY : 0;
    return (factor - 1) * score + n - penalty;
  };
}

function normalised(vector: readonly number[]): Float64Array {
  const norm = Math.hypot(...vector) || 1;
  return Float64Array.from(vector, (x) => x / norm);
}

/** A standard normal draw from two 32-bit hashes (Box-Muller). */
function gaussian(h1: number, h2: number): number {
  const u1 = ((h1 >>> 0) + 0.5) / 4_294_967_296;
  const u2 = ((h2 >>> 0) + 0.5) / 4_294_967_296;
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}
