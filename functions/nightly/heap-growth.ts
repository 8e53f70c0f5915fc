/**
 * How far V8 lets the old generation grow past the live heap before its next full collection (issue 20 §3).
 *
 * A run without payload indexes scrolls the whole collection: a page of short-lived objects per 1,000 points, some
 * of which outlive a scavenge and are promoted. The live heap stays near 28 MB, but by default V8 lets the old
 * generation grow to about four times that before it collects (measured with --trace-gc at P = 1M: 100-120 MB, then
 * back to 28), so the peak RSS followed the collection's size. At 1.5 times the live heap the peak at P = 1M fell
 * from 232 to 168 MB for no measurable CPU (docs/PERFORMANCE.md). Later changes (the inventory reading page_version)
 * made more garbage per page, and 50 % left 1M at +34 to +38 MB over 10k on a quiet machine; 25 % gives +22 MB for the
 * same engine CPU (11.8 s), while 10 % varied from run to run and cost CPU. The flag cannot go in NODE_OPTIONS (Node
 * refuses it there), so it is set when the handler's module loads; V8 reads it at each collection.
 */
import { setFlagsFromString } from 'node:v8';

const HEAP_GROWING_PERCENT = 25;

export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
