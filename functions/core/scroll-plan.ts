/** How a scroll of the whole collection is asked for, when the index cannot aggregate (issue 20 §2). */
import type { CollectionInfo, ScrollOptions } from './ports.ts';

/** Scroll partitions when the configuration says nothing (SCROLL_PARTITIONS). */
export const DEFAULT_SCROLL_PARTITIONS = 8;

/** A scroll's pages and, past one partition, its parallel reading sized by the collection's own point count. */
export function scrollPlan(
  pageSize: number,
  partitions: number,
  info: CollectionInfo,
): Omit<ScrollOptions, 'payloadFields'> {
  return partitions > 1 ? { pageSize, parallel: { partitions, expectedPoints: info.pointsCount } } : { pageSize };
}
