/**
 * Exact nearest-neighbour search by brute force over the collection's vector slab: one tight loop, a fixed-size
 * best-k buffer, the filter evaluated only for points that would make it into that buffer.
 *
 * Scores as Qdrant reports them, rounded to f32: Cosine = dot product of the normalised vectors, Dot = dot product
 * (both larger is better), Euclid = L2 distance, Manhattan = L1 distance (both smaller is better). A
 * `score_threshold` keeps only scores strictly better than it (score > t, or score < t for distances), as
 * Qdrant 1.19 does. Equal scores keep insertion order.
 */
import { type Collection, normaliseInPlace } from './collection.ts';
import type { PointPredicate } from './filter.ts';
import { type FilterLeak, leaks } from './filter-leak.ts';

/** One hit: the slot of the point and its score. */
export interface ScoredSlot {
  slot: number;
  score: number;
}

/** What to search for; `vector` has the collection's size (checked by the caller). */
export interface NearestOptions {
  vector: readonly number[];
  limit: number;
  offset: number;
  filter?: PointPredicate | undefined;
  /** The request's filter as sent (JSON), for a filter leak scoped to what a filter names. */
  filterJson?: unknown;
  scoreThreshold?: number | undefined;
  /** `params.exact`: scan every point. Otherwise the search is approximate (see AnnSettings). */
  exact?: boolean;
  /** `params.hnsw_ef`: the beam size; a larger one visits more points of a degraded index. */
  hnswEf?: number | undefined;
}

/** Qdrant's default `hnsw_config.ef_construct`, used as the search beam when `hnsw_ef` is not given. */
const DEFAULT_HNSW_EF = 100;

/**
 * The stand-in's model of an approximate (HNSW) search. Healthy, it visits every point, as Qdrant does for a
 * collection below its indexing threshold, so approximate and exact results agree. Degraded (`visitFraction` < 1),
 * an approximate search visits only that share of the points, scaled by `hnsw_ef / 100` and capped at all of them;
 * which points is fixed per point id and query, so results are reproducible and recall falls as the share does.
 * `params.exact` always scans every point.
 */
export interface AnnSettings {
  visitFraction: number;
  /**
   * A broken payload index: a filtered approximate search that found something also returns the best point that
   * does NOT satisfy the filter, at the rank its score earns (in place of the last hit when the search found its
   * limit, else added), a fault for the filter-correctness check. Exact searches are not affected, so a leak into a
   * search with room to spare leaves its recall against exact search whole. `true` breaks every filtered search,
   * `{ key, value }` only those whose filter names that value (filter-leak.ts).
   */
  filterLeak?: FilterLeak;
  /** Points an approximate search never reaches (cut off in the HNSW graph); exact search still finds them. */
  unreachable?: ReadonlySet<string | number>;
  /**
   * Score noise for the replay: added to every score (exact and approximate alike, so they still agree), as a
   * function of the point and the normalised query, so one (point, query) pair moves the same way within a night.
   */
  perturb?: ScorePerturbation;
}

/** A score offset for one point, one (normalised) query vector and the exact score. */
export type ScorePerturbation = (id: string | number, query: Float32Array, score: number) => number;

/** The `limit` best points after skipping `offset`, best first. */
export function searchNearest(
  collection: Collection,
  options: NearestOptions,
  ann: AnnSettings = { visitFraction: 1 },
): ScoredSlot[] {
  return searchNearestBatch(collection, [options], ann)[0] as ScoredSlot[];
}

/**
 * Several searches, each answered exactly as alone (the same hits, scores and order). Those on the common case
 * (every point visited, no score noise, Cosine or Dot) are scanned four at a time: each stored vector is read once
 * for four queries, and each query's sum still adds its products in the same order.
 */
export function searchNearestBatch(
  collection: Collection,
  requests: readonly NearestOptions[],
  ann: AnnSettings = { visitFraction: 1 },
): ScoredSlot[][] {
  const searches = requests.map((options) => prepare(collection, options, ann));
  const common = searches.filter((search) => search.best !== undefined && search.common);
  let next = 0;
  for (; next + 4 <= common.length; next += 4) scanFourByDotProduct(collection, common.slice(next, next + 4));
  for (const search of common.slice(next)) scanByDotProduct(collection, search);
  for (const search of searches) if (search.best !== undefined && !search.common) scanEach(collection, search);
  return searches.map((search) => finish(collection, search, ann));
}

/** One search, ready to scan: its normalised query, its best-k buffer (none when it wants nothing) and its tests. */
interface PreparedSearch {
  options: NearestOptions;
  query: Float32Array;
  best: BestK | undefined;
  threshold: number | undefined;
  visited: ((slot: number) => boolean) | undefined;
  score: (offset: number) => number;
  largerIsBetter: boolean;
  /** Every point visited, no noise, larger is better: the loop with the dot product written out applies. */
  common: boolean;
}

function prepare(collection: Collection, options: NearestOptions, ann: AnnSettings): PreparedSearch {
  const visited = visitPredicate(collection, options, ann);
  const query = prepareQuery(collection, options.vector);
  const largerIsBetter = collection.distance === 'Cosine' || collection.distance === 'Dot';
  // Never more than there are points, so a huge limit costs nothing.
  const wanted = Math.min(options.limit + options.offset, collection.pointsCount);
  return {
    options,
    query,
    best: wanted === 0 ? undefined : new BestK(wanted, largerIsBetter),
    threshold: options.scoreThreshold === undefined ? undefined : Math.fround(options.scoreThreshold),
    visited,
    score: perturbed(collection, scorer(collection, query), query, ann.perturb),
    largerIsBetter,
    common: visited === undefined && ann.perturb === undefined && largerIsBetter,
  };
}

/** Any search, one point at a time through its scorer (degraded visits, noise, distances). */
function scanEach(collection: Collection, search: PreparedSearch): void {
  const { visited, score, threshold, largerIsBetter } = search;
  const size = collection.size;
  const count = collection.pointsCount;
  for (let slot = 0, offset = 0; slot < count; slot++, offset += size) {
    if (visited !== undefined && !visited(slot)) continue;
    const value = score(offset);
    if (threshold !== undefined && !(largerIsBetter ? value > threshold : value < threshold)) continue;
    consider(collection, search, slot, value);
  }
}

/**
 * The common case for one search: the same sums in the same order as `scorer`, so the same scores, at a fraction
 * of the cost of a call per point. Still brute force, as Qdrant's exact search is; a real Qdrant answers approximate
 * searches from its HNSW graph, on its own machine (docs/PERFORMANCE.md, "the stand-ins' CPU").
 */
function scanByDotProduct(collection: Collection, search: PreparedSearch): void {
  const slab = collection.vectorSlab;
  const size = collection.size;
  const count = collection.pointsCount;
  const query = search.query;
  for (let slot = 0, offset = 0; slot < count; slot++, offset += size) {
    let sum = 0;
    for (let i = 0; i < size; i++) sum += (slab[offset + i] as number) * (query[i] as number);
    consider(collection, search, slot, Math.fround(sum));
  }
}

/** The common case for four searches at once: each stored component is read once for the four sums. */
function scanFourByDotProduct(collection: Collection, four: PreparedSearch[]): void {
  const [a, b, c, d] = four as [PreparedSearch, PreparedSearch, PreparedSearch, PreparedSearch];
  const [qa, qb, qc, qd] = [a.query, b.query, c.query, d.query];
  const slab = collection.vectorSlab;
  const size = collection.size;
  const count = collection.pointsCount;
  for (let slot = 0, offset = 0; slot < count; slot++, offset += size) {
    let sa = 0;
    let sb = 0;
    let sc = 0;
    let sd = 0;
    for (let i = 0; i < size; i++) {
      const x = slab[offset + i] as number;
      sa += x * (qa[i] as number);
      sb += x * (qb[i] as number);
      sc += x * (qc[i] as number);
      sd += x * (qd[i] as number);
    }
    consider(collection, a, slot, Math.fround(sa));
    consider(collection, b, slot, Math.fround(sb));
    consider(collection, c, slot, Math.fround(sc));
    consider(collection, d, slot, Math.fround(sd));
  }
}

/** A common-case point for one search: kept when over the threshold, among the best so far and through the filter. */
function consider(collection: Collection, search: PreparedSearch, slot: number, value: number): void {
  const best = search.best as BestK;
  if (search.threshold !== undefined && !(search.largerIsBetter ? value > search.threshold : value < search.threshold))
    return;
  if (!best.wouldKeep(value)) return;
  const filter = search.options.filter;
  if (filter !== undefined && !filter(collection.payloadAt(slot), collection.idAt(slot))) return;
  best.add(slot, value);
}

/** The hits after `offset`, with the filter-leak fault applied to a filtered approximate search. */
function finish(collection: Collection, search: PreparedSearch, ann: AnnSettings): ScoredSlot[] {
  if (search.best === undefined) return [];
  const { options, score, largerIsBetter } = search;
  const filter = options.filter;
  const found = search.best.sorted().slice(options.offset);
  if (options.exact === true || filter === undefined || found.length === 0) return found;
  if (!leaks(ann.filterLeak, options.filterJson)) return found;
  const leak = bestOutside(collection, score, filter, largerIsBetter);
  if (leak === undefined) return found;
  const kept = found.length < options.limit ? found : found.slice(0, -1);
  // After every hit scoring at least as well, as a real index would rank the point it let through.
  const at = kept.findIndex((hit) => (largerIsBetter ? leak.score > hit.score : leak.score < hit.score));
  return at === -1 ? [...kept, leak] : [...kept.slice(0, at), leak, ...kept.slice(at)];
}

/** The best point that fails `filter`, for the filter-leak fault. */
function bestOutside(
  collection: Collection,
  score: (offset: number) => number,
  filter: PointPredicate,
  largerIsBetter: boolean,
): ScoredSlot | undefined {
  let leak: ScoredSlot | undefined;
  for (let slot = 0; slot < collection.pointsCount; slot++) {
    if (filter(collection.payloadAt(slot), collection.idAt(slot))) continue;
    const value = score(slot * collection.size);
    if (leak === undefined || (largerIsBetter ? value > leak.score : value < leak.score)) leak = { slot, score: value };
  }
  return leak;
}

/** Which points an approximate search visits; undefined when it visits them all. */
function visitPredicate(
  collection: Collection,
  options: NearestOptions,
  ann: AnnSettings,
): ((slot: number) => boolean) | undefined {
  if (options.exact === true) return undefined;
  const unreachable = ann.unreachable !== undefined && ann.unreachable.size > 0 ? ann.unreachable : undefined;
  const share = Math.min(1, ann.visitFraction * ((options.hnswEf ?? DEFAULT_HNSW_EF) / DEFAULT_HNSW_EF));
  if (share >= 1 && unreachable === undefined) return undefined;
  const threshold = Math.floor(share * 0x1_0000_0000);
  const querySeed = hashString(options.vector.slice(0, 8).join(','));
  return (slot) =>
    !unreachable?.has(collection.idAt(slot)) &&
    (share >= 1 || hashString(String(collection.idAt(slot)), querySeed) >>> 0 < threshold);
}

/** The scorer with the replay's noise added to each score (as f32, like every score the stand-in reports). */
function perturbed(
  collection: Collection,
  score: (offset: number) => number,
  query: Float32Array,
  perturb: ScorePerturbation | undefined,
): (offset: number) => number {
  if (perturb === undefined) return score;
  const size = collection.size;
  return (offset) => {
    const exact = score(offset);
    return Math.fround(exact + perturb(collection.idAt(offset / size), query, exact));
  };
}

/** FNV-1a, 32 bits: a cheap deterministic hash for the visit choice. */
function hashString(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function prepareQuery(collection: Collection, vector: readonly number[]): Float32Array {
  const query = Float32Array.from(vector);
  if (collection.distance === 'Cosine') {
    let squares = 0;
    for (const x of query) squares += x * x;
    normaliseInPlace(query, 0, query.length, squares);
  }
  return query;
}

function scorer(collection: Collection, query: Float32Array): (offset: number) => number {
  const slab = collection.vectorSlab;
  const size = collection.size;
  switch (collection.distance) {
    case 'Euclid':
      return (offset) => {
        let sum = 0;
        for (let i = 0; i < size; i++) {
          const d = (slab[offset + i] as number) - (query[i] as number);
          sum += d * d;
        }
        return Math.fround(Math.sqrt(sum));
      };
    case 'Manhattan':
      return (offset) => {
        let sum = 0;
        for (let i = 0; i < size; i++) sum += Math.abs((slab[offset + i] as number) - (query[i] as number));
        return Math.fround(sum);
      };
    default:
      return (offset) => {
        let sum = 0;
        for (let i = 0; i < size; i++) sum += (slab[offset + i] as number) * (query[i] as number);
        return Math.fround(sum);
      };
  }
}

/** The k best scores seen so far, kept sorted best first. */
class BestK {
  readonly #k: number;
  readonly #largerIsBetter: boolean;
  readonly #scores: Float64Array;
  readonly #slots: Int32Array;
  #filled = 0;

  constructor(k: number, largerIsBetter: boolean) {
    this.#k = k;
    this.#largerIsBetter = largerIsBetter;
    this.#scores = new Float64Array(k);
    this.#slots = new Int32Array(k);
  }

  #better(a: number, b: number): boolean {
    return this.#largerIsBetter ? a > b : a < b;
  }

  wouldKeep(score: number): boolean {
    if (this.#filled < this.#k) return true;
    return this.#better(score, this.#scores[this.#k - 1] as number);
  }

  add(slot: number, score: number): void {
    let at = Math.min(this.#filled, this.#k - 1);
    // Shift worse entries down; an equal score stays ahead, so ties keep insertion order.
    while (at > 0 && this.#better(score, this.#scores[at - 1] as number)) {
      this.#scores[at] = this.#scores[at - 1] as number;
      this.#slots[at] = this.#slots[at - 1] as number;
      at--;
    }
    this.#scores[at] = score;
    this.#slots[at] = slot;
    if (this.#filled < this.#k) this.#filled++;
  }

  sorted(): ScoredSlot[] {
    const out: ScoredSlot[] = [];
    for (let i = 0; i < this.#filled; i++)
      out.push({ slot: this.#slots[i] as number, score: this.#scores[i] as number });
    return out;
  }
}
