/**
 * One streaming read of the collection's payload fields the index-health checks need (source_url, page_hash,
 * chunk_index, model_version, indexed_at; never chunk text nor vectors), shared by them as the step `inventory`.
 * Per page it keeps its hashes, its chunk indexes (to see a repeated one) and its oldest time: memory grows with the
 * pages and their chunk indexes, never with the chunk text or the vectors.
 */
import { INVENTORY_FIELDS } from '../book/payload.ts';
import type { RunContext } from '../checks/input.ts';
import type { Payload } from '../ports.ts';

interface PageInventory {
  pageHashes: Set<string>;
  chunkIndexes: Set<number>;
  duplicateChunks: number;
  /** The earliest indexed_at of the page's points (ISO 8601), when they carry one. */
  oldestIndexedAt: string | undefined;
}

export interface IndexInventory {
  points: number;
  pages: Map<string, PageInventory>;
  pointsWithoutPageHash: number;
  models: Map<string, number>;
  /** The canary's sample: the ids with the smallest hash, a fixed choice that does not depend on scroll order. */
  sampleIds: string[];
}

export const NO_MODEL = '(none)';

/** Reads the inventory in one scroll, as the step `inventory`. */
export const readInventory = (ctx: RunContext): Promise<IndexInventory> =>
  ctx.step('inventory', async () => {
    const sampleSize = ctx.options.indexHealth?.canarySample ?? 8;
    const inventory: IndexInventory = {
      points: 0,
      pages: new Map(),
      pointsWithoutPageHash: 0,
      models: new Map(),
      sampleIds: [],
    };
    const sample: { id: string; rank: number }[] = [];
    const pages = ctx.deps.index.scroll({
      payloadFields: INVENTORY_FIELDS,
      pageSize: ctx.options.scrollPageSize ?? 1000,
    });
    for await (const page of pages) {
      for (const point of page) {
        add(inventory, point.payload);
        keepSmallest(sample, { id: point.id, rank: sampleRank(point.id) }, sampleSize);
      }
    }
    inventory.sampleIds = sample.map((s) => s.id);
    return inventory;
  });

function add(inventory: IndexInventory, payload: Payload): void {
  inventory.points += 1;
  const model = typeof payload.model_version === 'string' ? payload.model_version : NO_MODEL;
  inventory.models.set(model, (inventory.models.get(model) ?? 0) + 1);
  const url = payload.source_url;
  if (typeof url !== 'string') return;
  let page = inventory.pages.get(url);
  if (page === undefined) {
    page = { pageHashes: new Set(), chunkIndexes: new Set(), duplicateChunks: 0, oldestIndexedAt: undefined };
    inventory.pages.set(url, page);
  }
  if (typeof payload.page_hash === 'string') page.pageHashes.add(payload.page_hash);
  else inventory.pointsWithoutPageHash += 1;
  if (typeof payload.chunk_index === 'number') {
    if (page.chunkIndexes.has(payload.chunk_index)) page.duplicateChunks += 1;
    else page.chunkIndexes.add(payload.chunk_index);
  }
  const at = payload.indexed_at;
  if (typeof at === 'string' && !Number.isNaN(Date.parse(at))) {
    if (page.oldestIndexedAt === undefined || Date.parse(at) < Date.parse(page.oldestIndexedAt))
      page.oldestIndexedAt = at;
  }
}

/** FNV-1a of the id: the canary samples the ids of smallest rank, a choice spread over the collection. */
export function sampleRank(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

function keepSmallest(sample: { id: string; rank: number }[], item: { id: string; rank: number }, size: number): void {
  if (size <= 0) return;
  const last = sample[size - 1];
  // Ranks tie (a hash collision) in id order, so the sample does not depend on the scroll's order.
  if (last !== undefined && byRank(item, last) > 0) return;
  sample.push(item);
  sample.sort(byRank);
  if (sample.length > size) sample.pop();
}

function byRank(a: { id: string; rank: number }, b: { id: string; rank: number }): number {
  return a.rank - b.rank || a.id.localeCompare(b.id);
}
