/** The benchmark's output: the machine, three tables per scenario, the Lambda figures, and the issue's targets. */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { LAMBDA_NODE_OPTIONS } from '../infra/runtime-flags.ts';
import { criticalPath, ENDPOINTS, engineChain, partitionedScroll, requestLowerBounds } from './bounds.ts';
import { formatNumber, formatTable } from './format-table.ts';
import type { BundleFigures, InitFigures, LambdaFigures } from './lambda-bundle.ts';
import { atRequestBound, type Measured } from './measured.ts';

/** The settings every figure depends on. */
export interface BenchSettings {
  latencyMs: number;
  latencyStepMs: number;
  warmRuns: number;
  dimensions: number;
  pages: number;
  pageSize: number;
  concurrency: number;
  nodeFlags: string[];
}

const out = (text: string) => process.stdout.write(`${text}\n`);

/** The machine and the settings, first, so the figures can be compared with another run. */
export function printMachine(settings: BenchSettings): void {
  const cpuModel = readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m)?.[1] ?? os.cpus()[0]?.model;
  const memory = formatNumber(os.totalmem() / 2 ** 30, 1);
  out(`ragwatch bench: the full validation against the sandbox, ${settings.latencyMs} ms added to every request`);
  out(
    `machine: ${os.availableParallelism()} × ${cpuModel ?? 'unknown CPU'}, ${memory} GiB, Node ${process.version}, ${os.platform()} ${os.arch()}`,
  );
  out(
    `engine: the real adapters, bundled as the Lambda is, in a child process per scenario (RSS = the engine alone)${settings.nodeFlags.length > 0 ? ` with ${settings.nodeFlags.join(' ')}` : ''}; stand-ins in the parent`,
  );
  out(
    `data: synthetic points of ${settings.dimensions} dims (Cohere stand-in started with dimensions: ${settings.dimensions}), ${formatNumber(settings.pages)} source URLs; scroll page ${settings.pageSize}, search concurrency ${settings.concurrency}`,
  );
}

/** Requests, time, and CPU and memory, one row per scenario. */
export function printResults(rows: Measured[], settings: BenchSettings): void {
  out('\nRequests by endpoint in the cold run, measured/lower bound (counted by the stand-ins)');
  out(
    formatTable(
      ['scenario', ...ENDPOINTS, 'other', 'at bound'],
      rows.map((m) => {
        const bound = requestLowerBounds(m.shape);
        const other = Object.values(m.other).reduce((sum, n) => sum + n, 0);
        return [
          m.scenario.name,
          ...ENDPOINTS.map((e) => `${m.counts[e]}/${bound[e]}`),
          String(other),
          atRequestBound(m) ? 'yes' : 'NO',
        ];
      }),
    ),
  );
  printTimes(rows, settings);
  printEngineChains(rows, settings);
  printCpuAndMemory(rows);
  printMemoryParts(rows);
}

/**
 * What reading the index adds, on its own line per scenario and never in the bound: the engine's longest chain (the
 * profile's scroll, which the inventory rides, without payload indexes; the exact searches after the queries with them),
 * and the measured time of the steps that read the whole collection.
 */
function printEngineChains(rows: Measured[], settings: BenchSettings): void {
  out(
    `\nThe engine's own chains, beside the work's (not in the bound): its longest, and the cold run's steps that read the collection (${settings.latencyMs} ms per round trip)`,
  );
  const header = [
    'scenario',
    'engine chain',
    'RT',
    'at latency ms',
    'inventory',
    'inventory ms',
    'profile ms',
    'total requests',
  ];
  const body = rows.map((m) => {
    const chain = engineChain(m.shape, settings.latencyMs);
    const scrolled = m.cold.stagesMs.inventory !== undefined;
    // Without any payload index the inventory rides the profile's scroll: no step of its own, its time the profile's.
    const rides = !scrolled && !m.shape.payloadIndexes;
    const inventoryMs = m.cold.stagesMs[scrolled ? 'inventory' : 'page facets'];
    const pages = `${formatNumber(partitionedScroll(m.shape).requests)} pages ${partitionedScroll(m.shape).depth} deep`;
    return [
      m.scenario.name,
      chain.name,
      String(chain.roundTrips),
      formatNumber(chain.boundMs),
      rides ? `the profile's scroll, ${pages}` : scrolled ? `scroll, ${pages}` : 'facets',
      rides ? 'in profile' : inventoryMs === undefined ? '-' : formatNumber(inventoryMs),
      m.cold.stagesMs.profile === undefined ? '-' : formatNumber(m.cold.stagesMs.profile),
      String(totalRequests(m)),
    ];
  });
  out(formatTable(header, body));
}

/** Every request of the cold run, to every stand-in and the sitemap. */
function totalRequests(m: Measured): number {
  return Object.values(m.counts).reduce((sum, n) => sum + n, 0) + Object.values(m.other).reduce((sum, n) => sum + n, 0);
}

function printTimes(rows: Measured[], settings: BenchSettings): void {
  const { latencyMs, latencyStepMs } = settings;
  out(
    `\nWall time against the critical path (bound = ${latencyMs} ms × RT); warm = median of ${settings.warmRuns} later runs in the same process; effective RT = (warm wall at ${latencyMs + latencyStepMs} ms − at ${latencyMs} ms) / ${latencyStepMs} ms`,
  );
  const header = [
    'scenario',
    'RT',
    'critical chain',
    'bound ms',
    'cold ms',
    'cold/bound',
    'warm ms',
    'warm/bound',
    'effective RT',
    'p50 cold ms',
    'p50 warm ms',
  ];
  const body = rows.map((m) => {
    const path = criticalPath(m.shape, latencyMs);
    const ratio = (ms: number) => (path.boundMs > 0 ? `${formatNumber(ms / path.boundMs, 2)}×` : '-');
    const ms1 = (ms: number | null | undefined) => (ms === null || ms === undefined ? '-' : formatNumber(ms, 1));
    return [
      m.scenario.name,
      String(path.roundTrips),
      path.name,
      formatNumber(path.boundMs),
      formatNumber(m.cold.wallMs),
      ratio(m.cold.wallMs),
      m.warm ? formatNumber(m.warm.wallMs) : '-',
      m.warm ? ratio(m.warm.wallMs) : '-',
      m.warm ? formatNumber(m.warm.effectiveRoundTrips, 1) : '-',
      ms1(m.cold.p50LatencyMs),
      ms1(m.warm?.p50LatencyMs),
    ];
  });
  out(formatTable(header, body));
}

function printCpuAndMemory(rows: Measured[]): void {
  out(
    '\nCPU of the cold run and (warm) the median warm run; memory of the cold run: base = before it, live heap = after it and a full GC. Profile path: urls/completeness/tokens; scan rate over the profile stage',
  );
  const header = [
    'scenario',
    'engine CPU ms',
    'stand-ins CPU ms',
    'warm engine CPU',
    'warm stand-ins CPU',
    'base RSS MB',
    'peak RSS MB',
    'live heap MB',
    'profile path',
    'points scanned',
    'scan pts/s',
    'status',
  ];
  const body = rows.map((m) => {
    const profileMs = m.cold.stagesMs.profile ?? 0;
    const scanning = m.cold.pointsScanned > 0 && profileMs > 0;
    return [
      m.scenario.name,
      formatNumber(m.cold.cpuMs),
      formatNumber(m.standInCpuMs),
      m.warm ? formatNumber(m.warm.engineCpuMs) : '-',
      m.warm ? formatNumber(m.warm.standInCpuMs) : '-',
      formatNumber(m.baselineRssMb, 1),
      formatNumber(m.cold.peakRssMb, 1),
      formatNumber(m.cold.liveHeapAfterGcMb, 1),
      `${m.cold.paths.urls ?? '-'}/${m.cold.paths.completeness ?? '-'}/${m.cold.paths.tokens ?? '-'}`,
      formatNumber(m.cold.pointsScanned),
      scanning ? formatNumber(m.cold.pointsScanned / (profileMs / 1000)) : '-',
      m.cold.status,
    ];
  });
  out(formatTable(header, body));
}

/** Where the cold run's memory was: each part's highest value, sampled every 20 ms (issue 20 §3). */
function printMemoryParts(rows: Measured[]): void {
  out(
    '\nWhere the memory of the cold run was: the highest value of each part of process.memoryUsage(), sampled every 20 ms (MB); rest = peak RSS - heap total - external',
  );
  const header = ['scenario', 'peak RSS', 'heap total', 'heap used', 'external', 'array buffers', 'rest'];
  const body = rows.map((m) => {
    const p = m.cold.memoryPeaksMb;
    return [
      m.scenario.name,
      formatNumber(m.cold.peakRssMb, 1),
      formatNumber(p.heapTotal, 1),
      formatNumber(p.heapUsed, 1),
      formatNumber(p.external, 1),
      formatNumber(p.arrayBuffers, 1),
      formatNumber(m.cold.peakRssMb - p.heapTotal - p.external, 1),
    ];
  });
  out(formatTable(header, body));
}

/** The bundle's size and parts, and its module initialisation each way. */
export function printLambda(lambda: LambdaFigures): void {
  out('\nLambda: functions/nightly/handler.ts bundled as infra/nightly-stack.ts has CDK bundle it');
  if ('error' in lambda) {
    out(`  the handler does not bundle right now: ${lambda.error}`);
    return;
  }
  const mb = (bytes: number) => `${formatNumber(bytes / 2 ** 20, 2)} MB`;
  const parts = (b: BundleFigures) => b.topInputs.map((i) => `${i.name} ${formatNumber(i.bytes / 1024)} KB`).join(', ');
  const initLine = (label: string, init: InitFigures) =>
    `  ${label}: median ${formatNumber(init.medianMs)} ms (min ${formatNumber(init.minMs)}, max ${formatNumber(init.maxMs)}, ${init.runs} fresh processes; whole process ${formatNumber(init.processMedianMs)} ms)`;
  const { bundle } = lambda;
  out(`  index.mjs ${mb(bundle.bytes)} minified, the AWS SDK inside (source map ${mb(bundle.mapBytes)} beside it)`);
  out(`  largest parts: ${parts(bundle)}`);
  out(initLine('module init', lambda.init));
  out(
    initLine(`module init with NODE_OPTIONS="${LAMBDA_NODE_OPTIONS}", as the stack sets it`, lambda.initWithSourceMaps),
  );
  out(
    `  for comparison, @aws-sdk/* left to the runtime (CDK's default, the stack before bundleAwsSDK): ${mb(lambda.sdkExternal.bundle.bytes)}`,
  );
  out(initLine('module init of that bundle (the SDK from node_modules)', lambda.sdkExternal.init));
}

/** Each target of issue 4, MET or MISSED by the figures above (or not measured in this run). */
export function printTargets(
  rows: Measured[],
  lambda: LambdaFigures | null,
  settings: BenchSettings,
  seedsRow: { wallMs: number; requests: number } | null = null,
): void {
  const verdict = (ok: boolean) => (ok ? 'MET' : 'MISSED');
  const find = (name: string) => rows.find((m) => m.scenario.name === name);
  const lines: string[] = [];

  const exact = rows.filter(atRequestBound).length;
  lines.push(
    rows.length === 0
      ? 'requests = lower bound: not measured'
      : `requests = lower bound in every scenario: ${verdict(exact === rows.length)} (${exact} of ${rows.length} scenarios exact)`,
  );

  const target = find('N=200 P=100k indexed');
  if (target) {
    const path = criticalPath(target.shape, settings.latencyMs);
    const r = (ms: number) => `${formatNumber(ms / path.boundMs, 2)}×`;
    const warm = target.warm;
    lines.push(
      `wall <= 1.5 × bound at N=200, P=100k, indexed (bound ${formatNumber(path.boundMs)} ms): cold ${formatNumber(target.cold.wallMs)} ms = ${r(target.cold.wallMs)} ${verdict(target.cold.wallMs <= 1.5 * path.boundMs)}` +
        (warm
          ? `; warm ${formatNumber(warm.wallMs)} ms = ${r(warm.wallMs)} ${verdict(warm.wallMs <= 1.5 * path.boundMs)}; effective round trips ${formatNumber(warm.effectiveRoundTrips, 1)} for a bound of ${path.roundTrips} ${verdict(warm.effectiveRoundTrips <= 1.5 * path.roundTrips)}`
          : ''),
    );
  } else lines.push('wall <= 1.5 × bound at N=200, P=100k, indexed: not measured');

  // Issue 20: an indexed run's requests do not grow with P.
  const indexed200 = rows.filter((m) => m.scenario.payloadIndexes && m.scenario.queries === 200 && !m.scenario.catalog);
  if (indexed200.length > 0) {
    const totals = indexed200.map((m) => `${m.scenario.name.replace('N=200 ', '')} ${totalRequests(m)}`);
    const worst = Math.max(...indexed200.map(totalRequests));
    const flat = new Set(indexed200.map(totalRequests)).size === 1;
    lines.push(
      `requests <= 30 at N=200 on an indexed collection, the same at every P: ${totals.join(', ')} ${verdict(worst <= 30 && flat)}`,
    );
  } else lines.push('requests at N=200 on an indexed collection: not measured');
  const seeds = seedsRow;
  if (seeds && target) {
    const ratio = seeds.wallMs / target.cold.wallMs;
    lines.push(
      `>= 40x faster than the seeds' algorithm at N=200, P=100k (${formatNumber(seeds.requests)} requests, ${formatNumber(seeds.wallMs)} ms): ragwatch cold ${formatNumber(target.cold.wallMs)} ms = ${formatNumber(ratio, 1)}x ${verdict(ratio >= 40)}`,
    );
  } else lines.push("speed-up over the seeds' algorithm: not measured");

  const scroll1m = find('N=200 P=1M no index');
  const scroll10k = find('N=200 P=10k no index');
  if (scroll1m && scroll10k) {
    const peak = scroll1m.cold.peakRssMb;
    const delta = peak - scroll10k.cold.peakRssMb;
    lines.push(
      `peak RSS <= 200 MB on the scroll path at P=1M: ${formatNumber(peak, 1)} MB ${verdict(peak <= 200)}; within ±30 MB of P=10k (${formatNumber(scroll10k.cold.peakRssMb, 1)} MB): ${delta >= 0 ? '+' : ''}${formatNumber(delta, 1)} MB ${verdict(Math.abs(delta) <= 30)} (live heap after the run ${formatNumber(scroll1m.cold.liveHeapAfterGcMb, 1)} MB vs ${formatNumber(scroll10k.cold.liveHeapAfterGcMb, 1)} MB)`,
    );
  } else lines.push('peak RSS on the scroll path at P=1M: not measured (run without --quick)');
  const indexed1m = find('N=200 P=1M indexed');
  const indexed10k = find('N=200 P=10k indexed');
  if (indexed1m && indexed10k) {
    const peak = indexed1m.cold.peakRssMb;
    const delta = peak - indexed10k.cold.peakRssMb;
    lines.push(
      `peak RSS <= 200 MB on the indexed path at P=1M: ${formatNumber(peak, 1)} MB ${verdict(peak <= 200)}; within ±30 MB of P=10k (${formatNumber(indexed10k.cold.peakRssMb, 1)} MB): ${delta >= 0 ? '+' : ''}${formatNumber(delta, 1)} MB ${verdict(Math.abs(delta) <= 30)}`,
    );
  } else lines.push('peak RSS on the indexed path at P=1M: not measured (run without --quick)');

  if (lambda === null || 'error' in lambda) lines.push('bundle size and module init: not measured');
  else {
    const mb = lambda.bundle.bytes / 2 ** 20;
    lines.push(`bundle <= 3 MB minified: ${formatNumber(mb, 2)} MB ${verdict(mb <= 3)}`);
    lines.push(
      `module init <= 300 ms: median ${formatNumber(lambda.init.medianMs)} ms ${verdict(lambda.init.medianMs <= 300)}; with the deployed NODE_OPTIONS ${formatNumber(lambda.initWithSourceMaps.medianMs)} ms ${verdict(lambda.initWithSourceMaps.medianMs <= 300)}`,
    );
  }
  out(`\nTargets (issues 4 and 20)\n${lines.map((l) => `  ${l}`).join('\n')}`);
}
