/**
 * The index inventory by facets: a constant number of requests whatever the number of points (issue 20). It needs
 * the indexer's keyword payload indexes on page_version ("<url> <page_hash> <chunk count>", payload.ts) and on
 * indexed_at, and asks:
 * 1. one exact facet on page_version: every version of every page with its number of points (a page with two
 *    versions holds stale chunks; a version with more points than the chunks it declares holds duplicates), and
 *    beside it one exact facet on indexed_at: the few indexing times the collection holds;
 * 2. only when the collection holds more than one time, or points without one: per time, the page_version facet
 *    filtered on that time (the pages whose oldest point is of that time), all at once.
 * So 2 requests in one round trip on a collection the indexer wrote in one run, 2 + T in two round trips otherwise.
 * A facet that reaches its limit may have been cut short: then the answer is undefined and the scroll is used.
 */
import { parsePageVersion } from '../book/payload.ts';
import type { FacetHit, VectorIndex } from '../ports.ts';
import {
  earlierDay,
  emptyPage,
  type HeldVersion,
  type IndexInventory,
  missingChunksOf,
  older,
  type PageInventory,
  TIME_FIELD,
  VERSION_FIELD,
} from '../quality/page-inventory.ts';

/** Page versions one facet may list (a book of 100,000 pages); a facet answering this many falls back to the scroll. */
const PAGE_VERSION_LIMIT = 100_000;
/** Distinct indexing times the facets resolve (one request each); more fall back to the scroll. */
const INDEXING_TIME_LIMIT = 32;

/** What the collection profile already knows (its exact count and its distinct source URLs). */
export interface ProfiledCollection {
  totalPoints: number;
  distinctUrls: ReadonlySet<string>;
}

/**
 * The inventory from facets, or undefined when a facet may have been cut short. `profiled` is the collection
 * profile's, awaited after the first facets so it costs no round trip of its own: its count tells the points without
 * a version, and its URLs the pages none of whose points has one (listed, with no version and no time).
 */
export async function readPageVersions(
  index: VectorIndex,
  profiled: Promise<ProfiledCollection>,
  limits: { versions: number; times: number } = { versions: PAGE_VERSION_LIMIT, times: INDEXING_TIME_LIMIT },
): Promise<IndexInventory | undefined> {
  const [versions, times] = await Promise.all([
    index.facet(VERSION_FIELD, limits.versions),
    index.facet(TIME_FIELD, limits.times),
  ]);
  const { totalPoints: total, distinctUrls } = await profiled;
  if (versions.length >= limits.versions || times.length >= limits.times) return undefined;

  const pages = new Map<string, PageInventory>();
  for (const url of distinctUrls) pageOf(pages, url);
  let placed = 0;
  const held = new Map<string, HeldVersion[]>();
  for (const hit of versions) {
    const version = typeof hit.value === 'string' ? parsePageVersion(hit.value) : undefined;
    if (version === undefined) continue;
    placed += hit.count;
    const page = pageOf(pages, version.sourceUrl);
    page.pageHashes.add(version.pageHash);
    page.declaresChunks = true;
    page.updatedDay = earlierDay(page.updatedDay, version.updatedDay);
    page.duplicateChunks += Math.max(0, hit.count - version.chunks);
    const known = held.get(version.sourceUrl) ?? [];
    known.push({ held: Math.min(hit.count, version.chunks), declared: version.chunks });
    held.set(version.sourceUrl, known);
  }
  for (const [url, known] of held) pageOf(pages, url).missingChunks = missingChunksOf(known);

  const timed = times.reduce((sum, t) => sum + t.count, 0);
  const only = times[0];
  if (times.length === 1 && only !== undefined && timed === total) {
    // One run wrote or confirmed every point: each page's oldest time is that run's.
    for (const page of pages.values()) page.oldestIndexedAt = older(undefined, only.value);
  } else if (times.length > 0) {
    const byTime = await Promise.all(
      times.map((t) =>
        index.facet(VERSION_FIELD, limits.versions, { must: [{ key: TIME_FIELD, match: { value: t.value } }] }),
      ),
    );
    byTime.forEach((hits, i) => {
      datePages(pages, hits, times[i]?.value);
    });
  }
  return { source: 'facet', pages, pointsWithoutPageHash: Math.max(0, total - placed) };
}

function pageOf(pages: Map<string, PageInventory>, url: string): PageInventory {
  let page = pages.get(url);
  if (page === undefined) {
    page = emptyPage();
    pages.set(url, page);
  }
  return page;
}

/** Each page listed under this indexing time is at least that old. */
function datePages(pages: Map<string, PageInventory>, hits: FacetHit[], time: unknown): void {
  for (const hit of hits) {
    const version = typeof hit.value === 'string' ? parsePageVersion(hit.value) : undefined;
    const page = version === undefined ? undefined : pages.get(version.sourceUrl);
    if (page !== undefined) page.oldestIndexedAt = older(page.oldestIndexedAt, time);
  }
}
