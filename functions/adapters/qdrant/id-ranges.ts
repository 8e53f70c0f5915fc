/**
 * Splitting a Qdrant scroll into id ranges read side by side (issue 20, the fallback without payload indexes).
 *
 * Qdrant's scroll walks points in id order from an `offset` that need not exist (every unsigned integer id before
 * every UUID; UUIDs as 128-bit numbers), so a range [start, end) is read by scrolling from `start` and keeping the
 * points below `end`. Ranges need no payload index and no knowledge of the payload: they work on any collection.
 * Where to cut is estimated from the first page: its ids' spacing times the points the collection says it holds
 * spreads the remaining ids into equal ranges, which is exact for dense integer ids (1..P, what most scripts write)
 * and close for random or name-based UUIDs (v4, v5: the indexer's). A wrong estimate costs balance, never points:
 * the first range starts where the first page ended and the last range has no end.
 */

export type PointId = string | number;

/** A half-open range of ids: `end` undefined reads to the end of the collection. */
export interface IdRange {
  start: PointId;
  end: PointId | undefined;
}

const UUID_SPACE = 1n << 128n;

/** Qdrant's id order: integers first (numerically), then UUIDs (canonical lowercase hex, so string order). */
export function compareIds(a: PointId, b: PointId): number {
  if (typeof a === 'number') return typeof b === 'number' ? a - b : -1;
  if (typeof b === 'number') return 1;
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Whether `id` lies before the range's end. */
export function beforeEnd(id: PointId, end: PointId | undefined): boolean {
  return end === undefined || compareIds(id, end) < 0;
}

/**
 * At most `count` ranges covering every id from `next` (the first page's next_page_offset) on, cut where the first
 * page's spacing says equal shares of the `remaining` points lie. `pageIds` are the first page's ids, in order.
 */
export function splitRemaining(options: {
  pageIds: readonly PointId[];
  next: PointId;
  remaining: number;
  count: number;
}): IdRange[] {
  const { next, count } = options;
  if (count <= 1 || options.remaining <= 0) return [{ start: next, end: undefined }];
  const kind = typeof next;
  const sameKind = options.pageIds.filter((id) => typeof id === kind).map(toBig);
  const first = toBig(next);
  // The mean gap between consecutive ids of the page; one id or none (next is the first of its kind): no spacing
  // to read, so integers are taken as dense and UUIDs as spread over their whole space.
  const ceiling = kind === 'number' ? BigInt(Number.MAX_SAFE_INTEGER) : UUID_SPACE - 1n;
  const estimated =
    sameKind.length >= 2
      ? (((sameKind.at(-1) as bigint) - (sameKind[0] as bigint)) * BigInt(Math.ceil(options.remaining))) /
        BigInt(sameKind.length - 1)
      : kind === 'number'
        ? BigInt(Math.ceil(options.remaining))
        : UUID_SPACE - first;
  // No id lies past the ceiling: an estimate beyond it would leave the last ranges empty.
  const span = estimated < ceiling + 1n - first ? estimated : ceiling + 1n - first;
  const starts: bigint[] = [first];
  for (let k = 1; k < count; k++) {
    const cut = first + (span * BigInt(k)) / BigInt(count);
    if (cut > (starts.at(-1) as bigint)) starts.push(cut);
  }
  return starts.map((start, k) => {
    const end = starts[k + 1];
    return { start: fromBig(start, kind), end: end === undefined ? undefined : fromBig(end, kind) };
  });
}

function toBig(id: PointId): bigint {
  return typeof id === 'number' ? BigInt(id) : BigInt(`0x${id.replaceAll('-', '')}`);
}

function fromBig(value: bigint, kind: string): PointId {
  if (kind === 'number') return Number(value);
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
