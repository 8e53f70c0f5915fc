/**
 * The nightly Lambda's size and cold module initialisation: functions/nightly/handler.ts bundled with the local
 * esbuild exactly as infra/nightly-stack.ts has CDK bundle it (ESM, node24, minified, source map, the banner, the
 * main fields, and the AWS SDK inside: bundleAwsSDK), then imported by fresh Node processes, timed around the import.
 * For comparison, the same handler with CDK's default externals (@aws-sdk/*, left to the Lambda runtime's SDK; here
 * loaded from the project's node_modules), as the stack bundled it before.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Metafile } from 'esbuild';
import { LAMBDA_NODE_OPTIONS } from '../infra/runtime-flags.ts';
import { BUNDLE_DIR, bundleLikeTheStack, PROJECT_ROOT } from './bundle.ts';

const ENTRY = path.join(PROJECT_ROOT, 'functions/nightly/handler.ts');
/** CDK's default externals for a Node 18+ runtime without bundleAwsSDK: the Lambda runtime's AWS SDK v3. */
const CDK_DEFAULT_EXTERNALS = ['@aws-sdk/*'];

/** The bundle's size and where its bytes come from. */
export interface BundleFigures {
  file: string;
  bytes: number;
  mapBytes: number;
  /** The largest contributors (npm package, or "ragwatch" for our own code), bytes in the output. */
  topInputs: { name: string; bytes: number }[];
}

/**
 * Bundles the handler as the CDK stack does (or, with `sdkExternal`, without the AWS SDK, as CDK does by default);
 * throws esbuild's error when it does not bundle.
 */
async function bundleHandler(options: { sdkExternal?: boolean } = {}): Promise<BundleFigures> {
  const file = path.join(BUNDLE_DIR, options.sdkExternal ? 'nightly-sdk-external' : 'nightly', 'index.mjs');
  const metafile = await bundleLikeTheStack({
    entry: ENTRY,
    outfile: file,
    external: options.sdkExternal ? CDK_DEFAULT_EXTERNALS : [],
  });
  return {
    file,
    bytes: statSync(file).size,
    mapBytes: statSync(`${file}.map`).size,
    topInputs: largestInputs(metafile, 6),
  };
}

function largestInputs(metafile: Metafile, count: number): { name: string; bytes: number }[] {
  const byPackage = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = packageOf(input);
      byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...byPackage]
    .map(([name, bytes]) => ({ name, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, count);
}

function packageOf(input: string): string {
  const at = input.lastIndexOf('node_modules/');
  if (at === -1) return 'ragwatch';
  const parts = input.slice(at + 'node_modules/'.length).split('/');
  return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? input);
}

/** Module initialisation: the time to import the bundle in a fresh process, median of `runs`. */
export interface InitFigures {
  runs: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** The whole process, Node's own start-up included (closer to Lambda's Init Duration). */
  processMedianMs: number;
}

/** Imports the bundle in `runs` fresh Node processes, with the environment the stack gives the function. */
async function measureInit(file: string, options: { runs: number; sourceMaps: boolean }): Promise<InitFigures> {
  const imports: number[] = [];
  const processes: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    const started = performance.now();
    const ms = await importOnce(file, options.sourceMaps);
    processes.push(performance.now() - started);
    imports.push(ms);
  }
  return {
    runs: options.runs,
    medianMs: median(imports),
    minMs: Math.min(...imports),
    maxMs: Math.max(...imports),
    processMedianMs: median(processes),
  };
}

// Timed inside the child around the dynamic import: module evaluation, config parsing and client construction.
const IMPORT_SCRIPT = `const t = performance.now(); const m = await import(process.env.BENCH_BUNDLE_URL);
const ms = performance.now() - t; if (typeof m.handler !== 'function') throw new Error('no handler export');
process.stdout.write(String(ms));`;

function importOnce(file: string, sourceMaps: boolean): Promise<number> {
  // Plausible values for every variable the stack sets; nothing here is contacted during initialisation.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    BENCH_BUNDLE_URL: pathToFileURL(file).href,
    AWS_REGION: 'eu-west-1',
    ENVIRONMENT: 'bench',
    QDRANT_URL: 'http://127.0.0.1:6333',
    QDRANT_COLLECTION: 'book',
    DOCUSAURUS_BASE_URL: 'https://book.example.com',
    REPORT_BUCKET: 'ragwatch-reports-bench',
    ALERT_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:ragwatch-alerts',
    METRIC_NAMESPACE: 'RagWatch',
    COHERE_SECRET_ID: 'ragwatch/cohere',
    LOG_LEVEL: 'INFO',
    POWERTOOLS_LOG_LEVEL: 'INFO',
    ...(sourceMaps ? { NODE_OPTIONS: LAMBDA_NODE_OPTIONS } : {}),
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', IMPORT_SCRIPT], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(out);
      if (code === 0 && Number.isFinite(ms)) resolve(ms);
      else reject(new Error(`importing the bundle failed (exit ${code}): ${err.slice(0, 500)}`));
    });
  });
}

/** Everything the benchmark reports about the Lambda, or why the handler could not be bundled. */
export type LambdaFigures =
  | {
      bundle: BundleFigures;
      init: InitFigures;
      initWithSourceMaps: InitFigures;
      /** The same handler with @aws-sdk/* left out (CDK's default, the runtime's SDK), for comparison. */
      sdkExternal: { bundle: BundleFigures; init: InitFigures };
    }
  | { error: string };

/** Bundles the handler both ways and times its initialisation, with and without the deployed NODE_OPTIONS. */
export async function measureLambda(options: { initRuns: number }): Promise<LambdaFigures> {
  let bundle: BundleFigures;
  try {
    bundle = await bundleHandler();
  } catch (error) {
    return { error: (error as Error).message.slice(0, 500) };
  }
  const runs = options.initRuns;
  const init = await measureInit(bundle.file, { runs, sourceMaps: false });
  const initWithSourceMaps = await measureInit(bundle.file, { runs, sourceMaps: true });
  const external = await bundleHandler({ sdkExternal: true });
  const externalInit = await measureInit(external.file, { runs, sourceMaps: false });
  return { bundle, init, initWithSourceMaps, sdkExternal: { bundle: external, init: externalInit } };
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
