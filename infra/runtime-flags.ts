/**
 * The Node.js flags the nightly function runs with (its NODE_OPTIONS), shared with the benchmark so that what is
 * measured is what is deployed.
 * - --enable-source-maps: a defect's stack trace in the logs points at the TypeScript source, worth its ~60 ms of
 *   cold start for a job that starts once a night.
 * - --max-semi-space-size=4 (MB): the scroll path makes a page of short-lived garbage per 1,000 points; with V8's
 *   default young generation that garbage lets the peak RSS grow with the collection (221 MB at 1M points against
 *   158 MB at 10k), with a 4 MB semi-space it stays flat (158 MB at 1M) for the same CPU. See docs/PERFORMANCE.md.
 */
export const LAMBDA_V8_FLAGS = ['--max-semi-space-size=4'];
export const LAMBDA_NODE_OPTIONS = ['--enable-source-maps', ...LAMBDA_V8_FLAGS].join(' ');
