/**
 * The Node.js flags the nightly function runs with (its NODE_OPTIONS), shared with the benchmark so that what is
 * measured is what is deployed.
 * - --enable-source-maps: a defect's stack trace in the logs points at the TypeScript source, worth its ~60 ms of
 *   cold start for a job that starts once a night.
 * - --max-semi-space-size=4 (MB): the scroll path makes a page of short-lived garbage per 1,000 points, and V8's
 *   default young generation lets it lift the peak RSS as the collection grows (221 MB at 1M points). With a 4 MB
 *   semi-space the peak at 1M was 158-181 MB over two runs, for the same CPU; the live heap after a run is ~17 MB
 *   whatever the size, so what remains is V8 collecting the old generation lazily. See docs/PERFORMANCE.md.
 * - V8's heap growth is limited too (--heap-growing-percent=50), but Node refuses that flag in NODE_OPTIONS: the
 *   handler sets it when its module loads (functions/nightly/heap-growth.ts).
 */
export const LAMBDA_V8_FLAGS = ['--max-semi-space-size=4'];
export const LAMBDA_NODE_OPTIONS = ['--enable-source-maps', ...LAMBDA_V8_FLAGS].join(' ');
