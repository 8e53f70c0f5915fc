/**
 * `npm run bench`: the full validation against the sandbox's stand-ins with injected per-request latency, at
 * several suite sizes (N) and collection sizes (P), with and without payload indexes; then the Lambda bundle's size
 * and module initialisation; then the issue's targets, each met or missed. Figures, not assertions.
 *
 * What happens, in order:
 * 1. The engine is bundled as the Lambda is (bench/bundle.ts); each scenario forks that bundle (bench/engine-child.ts)
 *    so the engine's peak RSS is its own. The Qdrant and Cohere stand-ins and a sitemap server run in this process.
 *    The Cohere stand-in embeds into 8 dimensions, the synthetic collections' vector size, so query vectors match.
 * 2. For each P: a collection is created through the real client and filled with `loadPoints`; the scenarios
 *    without payload indexes run; the indexes are created through the real client; the indexed scenarios run.
 * 3. A scenario's first run is cold, as a nightly Lambda's only run is: its requests are counted, its CPU and peak
 *    RSS kept. Where the bound is a few round trips, warm runs follow, alternately at the latency L and at L + 200 ms:
 *    the slope (wall at L + 200 − wall at L) / 200 ms is the number of round trips the run really waits for one after
 *    the other, whatever the compute of the engine and of the stand-ins (which the bound leaves out) adds on top. The
 *    step is that large so the slope stands clear of this machine's noise.
 * 4. The sample suite (22 queries, 6 answered by the agent) runs on the sample book, as `npm start` shows it: once
 *    with the claim judge (GROUNDING_JUDGE=cohere, the default), once with the lexical gate alone, so the time the
 *    judge adds (one chat call per claim, one after the other) is the difference of the two.
 * 5. The handler is bundled as the CDK stack bundles it, and imported by fresh processes.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { QdrantClient } from '@qdrant/js-client-rest';
import { PAYLOAD_INDEXES } from '../functions/core/book/payload.ts';
import { DEFAULT_REQUIRED_FIELDS } from '../functions/core/config.ts';
import { namesModulesOrChapters } from '../functions/core/queries/catalog.ts';
import { parseSuite, resolveQueries } from '../functions/core/suite/suite.ts';
import { LAMBDA_V8_FLAGS } from '../infra/runtime-flags.ts';
import { SAMPLE_BOOK_DIR } from '../sandbox/book-server.ts';
import { type CohereStandIn, startCohereStandIn } from '../sandbox/cohere/index.ts';
import { type QdrantStandIn, startQdrantStandIn } from '../sandbox/qdrant/index.ts';
import { type SitemapServer, startSitemapServer } from '../sandbox/sitemap-server.ts';
import { indexSampleBook, SAMPLE_SUITE_PATH, seedIndexDrift, startSandbox } from '../sandbox/start-sandbox.ts';
import type { Endpoint } from './bounds.ts';
import { BUNDLE_DIR, bundleLikeTheStack } from './bundle.ts';
import type { EngineFigures } from './engine-child.ts';
import { startEngineProcess } from './engine-process.ts';
import { formatCount, formatNumber } from './format-table.ts';
import { runHandlerUrlsBench } from './handler-urls-bench.ts';
import { type LambdaFigures, measureLambda, median } from './lambda-bundle.ts';
import type { Measured, Scenario } from './measured.ts';
import { type BenchSettings, printLambda, printMachine, printResults, printTargets } from './print-results.ts';
import { runSeedsAlgorithm } from './seeds-algorithm.ts';
import { runSitemapBench } from './sitemap-bench.ts';
import { generateSuite, SYNTHETIC_PAGES, syntheticPoints, syntheticSitemapXml } from './synthetic-book.ts';

const USAGE = `usage: npm run bench -- [options]
  --latency <ms>      delay every stand-in adds to each request (default 50)
  --quick             P = 10k and 100k only (skips the million-point collection)
  --sizes <list>      the collection sizes instead, e.g. --sizes 10M (10k, 100k, 1M, 10M; 10M holds ~4 GB in
                      the stand-in, loads in ~1 min, and is run indexed and at N = 200 only)
  --only <text>       run only the scenarios whose name contains <text> (e.g. "P=100k indexed", "sample",
                      "sitemap": the sitemap reading figures; "huge URL lists": the
                      handler's peak RSS with 50,000 missing URLs of 2 KB)
  --page-size <n>     scroll page size for the engine (default 1000, the engine's own)
  --partitions <n>    id ranges each fallback scroll reads at once (SCROLL_PARTITIONS, default 8)
  --default-heap-growth  leave V8's heap growth as it is (the handler limits it: functions/nightly/heap-growth.ts)
  --skip-lambda       skip bundling and timing the Lambda handler
  --timeouts <ms>     the engine's Qdrant and Cohere request timeouts for every size (default: the engine's own,
                      60000 at 10M); for a machine so loaded that the one-thread stand-ins cannot answer in 10 s
  --cpu-prof <dir>    write a V8 CPU profile of each engine process into <dir> (figures then include the profiler)
  --cpu-prof-cold <dir>  write a V8 CPU profile of each scenario's cold run alone into <dir> (<scenario>.cpuprofile)
  --alloc-prof-cold <dir>  write a sampling allocation profile of each scenario's cold run, freed objects included,
                      into <dir> (<scenario>.heapprofile); not with --cpu-prof-cold (it slows allocation)
  --unminified        bundle the engine without minifying, so a --cpu-prof profile names ragwatch's functions (its
                      source map, beside the bundle, names their files); not the deployed code, so not for figures
  --engine-flags=<f>  Node/V8 flags for the engine processes instead of the deployed ones (infra/runtime-flags.ts),
                      e.g. --engine-flags="--optimize-for-size"; --engine-flags= for none`;

const DIMENSIONS = 8;
const SEARCH_CONCURRENCY = 4;
const MAX_AGENT_QUERIES = 10;
const WARM_RUNS = 3;
const LATENCY_STEP_MS = 200;
const INIT_RUNS = 7;
const SAMPLE_SUITE_NAME = 'sample suite';
const SITEMAP_BENCH_NAME = 'sitemap';
/** Issue 19: the whole handler's peak RSS with 50,000 missing URLs of 2 KB in the report. */
const HANDLER_URLS_BENCH_NAME = 'huge URL lists';
/** The yardstick of issue 20: the seeds' algorithm at N = 200 on the P = 100k collection, in the same run. */
const SEEDS_NAME = "seeds' algorithm";
const SEEDS_QUERIES = 200;
const SEEDS_POINTS = 100_000;
/**
 * At ten million points the stand-in's brute-force searches (one JavaScript thread; a real Qdrant answers from
 * its HNSW graph) take longer than the engine's 10 s request timeout: that size
 * gets the setting's maximum, 60 s (Cohere's stand-in too: it shares the stand-ins' one thread, so it cannot answer
 * while a brute-force batch runs), so it measures requests and the engine's memory. Its times are the stand-in's, not a network's.
 */
const STAND_IN_TIMEOUT_MS_AT_10M = '60000';
const ENGINE_BUNDLE = path.join(BUNDLE_DIR, 'engine', 'engine-child.mjs');

/** The stand-ins one scenario talks to. */
interface World {
  qdrant: QdrantStandIn;
  cohere: CohereStandIn;
  sitemap: SitemapServer;
}

const { values: flags } = parseArgs({
  options: {
    latency: { type: 'string', default: '50' },
    quick: { type: 'boolean', default: false },
    sizes: { type: 'string' },
    only: { type: 'string' },
    'page-size': { type: 'string', default: '1000' },
    partitions: { type: 'string', default: '8' },
    'default-heap-growth': { type: 'boolean', default: false },
    'skip-lambda': { type: 'boolean', default: false },
    timeouts: { type: 'string' },
    'cpu-prof': { type: 'string' },
    'cpu-prof-cold': { type: 'string' },
    'alloc-prof-cold': { type: 'string' },
    unminified: { type: 'boolean', default: false },
    'engine-flags': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (flags.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const latencyMs = Number(flags.latency);
const pageSize = Number(flags['page-size']);
const partitions = Number(flags.partitions);
const timeouts = flags.timeouts === undefined ? undefined : Number(flags.timeouts);
if (timeouts !== undefined && !(Number.isInteger(timeouts) && timeouts >= 1000 && timeouts <= 60_000)) {
  process.stderr.write(`--timeouts must be a whole number of ms from 1000 to 60000\n${USAGE}\n`);
  process.exit(2);
}
if (
  !Number.isFinite(latencyMs) ||
  latencyMs < 0 ||
  !Number.isInteger(pageSize) ||
  pageSize < 1 ||
  !Number.isInteger(partitions) ||
  partitions < 1 ||
  partitions > 32
) {
  process.stderr.write(
    `--latency must be >= 0, --page-size a whole number >= 1 and --partitions one from 1 to 32\n${USAGE}\n`,
  );
  process.exit(2);
}
if (flags['cpu-prof-cold'] && flags['alloc-prof-cold']) {
  process.stderr.write(`--cpu-prof-cold and --alloc-prof-cold profile one run each: give one\n${USAGE}\n`);
  process.exit(2);
}
for (const dir of [flags['cpu-prof-cold'], flags['alloc-prof-cold']]) if (dir) mkdirSync(dir, { recursive: true });
const profileFlags = flags['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(flags['cpu-prof'])}`] : [];
// By default the engine runs with the V8 flags the Lambda is deployed with (infra/runtime-flags.ts).
const engineFlags = flags['engine-flags']?.split(/\s+/).filter((f) => f !== '') ?? LAMBDA_V8_FLAGS;
const settings: BenchSettings = {
  latencyMs,
  latencyStepMs: LATENCY_STEP_MS,
  warmRuns: WARM_RUNS,
  dimensions: DIMENSIONS,
  pages: SYNTHETIC_PAGES,
  pageSize,
  concurrency: SEARCH_CONCURRENCY,
  nodeFlags: engineFlags,
};

const wanted = (name: string) => flags.only === undefined || name.includes(flags.only);
const SIZE_NAMES: Record<string, number> = { '10k': 10_000, '100k': 100_000, '1M': 1_000_000, '10M': 10_000_000 };
const sizes = flags.sizes
  ? flags.sizes.split(',').map((name) => {
      const size = SIZE_NAMES[name.trim()];
      if (size === undefined) {
        process.stderr.write(`--sizes: "${name}" is not one of ${Object.keys(SIZE_NAMES).join(', ')}\n${USAGE}\n`);
        process.exit(2);
      }
      return size;
    })
  : flags.quick
    ? [10_000, 100_000]
    : [10_000, 100_000, 1_000_000];
const scenarios: Scenario[] = sizes.flatMap((points) =>
  [false, true].flatMap((payloadIndexes) =>
    [20, 200]
      // Without indexes the scroll dominates and is the same for any N: one N is enough at a million points. At ten
      // million the scroll path would only repeat 1M's figures ten times slower: indexed, N = 200.
      .filter((queries) => payloadIndexes || points < 1_000_000 || queries === 200)
      .filter((queries) => points < 10_000_000 || (payloadIndexes && queries === 200))
      .map((queries) => ({
        name: `N=${queries} P=${formatCount(points)} ${payloadIndexes ? 'indexed' : 'no index'}`,
        queries,
        points,
        payloadIndexes,
        warm: payloadIndexes && points <= 100_000,
      }))
      .filter((s) => wanted(s.name)),
  ),
);

const log = (line: string) => process.stderr.write(`${line}\n`);
const workDir = mkdtempSync(path.join(os.tmpdir(), 'ragwatch-bench-'));
const started = performance.now();

try {
  printMachine(settings);
  await bundleLikeTheStack({
    entry: path.join(import.meta.dirname, 'engine-child.ts'),
    outfile: ENGINE_BUNDLE,
    external: [],
    minify: !flags.unminified,
  });
  const seeds: { wallMs: number; requests: number }[] = [];
  const measured = await runSyntheticScenarios(seeds);
  if (wanted(SAMPLE_SUITE_NAME)) measured.push(await runSampleSuite('cohere'), await runSampleSuite('lexical'));
  printResults(measured, settings);
  if (wanted(SITEMAP_BENCH_NAME)) await runSitemapBench({ nodeFlags: engineFlags, log });
  if (wanted(HANDLER_URLS_BENCH_NAME)) await runHandlerUrlsBench({ nodeFlags: engineFlags, log });
  let lambda: LambdaFigures | null = null;
  if (!flags['skip-lambda']) {
    log('bundling and timing the Lambda handler ...');
    lambda = await measureLambda({ initRuns: INIT_RUNS });
    printLambda(lambda);
  }
  printTargets(measured, lambda, settings, seeds[0] ?? null);
  log(`\nbench finished in ${formatNumber((performance.now() - started) / 1000, 1)} s`);
} finally {
  rmSync(workDir, { recursive: true, force: true });
}

async function runSyntheticScenarios(seeds: { wallMs: number; requests: number }[]): Promise<Measured[]> {
  if (scenarios.length === 0) return [];
  const [qdrant, cohere, sitemap] = await Promise.all([
    startQdrantStandIn(),
    startCohereStandIn({ dimensions: DIMENSIONS }),
    startSitemapServer({ xml: syntheticSitemapXml(), latencyMs: 0 }),
  ]);
  const world: World = { qdrant, cohere, sitemap };
  const client = new QdrantClient({ url: qdrant.url, checkCompatibility: false, timeout: 60_000 });
  const results: Measured[] = [];
  try {
    for (const points of sizes.filter((p) => scenarios.some((s) => s.points === p))) {
      const collection = `bench-${formatCount(points)}`;
      await client.createCollection(collection, { vectors: { size: DIMENSIONS, distance: 'Cosine' } });
      const loadStarted = performance.now();
      for (const batch of syntheticPoints({ total: points, dimensions: DIMENSIONS }))
        qdrant.loadPoints(collection, batch);
      log(`loaded ${formatCount(points)} points in ${formatNumber((performance.now() - loadStarted) / 1000, 1)} s`);
      for (const payloadIndexes of [false, true]) {
        if (payloadIndexes) {
          for (const [field, type] of Object.entries(PAYLOAD_INDEXES))
            await client.createPayloadIndex(collection, { field_name: field, field_schema: type, wait: true });
        }
        for (const scenario of scenarios.filter((s) => s.points === points && s.payloadIndexes === payloadIndexes)) {
          const env = envFor(world, collection, points);
          results.push(await measure(scenario, 0, world, env, writeSuite(generateSuite(scenario.queries))));
        }
        // Beside the target scenario it is compared with, or alone when asked for by name.
        const seedsWanted = wanted(SEEDS_NAME) || scenarios.some((s) => s.name === `N=${SEEDS_QUERIES} P=100k indexed`);
        if (payloadIndexes && points === SEEDS_POINTS && seedsWanted) {
          seeds.push(await measureSeeds(world, { ...envFor(world, collection) }));
        }
      }
      await client.deleteCollection(collection);
    }
  } finally {
    await Promise.all([qdrant.stop(), cohere.stop(), sitemap.stop()]);
  }
  return results;
}

function envFor(world: World, collection: string, points = 0): Record<string, string> {
  const timeout =
    timeouts === undefined ? (points >= 10_000_000 ? STAND_IN_TIMEOUT_MS_AT_10M : undefined) : String(timeouts);
  return {
    ...(timeout === undefined ? {} : { QDRANT_TIMEOUT_MS: timeout, COHERE_TIMEOUT_MS: timeout }),
    QDRANT_URL: world.qdrant.url,
    QDRANT_COLLECTION: collection,
    COHERE_API_KEY: 'bench-key',
    COHERE_BASE_URL: world.cohere.url,
    DOCUSAURUS_BASE_URL: 'https://book.example.com',
    SITEMAP_URL: world.sitemap.url,
  };
}

/** The seeds' algorithm once, at the bench's latency, with its requests counted by the stand-ins. */
async function measureSeeds(world: World, env: Record<string, string>): Promise<{ wallMs: number; requests: number }> {
  log(`running ${SEEDS_NAME} N=${SEEDS_QUERIES} P=${formatCount(SEEDS_POINTS)} ...`);
  setLatency(world, latencyMs);
  world.qdrant.resetCounts();
  world.cohere.resetCounts();
  try {
    const { wallMs } = await runSeedsAlgorithm(
      env,
      generateSuite(SEEDS_QUERIES).queries.map((q) => q.query_text),
    );
    const sum = (counts: Record<string, number | undefined>) =>
      Object.values(counts).reduce<number>((total, n) => total + (n ?? 0), 0);
    return { wallMs, requests: sum(world.qdrant.requestCounts()) + sum(world.cohere.requestCounts()) };
  } finally {
    setLatency(world, 0);
  }
}

/** The sample suite on the sample book (1,024 dimensions), as the demo runs it: the grounded-answer chain shows. */
async function runSampleSuite(judge: 'cohere' | 'lexical'): Promise<Measured> {
  const sandbox = await startSandbox();
  const sampleSitemap = readFileSync(path.join(SAMPLE_BOOK_DIR, 'sitemap.xml'), 'utf8');
  const sitemap = await startSitemapServer({ xml: sampleSitemap, latencyMs: 0 });
  try {
    const indexed = await indexSampleBook(sandbox);
    await seedIndexDrift(sandbox);
    const suite = JSON.parse(readFileSync(SAMPLE_SUITE_PATH, 'utf8')) as { queries: { agent?: boolean }[] };
    const scenario: Scenario = {
      name: `${SAMPLE_SUITE_NAME} (${suite.queries.length} q, 1024 dims) P=${indexed.chunks + 2}${judge === 'lexical' ? ', lexical gate only' : ''}`,
      queries: suite.queries.length,
      points: indexed.chunks + 2,
      payloadIndexes: true,
      warm: true,
      // seedIndexDrift dates one page earlier than the rest: two indexing times, one page_version facet each.
      indexingTimes: 2,
      catalog: namesModulesOrChapters(
        resolveQueries(parseSuite(readFileSync(SAMPLE_SUITE_PATH, 'utf8'), SAMPLE_SUITE_PATH)),
      ),
    };
    const agentQueries = Math.min(MAX_AGENT_QUERIES, suite.queries.filter((q) => q.agent).length);
    const env = { ...sandbox.env, SITEMAP_URL: sitemap.url, GROUNDING_JUDGE: judge };
    const world = { qdrant: sandbox.qdrant, cohere: sandbox.cohere, sitemap };
    return await measure(scenario, agentQueries, world, env, SAMPLE_SUITE_PATH);
  } finally {
    await Promise.all([sandbox.stop(), sitemap.stop()]);
  }
}

function writeSuite(suite: unknown): string {
  const file = path.join(workDir, `suite-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(suite));
  return file;
}

function fileNameOf(scenarioName: string): string {
  return scenarioName.replace(/[^\w=-]+/g, '_');
}

/** One scenario: a cold run with its requests counted, then (if asked) warm runs at L and L + step. */
async function measure(
  scenario: Scenario,
  agentQueries: number,
  world: World,
  env: Record<string, string>,
  suitePath: string,
): Promise<Measured> {
  log(`running ${scenario.name} ...`);
  const engine = await startEngineProcess({
    bundle: ENGINE_BUNDLE,
    env: {
      ...env,
      ENVIRONMENT: 'bench',
      SEARCH_CONCURRENCY: String(SEARCH_CONCURRENCY),
      MAX_AGENT_QUERIES: String(MAX_AGENT_QUERIES),
      BENCH_SUITE_PATH: suitePath,
      BENCH_SCROLL_PAGE_SIZE: String(pageSize),
      SCROLL_PARTITIONS: String(partitions),
      ...(flags['default-heap-growth'] ? { BENCH_DEFAULT_HEAP_GROWTH: '1' } : {}),
      ...(flags['cpu-prof-cold']
        ? { BENCH_COLD_PROFILE: path.resolve(flags['cpu-prof-cold'], `${fileNameOf(scenario.name)}.cpuprofile`) }
        : {}),
      ...(flags['alloc-prof-cold']
        ? {
            BENCH_COLD_ALLOCATIONS: path.resolve(flags['alloc-prof-cold'], `${fileNameOf(scenario.name)}.heapprofile`),
          }
        : {}),
    },
    nodeFlags: [...profileFlags, ...engineFlags],
  });
  try {
    setLatency(world, latencyMs);
    world.qdrant.resetCounts();
    world.cohere.resetCounts();
    world.sitemap.resetCount();
    const cpuBefore = process.cpuUsage();
    const cold = await engine.run();
    const standInCpuMs = cpuMs(process.cpuUsage(cpuBefore));
    const { counts, other } = countRequests(world);
    let warm: Measured['warm'] = null;
    if (scenario.warm) {
      const atLatency: EngineFigures[] = [];
      const standInCpu: number[] = [];
      const atHigher: number[] = [];
      for (let i = 0; i < WARM_RUNS; i++) {
        setLatency(world, latencyMs);
        const before = process.cpuUsage();
        atLatency.push(await engine.run());
        standInCpu.push(cpuMs(process.cpuUsage(before)));
        setLatency(world, latencyMs + LATENCY_STEP_MS);
        atHigher.push((await engine.run()).wallMs);
      }
      const wallMs = median(atLatency.map((f) => f.wallMs));
      const p50s = atLatency.flatMap((f) => (f.p50LatencyMs === null ? [] : [f.p50LatencyMs]));
      warm = {
        wallMs,
        p50LatencyMs: p50s.length > 0 ? median(p50s) : null,
        effectiveRoundTrips: (median(atHigher) - wallMs) / LATENCY_STEP_MS,
        engineCpuMs: median(atLatency.map((f) => f.cpuMs)),
        standInCpuMs: median(standInCpu),
      };
    }
    const shape = {
      queries: scenario.queries,
      agentQueries,
      agentChats: cold.agentChats,
      judgeCalls: cold.judgeCalls,
      points: scenario.points,
      payloadIndexes: scenario.payloadIndexes,
      requiredFields: DEFAULT_REQUIRED_FIELDS.length,
      pageSize,
      partitions,
      concurrency: SEARCH_CONCURRENCY,
      sitemapLevels: 1,
      catalog: scenario.catalog ?? false,
      ...(scenario.indexingTimes === undefined ? {} : { indexingTimes: scenario.indexingTimes }),
    };
    return { scenario, shape, counts, other, baselineRssMb: engine.baselineRssMb, cold, standInCpuMs, warm };
  } finally {
    setLatency(world, 0);
    await engine.stop();
  }
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

function countRequests(world: World): { counts: Record<Endpoint, number>; other: Record<string, number> } {
  const { get_collection, query_batch_points, facet, count_points, scroll_points, get_points, ...other } =
    world.qdrant.requestCounts();
  const cohere = world.cohere.requestCounts();
  const counts: Record<Endpoint, number> = {
    embed: cohere.embed,
    chat: cohere.chat,
    get_collection: get_collection ?? 0,
    query_batch_points: query_batch_points ?? 0,
    facet: facet ?? 0,
    count_points: count_points ?? 0,
    scroll_points: scroll_points ?? 0,
    get_points: get_points ?? 0,
    sitemap: world.sitemap.requestCount(),
  };
  return { counts, other };
}

function setLatency(world: World, ms: number): void {
  world.qdrant.setLatency(ms);
  world.cohere.setLatency(ms);
  world.sitemap.setLatency(ms);
}
