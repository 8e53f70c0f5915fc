/**
 * What the stale-chunk and freshness checks need to know of each page: its versions (page hashes), the chunks a
 * version holds more than once, and the oldest indexed_at of its points. Read one of two ways, with the same figures:
 * - by facets (index-health/page-versions.ts), a constant number of requests whatever the size of the collection,
 *   where the indexer's keyword payload indexes on page_version and indexed_at exist;
 * - else by a streaming scroll of six small payload fields (never chunk text nor vectors), folded page by page by an
 *   InventoryTally, which also counts the points per embedding model for the mixed-models check when model_version
 *   has no index.
 * The fold lives here, below index health, because the collection profile's own scroll carries it when both must read
 * every point (quality/inputs.ts): one pass over the collection instead of two side by side (issue 20 §3).
 */
import { INVENTORY_FIELDS, parsePageVersion } from '../book/payload.ts';
import type { CollectionInfo, Payload } from '../ports.ts';

export interface PageInventory {
  /** The page_hash values of the page's points: more than one means leftovers of an earlier version. */
  pageHashes: Set<string>;
  /** Points beyond one per chunk within one version of the page (a chunk_index repeated, or more than declared). */
  duplicateChunks: number;
  /**
   * Chunks the page's current version declares (page_version's count: what the indexer wrote) that hold no point:
   * chunks lost after writing (a partial write, a delete by filter, a re-index cut short). The current version is
   * the one holding the most chunks (missingChunksOf); 0 when no version declares a count.
   */
  missingChunks: number;
  /** Whether any of the page's points names a readable page_version (its chunk count can be checked). */
  declaresChunks: boolean;
  /** The earliest indexed_at of the page's points (ISO 8601), when they carry one. */
  oldestIndexedAt: string | undefined;
  /**
   * The earliest last-update day (YYYY-MM-DD) the page's versions declare (page_version's day: when the indexed
   * text was last edited, as the site dates it); undefined when no version declares one (an older indexer).
   */
  updatedDay: string | undefined;
}

export interface IndexInventory {
  /** facet: the page_version and indexed_at facets; scroll: the inventory scroll. */
  source: 'facet' | 'scroll';
  pages: Map<string, PageInventory>;
  /** Points with a source_url but no page version: no page_hash (scroll), no readable page_version (facet). */
  pointsWithoutPageHash: number;
}

/** The scroll's inventory: also every point's model, for the mixed-models check without a model_version index. */
export interface ScrolledInventory extends IndexInventory {
  source: 'scroll';
  points: number;
  models: Map<string, number>;
}

export const NO_MODEL = '(none)';

/** The keyword-indexed payload fields the page-version facets read. */
export const VERSION_FIELD = 'page_version';
export const TIME_FIELD = 'indexed_at';

/** Whether the collection has the keyword indexes the page-version facets need (else the inventory is scrolled). */
export function hasPageIndexes(info: CollectionInfo): boolean {
  return info.payloadIndexes[VERSION_FIELD] === 'keyword' && info.payloadIndexes[TIME_FIELD] === 'keyword';
}

/**
 * The chunk indexes seen per page and version while scrolling, dropped once the scroll ends: one
 * bit per chunk index below BITMAP_LIMIT (a page of 200 chunks is 7 words), a set only for the rare index beyond it or
 * not a whole number. One Set entry per point cost about 77 bytes: 77 MB of heap at a million points (issue 20 §3).
 */
type SeenChunks = Map<string, Map<string, SeenVersion>>;

/** One version's chunk indexes as scrolled, and the chunk count its page_version declares (undefined: none read). */
interface SeenVersion {
  bits: ChunkBits;
  declared: number | undefined;
}

/** Chunk indexes a page version's bitmap covers; beyond it (no real page has 65,536 chunks), a set. */
const BITMAP_LIMIT = 65_536;

export class ChunkBits {
  #words = new Uint32Array(2);
  #others: Set<number> | undefined;
  #distinct = 0;

  /** How many distinct chunk indexes are marked. */
  get distinct(): number {
    return this.#distinct;
  }

  /** What it holds: 32-bit words of bitmap, and indexes kept in the set (for tests of its memory). */
  get size(): { words: number; others: number } {
    return { words: this.#words.length, others: this.#others?.size ?? 0 };
  }

  /** Marks the chunk index; true when it was already marked. */
  mark(index: number): boolean {
    if (!Number.isInteger(index) || index < 0 || index >= BITMAP_LIMIT) {
      this.#others ??= new Set();
      if (this.#others.has(index)) return true;
      this.#others.add(index);
      this.#distinct += 1;
      return false;
    }
    const word = index >>> 5;
    if (word >= this.#words.length) {
      const grown = new Uint32Array(Math.max(word + 1, this.#words.length * 2));
      grown.set(this.#words);
      this.#words = grown;
    }
    const bit = 1 << (index & 31);
    const had = ((this.#words[word] as number) & bit) !== 0;
    this.#words[word] = (this.#words[word] as number) | bit;
    if (!had) this.#distinct += 1;
    return had;
  }
}

/**
 * The inventory folded point by point as a scroll's pages arrive, in any order: O(page versions) state, never the
 * points. `fields` are the payload fields it reads.
 */
export class InventoryTally {
  readonly fields: readonly string[] = INVENTORY_FIELDS;
  readonly #inventory: ScrolledInventory = {
    source: 'scroll',
    points: 0,
    pages: new Map(),
    pointsWithoutPageHash: 0,
    models: new Map(),
  };
  readonly #seen: SeenChunks = new Map();

  add(payload: Payload): void {
    add(this.#inventory, this.#seen, payload);
  }

  /** The inventory once every point was added (the chunk indexes seen go with the tally). */
  result(): ScrolledInventory {
    countMissing(this.#inventory, this.#seen);
    return this.#inventory;
  }
}

function add(inventory: ScrolledInventory, seen: SeenChunks, payload: Payload): void {
  inventory.points += 1;
  const model = typeof payload.model_version === 'string' ? payload.model_version : NO_MODEL;
  inventory.models.set(model, (inventory.models.get(model) ?? 0) + 1);
  const url = payload.source_url;
  if (typeof url !== 'string') return;
  let page = inventory.pages.get(url);
  if (page === undefined) {
    page = emptyPage();
    inventory.pages.set(url, page);
  }
  const hash = typeof payload.page_hash === 'string' ? payload.page_hash : undefined;
  if (hash === undefined) inventory.pointsWithoutPageHash += 1;
  else page.pageHashes.add(hash);
  const parsed = typeof payload.page_version === 'string' ? parsePageVersion(payload.page_version) : undefined;
  const declared = parsed?.chunks;
  if (declared !== undefined) page.declaresChunks = true;
  page.updatedDay = earlierDay(page.updatedDay, parsed?.updatedDay);
  if (typeof payload.chunk_index === 'number') {
    // A chunk repeated within one version; chunks of two versions are the stale pages' concern, counted once there.
    const versions = seen.get(url) ?? new Map<string, SeenVersion>();
    seen.set(url, versions);
    const version = versions.get(hash ?? '') ?? { bits: new ChunkBits(), declared: undefined };
    versions.set(hash ?? '', version);
    if (declared !== undefined) version.declared = Math.max(version.declared ?? 0, declared);
    if (version.bits.mark(payload.chunk_index)) page.duplicateChunks += 1;
  }
  page.oldestIndexedAt = older(page.oldestIndexedAt, payload.indexed_at);
}

/** A page not seen before. */
export function emptyPage(): PageInventory {
  return {
    pageHashes: new Set(),
    duplicateChunks: 0,
    missingChunks: 0,
    declaresChunks: false,
    oldestIndexedAt: undefined,
    updatedDay: undefined,
  };
}

/** One version of a page as read: the chunks it holds and the count its page_version declares. */
export interface HeldVersion {
  held: number;
  declared: number | undefined;
}

/**
 * The chunks a page's current version declares and does not hold. The current version is the one holding the most
 * chunks (on a tie, the one missing fewest): the others are leftovers of earlier versions, which keep only the
 * chunks the new version did not overwrite (point ids are per page and chunk index) and are stale chunks, not lost
 * text. Counting them here would call every stale leftover a truncated page.
 */
export function missingChunksOf(versions: Iterable<HeldVersion>): number {
  let current: HeldVersion | undefined;
  const missing = (v: HeldVersion) => Math.max(0, (v.declared ?? v.held) - v.held);
  for (const version of versions)
    if (
      current === undefined ||
      version.held > current.held ||
      (version.held === current.held && missing(version) < missing(current))
    )
      current = version;
  return current === undefined ? 0 : missing(current);
}

/** Each page's missing chunks, its versions' held chunks being their distinct chunk indexes (a repeat hides none). */
function countMissing(inventory: ScrolledInventory, seen: SeenChunks): void {
  for (const [url, versions] of seen) {
    const page = inventory.pages.get(url);
    if (page === undefined) continue;
    page.missingChunks = missingChunksOf(
      [...versions.values()].map((v) => ({ held: v.bits.distinct, declared: v.declared })),
    );
  }
}

/** The earlier of a page's earliest last-update day so far and a version's (YYYY-MM-DD sorts as text). */
export function earlierDay(earliest: string | undefined, day: string | undefined): string | undefined {
  if (day === undefined) return earliest;
  return earliest === undefined || day < earliest ? day : earliest;
}

/** The older of a page's oldest time so far and a point's indexed_at (unreadable times ignored). */
export function older(oldest: string | undefined, at: unknown): string | undefined {
  if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) return oldest;
  return oldest === undefined || Date.parse(at) < Date.parse(oldest) ? at : oldest;
}
