/**
 * The engine's side of a benchmark scenario, in a process of its own so that its peak RSS is the engine's alone
 * (the stand-ins and their million points live in the parent). bench/run.ts bundles this file as the Lambda is
 * bundled and forks the bundle, so the engine runs as plain minified JavaScript, as it does in Lambda.
 *
 * Protocol (IPC): the child builds the real adapters from its environment, exactly as `ragwatch run` does, and
 * sends `ready`; each `run` message runs the full validation once and answers with its figures; `exit` ends it.
 * The first run is the cold one (a nightly Lambda's only run); later runs show the steady state.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createEngineAdapters, runOptionsFromConfig } from '../functions/adapters/engine-adapters.ts';
import { parseEngineConfig } from '../functions/core/config.ts';
import { runValidation } from '../functions/core/run/run-validation.ts';
import { parseSuite } from '../functions/core/suite/suite.ts';
import { limitHeapGrowth } from '../functions/nightly/heap-growth.ts';
import { peakRssKb } from './peak-rss.ts';

/** What the child reports after each run. */
export interface EngineFigures {
  wallMs: number;
  cpuMs: number;
  /** The process's peak RSS so far (getrusage ru_maxrss). */
  peakRssMb: number;
  /** The V8 heap still in use once the run is over and a full GC has run: what the engine really kept. */
  liveHeapAfterGcMb: number;
  /**
   * Where the memory was, sampled every 20 ms during the run: each part's highest value (MB). heapUsed is the JS
   * objects (live or not yet collected), heapTotal what V8 reserved for them, external and arrayBuffers the memory
   * outside the JS heap (Buffers of undici's sockets and bodies). Peak RSS minus the highest heapTotal and external
   * is the rest: code, the runtime's own and the native allocator's.
   */
  memoryPeaksMb: { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number };
  status: string;
  stagesMs: Record<string, number>;
  p50LatencyMs: number | null;
  paths: { urls: string | null; completeness: string | null; tokens: string | null };
  pointsScanned: number;
  /** Agent queries whose retrieval found a relevant chunk, so the agent called chat (the others abstain at once). */
  agentChats: number;
  /** Claims the judge was asked about: one chat call each. */
  judgeCalls: number;
}

/** Messages from the child. */
export type ChildMessage = { type: 'ready'; baselineRssMb: number } | { type: 'figures'; figures: EngineFigures };
/** Messages to the child. */
export type ParentMessage = { type: 'run' } | { type: 'exit' };

const suitePath = process.env.BENCH_SUITE_PATH;
if (suitePath === undefined || process.send === undefined) {
  throw new Error('bench/engine-child.ts is forked by bench/run.ts (BENCH_SUITE_PATH and an IPC channel)');
}
const send = (message: ChildMessage) => process.send?.(message);

// As the nightly handler does when its module loads (unless the bench is asked to measure without it).
if (process.env.BENCH_DEFAULT_HEAP_GROWTH === undefined) limitHeapGrowth();
const config = parseEngineConfig(process.env);
const suite = parseSuite(readFileSync(suitePath, 'utf8'), suitePath);
const deps = createEngineAdapters(config);
// The page size is not configuration in ragwatch; the benchmark may vary it (--page-size) to show its effect.
const pageSize = process.env.BENCH_SCROLL_PAGE_SIZE;
const options = {
  ...runOptionsFromConfig(config),
  suite,
  suiteSource: suitePath,
  ...(pageSize === undefined ? {} : { scrollPageSize: Number(pageSize) }),
};

// --cpu-prof-cold / --alloc-prof-cold: a V8 CPU profile, or a sampling profile of what was allocated, of the cold
// run alone (a whole-process --cpu-prof mixes in module loading and the warm runs, and the cold run cannot be cut out
// of it afterwards). Apart, because the allocation sampler slows allocation-heavy code several times over and would
// distort the CPU profile.
const coldProfile = process.env.BENCH_COLD_PROFILE;
const coldAllocations = process.env.BENCH_COLD_ALLOCATIONS;
let runs = 0;

process.on('message', (message: ParentMessage) => {
  if (message.type === 'exit') process.exit(0);
  const first = runs++ === 0;
  const run =
    first && coldProfile !== undefined
      ? profileOf(runOnce, coldProfile)
      : first && coldAllocations !== undefined
        ? allocationsOf(runOnce, coldAllocations)
        : runOnce();
  run.then(
    (figures) => send({ type: 'figures', figures }),
    (error: unknown) => {
      process.stderr.write(`engine run failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
});
send({ type: 'ready', baselineRssMb: process.memoryUsage().rss / 2 ** 20 });

async function profileOf<T>(work: () => Promise<T>, file: string): Promise<T> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const result = await work();
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(file, JSON.stringify(profile));
  session.disconnect();
  return result;
}

/** Every 8 KB allocated, objects the collector freed included: where the garbage collection's work comes from. */
async function allocationsOf<T>(work: () => Promise<T>, file: string): Promise<T> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 8192,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  const result = await work();
  const { profile } = await session.post('HeapProfiler.stopSampling');
  writeFileSync(file, JSON.stringify(profile));
  session.disconnect();
  return result;
}

async function runOnce(): Promise<EngineFigures> {
  const cpuBefore = process.cpuUsage();
  const peaks = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
  const sample = () => {
    const now = process.memoryUsage();
    for (const key of Object.keys(peaks) as (keyof typeof peaks)[])
      peaks[key] = Math.max(peaks[key], now[key] / 2 ** 20);
  };
  const sampler = setInterval(sample, 20);
  const started = performance.now();
  const report = await runValidation(deps, options).finally(() => clearInterval(sampler));
  const wallMs = performance.now() - started;
  sample();
  const cpu = process.cpuUsage(cpuBefore);
  const peakRssMb = peakRssKb() / 1024;
  // Started with --expose-gc by bench/run.ts; the collection runs after the peak is read, so it cannot lower it.
  (globalThis as { gc?: () => void }).gc?.();
  const responses = report.grounding_report?.responses ?? [];
  // An ERROR scenario says why on stderr, so a bench figure is never read without knowing the run did not finish.
  if (report.status === 'ERROR') process.stderr.write(`engine run ERROR: ${report.status_reason.slice(0, 600)}\n`);
  return {
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRssMb,
    liveHeapAfterGcMb: process.memoryUsage().heapUsed / 2 ** 20,
    memoryPeaksMb: peaks,
    status: report.status,
    stagesMs: Object.fromEntries(Object.entries(report.execution.stages).map(([name, s]) => [name, s.duration_ms])),
    p50LatencyMs: report.validation_metrics.p50_latency_ms,
    paths: {
      urls: report.coverage_report?.source ?? null,
      completeness: report.quality_metrics?.source.completeness ?? null,
      tokens: report.quality_metrics?.source.token_distribution ?? null,
    },
    pointsScanned: report.quality_metrics?.points_scanned ?? 0,
    agentChats: responses.filter((r) => r.status !== 'NO_RELEVANT_DOCUMENTS' && r.status !== 'RETRIEVAL_FAILED').length,
    judgeCalls: report.grounding_report?.judge?.judged ?? 0,
  };
}
