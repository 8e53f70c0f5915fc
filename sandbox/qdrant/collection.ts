/**
 * One collection's points, laid out for a million of them in little memory: vectors in one growable Float32Array
 * slab (a fixed stride per slot), payloads as the objects they arrived as, ids and versions per slot, and an
 * id -> slot Map so an upsert of a known id replaces in place. Scans walk slots and never copy the points.
 */
import { FieldIndex, type PayloadSchemaType } from './field-index.ts';
import type { Payload } from './payload-path.ts';
import { comparePointIds, type PointId } from './point-id.ts';
import { vectorDimensionError } from './wire-error.ts';

/** Qdrant's distance functions. */
export type Distance = 'Cosine' | 'Dot' | 'Euclid' | 'Manhattan';

export type { PayloadSchemaType } from './field-index.ts';

/** A payload index as created: its type and, when given as an object, its parameters. */
export interface PayloadIndex {
  dataType: PayloadSchemaType;
  params?: Record<string, unknown>;
}

/** A point to store; `vector` is validated against the collection's size. */
export interface PointInput {
  id: PointId;
  vector: ArrayLike<number>;
  payload?: Payload | null;
}

// Shared by every point stored without payload; frozen because responses hand payloads out by reference.
const EMPTY_PAYLOAD: Payload = Object.freeze({}) as Payload;
const INITIAL_CAPACITY = 1024;
// Payload strings repeat across chunks (source_url, chapter_id, module_name, headings); storing each distinct string
// once is what lets a million payloads fit. The cache stops growing at this many entries, so unique texts
// (chunk_text) cannot make it the largest thing in memory.
const MAX_INTERNED_STRINGS = 200_000;
const MAX_INTERNED_LENGTH = 512;

/** The stored points of one collection and its payload indexes. */
export class Collection {
  readonly name: string;
  readonly size: number;
  readonly distance: Distance;
  /** The payload indexes as created (createIndex sets them). */
  readonly indexes = new Map<string, PayloadIndex>();
  readonly #fieldIndexes = new Map<string, FieldIndex>();
  #capacity = INITIAL_CAPACITY;
  #vectors: Float32Array;
  #versions: Uint32Array;
  readonly #ids: PointId[] = [];
  readonly #payloads: Payload[] = [];
  readonly #slotById = new Map<PointId, number>();
  readonly #strings = new Map<string, string>();
  readonly #lists = new Map<string, unknown[]>();
  #lastOperationId = -1;
  // While ids arrive in increasing order (the usual bulk load), slot order is id order and no sort is needed.
  #slotsFollowIdOrder = true;
  #sortedSlots: Int32Array | undefined;

  constructor(options: { name: string; size: number; distance: Distance }) {
    this.name = options.name;
    this.size = options.size;
    this.distance = options.distance;
    this.#vectors = new Float32Array(this.#capacity * this.size);
    this.#versions = new Uint32Array(this.#capacity);
  }

  /** How many points are stored. */
  get pointsCount(): number {
    return this.#ids.length;
  }

  /** The raw slab: slot `s` occupies [s * size, (s + 1) * size). Read-only by convention, for the search loop. */
  get vectorSlab(): Float32Array {
    return this.#vectors;
  }

  /** Takes the next operation number (Qdrant's `operation_id`, which also becomes the points' `version`). */
  takeOperationId(): number {
    this.#lastOperationId += 1;
    return this.#lastOperationId;
  }

  /**
   * Creates (or replaces) the payload index on `key`: built from every stored point now, then kept up to date by
   * every write, as Qdrant builds and maintains its field indexes.
   */
  createIndex(key: string, index: PayloadIndex): void {
    const built = new FieldIndex(key, index.dataType);
    for (let slot = 0; slot < this.#ids.length; slot++) built.add(slot, this.#payloads[slot] as Payload);
    this.indexes.set(key, index);
    this.#fieldIndexes.set(key, built);
  }

  /** The maintained index on `key`, if one was created. */
  fieldIndex(key: string): FieldIndex | undefined {
    return this.#fieldIndexes.get(key);
  }

  /** Inserts or replaces points (vector and whole payload), after checking every vector's dimension first. */
  upsert(points: readonly PointInput[], version: number): void {
    for (const point of points) {
      if (point.vector.length !== this.size) throw vectorDimensionError(this.size, point.vector.length);
    }
    for (const point of points) this.#write(point, version);
  }

  #write(point: PointInput, version: number): void {
    let slot = this.#slotById.get(point.id);
    if (slot !== undefined) this.#unindex(slot);
    else {
      slot = this.#ids.length;
      if (slot === this.#capacity) this.#grow();
      const last = this.#ids[slot - 1];
      if (last !== undefined && comparePointIds(last, point.id) > 0) this.#slotsFollowIdOrder = false;
      this.#ids.push(point.id);
      this.#payloads.push(EMPTY_PAYLOAD);
      this.#slotById.set(point.id, slot);
      this.#sortedSlots = undefined;
    }
    const payload = point.payload;
    this.#payloads[slot] =
      payload && Object.keys(payload).length > 0 ? (this.#intern(payload) as Payload) : EMPTY_PAYLOAD;
    this.#versions[slot] = version;
    this.#storeVector(slot, point.vector);
    this.#index(slot);
  }

  /** The slot's payload enters every payload index. */
  #index(slot: number): void {
    for (const index of this.#fieldIndexes.values()) index.add(slot, this.#payloads[slot] as Payload);
  }

  /** The slot's payload leaves every payload index (before it is replaced or deleted). */
  #unindex(slot: number): void {
    for (const index of this.#fieldIndexes.values()) index.remove(this.#payloads[slot] as Payload);
  }

  /**
   * Removes the points with these ids (unknown ids are ignored, as in Qdrant) and returns how many went. The last slot
   * moves into each freed one, so the slab stays dense; id order is then recomputed on the next scroll.
   */
  delete(ids: readonly PointId[]): number {
    let removed = 0;
    for (const id of ids) {
      const slot = this.#slotById.get(id);
      if (slot === undefined) continue;
      this.#unindex(slot);
      const last = this.#ids.length - 1;
      if (slot !== last) {
        for (const index of this.#fieldIndexes.values()) index.move(last, slot);
        const movedId = this.#ids[last] as PointId;
        this.#ids[slot] = movedId;
        this.#payloads[slot] = this.#payloads[last] as Payload;
        this.#versions[slot] = this.#versions[last] as number;
        this.#vectors.copyWithin(slot * this.size, last * this.size, (last + 1) * this.size);
        this.#slotById.set(movedId, slot);
        this.#slotsFollowIdOrder = false;
      }
      this.#ids.pop();
      this.#payloads.pop();
      this.#slotById.delete(id);
      this.#sortedSlots = undefined;
      removed++;
    }
    return removed;
  }

  /** Merges `payload` into each point's payload (Qdrant's set_payload: other keys are kept); unknown ids are ignored. */
  setPayload(ids: readonly PointId[], payload: Payload, version: number): void {
    for (const id of ids) {
      const slot = this.#slotById.get(id);
      if (slot === undefined) continue;
      this.#unindex(slot);
      this.#payloads[slot] = this.#intern({ ...this.#payloads[slot], ...payload }) as Payload;
      this.#versions[slot] = version;
      this.#index(slot);
    }
  }

  /** A copy of a JSON value whose strings (and short lists of strings) are shared with earlier payloads. */
  #intern(value: unknown): unknown {
    if (typeof value === 'string') return this.#internString(value);
    if (Array.isArray(value)) return this.#internList(value);
    if (typeof value === 'object' && value !== null) {
      // A spread copy keeps the source's compact object layout; only its values are swapped for shared ones.
      const copy: Record<string, unknown> = { ...value };
      for (const key in copy) {
        // Assigning "__proto__" would set the copy's prototype instead of a field: leave that value as it came.
        if (key === '__proto__') continue;
        const field = copy[key];
        if (typeof field === 'string' || (typeof field === 'object' && field !== null)) copy[key] = this.#intern(field);
      }
      return copy;
    }
    return value;
  }

  #internString(text: string): string {
    if (text.length > MAX_INTERNED_LENGTH) return text;
    const known = this.#strings.get(text);
    if (known !== undefined) return known;
    if (this.#strings.size < MAX_INTERNED_STRINGS) this.#strings.set(text, text);
    return text;
  }

  #internList(list: unknown[]): unknown[] {
    // Heading paths like ["Module 1", "Sensors"] repeat across a page's chunks: one frozen shared copy each.
    if (list.length > 0 && list.length <= 8 && list.every((e) => typeof e === 'string' && e.length <= 128)) {
      const key = list.join('\u0001');
      const known = this.#lists.get(key);
      if (known !== undefined) return known;
      const shared = Object.freeze(list.map((e) => this.#internString(e as string))) as unknown[];
      if (this.#lists.size < MAX_INTERNED_STRINGS) this.#lists.set(key, shared);
      return shared;
    }
    return list.map((element) => this.#intern(element));
  }

  #storeVector(slot: number, vector: ArrayLike<number>): void {
    const offset = slot * this.size;
    const slab = this.#vectors;
    let squares = 0;
    for (let i = 0; i < this.size; i++) {
      const x = Math.fround(vector[i] as number);
      slab[offset + i] = x;
      squares += x * x;
    }
    if (this.distance === 'Cosine') normaliseInPlace(slab, offset, this.size, squares);
  }

  #grow(): void {
    this.#capacity *= 2;
    const vectors = new Float32Array(this.#capacity * this.size);
    vectors.set(this.#vectors);
    this.#vectors = vectors;
    const versions = new Uint32Array(this.#capacity);
    versions.set(this.#versions);
    this.#versions = versions;
  }

  /** The id stored in `slot`. */
  idAt(slot: number): PointId {
    return this.#ids[slot] as PointId;
  }

  /** The payload stored in `slot` (shared: never mutate it). */
  payloadAt(slot: number): Payload {
    return this.#payloads[slot] as Payload;
  }

  /** The version (last operation id) of the point in `slot`. */
  versionAt(slot: number): number {
    return this.#versions[slot] as number;
  }

  /** The stored (for Cosine: normalised) vector of `slot`, as a plain array for a response. */
  vectorAt(slot: number): number[] {
    return Array.from(this.#vectors.subarray(slot * this.size, (slot + 1) * this.size));
  }

  /** The slot of the point with this id, if stored. */
  slotOf(id: PointId): number | undefined {
    return this.#slotById.get(id);
  }

  /** The slot at `rank` in id order (Qdrant's scroll order); sorts once after ids arrived out of order. */
  slotAtRank(rank: number): number {
    if (this.#slotsFollowIdOrder) return rank;
    return this.#idOrder()[rank] as number;
  }

  /** The rank in id order of the first point whose id is >= `id`, i.e. where a scroll from `id` starts. */
  rankOfFirstAtOrAfter(id: PointId): number {
    let low = 0;
    let high = this.#ids.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (comparePointIds(this.idAt(this.slotAtRank(middle)), id) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #idOrder(): Int32Array {
    if (this.#sortedSlots === undefined) {
      const ids = this.#ids;
      const order = new Int32Array(ids.length);
      for (let i = 0; i < order.length; i++) order[i] = i;
      order.sort((a, b) => comparePointIds(ids[a] as PointId, ids[b] as PointId));
      this.#sortedSlots = order;
    }
    return this.#sortedSlots;
  }
}

/**
 * Qdrant's Cosine preprocessing, applied to stored and query vectors alike: divide by the norm, except that a zero
 * vector, or one already of unit length (within 1e-6), is kept exactly as given.
 */
export function normaliseInPlace(vector: Float32Array, offset: number, size: number, squares: number): void {
  if (squares < 1.1920929e-7 || Math.abs(squares - 1) <= 1e-6) return;
  const norm = Math.sqrt(squares);
  for (let i = offset; i < offset + size; i++) vector[i] = (vector[i] as number) / norm;
}
