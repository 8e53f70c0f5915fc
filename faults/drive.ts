/**
 * Runs one case: the CLI or the handler in a child process, under the case's fault, then gathers what ops would
 * get: the exit code or the handler's outcome, the stored report, the RunSucceeded datum, the alert, and every
 * place a secret could leak (stdout, stderr, report, alert subject and body, metric payloads).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ValidationReport } from '../functions/core/report/report.ts';
import { LAMBDA_V8_FLAGS } from '../infra/runtime-flags.ts';
import { SECRETS, type World } from './world.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const SUITE = path.join(ROOT, 'sandbox', 'suite.json');
/** What is kept of a child's stdout and stderr (a report printed in full is a few hundred KB). */
const MAX_OUTPUT = 8 * 1024 * 1024;

export interface Observed {
  surface: 'cli' | 'lambda';
  /** CLI: the exit code (or the signal); Lambda: "returned" or "threw: <message>". */
  outcome: string;
  exitCode: number | null;
  threw: string | null;
  result: Record<string, unknown> | null;
  report: ValidationReport | null;
  runSucceeded: number | null;
  alertSubjects: string[];
  secretsFound: string[];
  wallSeconds: number;
  peakRssMb: number | null;
  stdout: string;
  stderr: string;
  /** Lambda rows: the text of every object in the bucket by key (a .gz object as its decompressed text). */
  objects: Map<string, string>;
}

export interface RunSpec {
  surface: 'cli' | 'lambda';
  env: Record<string, string>;
  /** Extra CLI flags after `run --suite ... --out ... --no-progress`. */
  args?: string[];
  /** Another suite file than the sample's. */
  suite?: string;
}

export async function drive(world: World, spec: RunSpec): Promise<Observed> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ragwatch-faults-'));
  try {
    const outFile = path.join(dir, 'child.json');
    const reportsDir = path.join(dir, 'reports');
    const script = spec.surface === 'cli' ? 'cli-child.ts' : 'handler-child.ts';
    const argv =
      spec.surface === 'cli'
        ? ['run', '--suite', spec.suite ?? SUITE, '--out', reportsDir, '--no-progress', ...(spec.args ?? [])]
        : [];
    const started = performance.now();
    // The Lambda rows run with the function's own V8 flags (infra/runtime-flags.ts), as it is deployed.
    const nodeFlags = spec.surface === 'lambda' ? LAMBDA_V8_FLAGS : [];
    const child = await runChild(path.join(ROOT, 'faults', script), argv, nodeFlags, {
      ...minimalEnv(),
      ...spec.env,
      ...(spec.surface === 'lambda' ? { SUITE_PATH: spec.suite ?? SUITE, POWERTOOLS_LOG_LEVEL: 'INFO' } : {}),
      FAULTS_OUT: outFile,
    });
    const wallSeconds = (performance.now() - started) / 1000;
    const written = await readJson<Record<string, unknown>>(outFile);
    const report = spec.surface === 'cli' ? await latestUnder(reportsDir) : await storedReport(world, written);
    const alerts = world.aws.deliveredAlerts();
    const heartbeat = world.aws.cloudWatch.datums.find((d) => d.MetricName === 'RunSucceeded');
    // Every artefact of the run, not only the report read above: each file the CLI wrote (JSON, HTML, CSV, the
    // latest copies), each object in the bucket, the alerts, the metric payloads, stdout and stderr.
    const objects = spec.surface === 'cli' ? new Map<string, string>() : await bucketObjects(world);
    const artefacts = spec.surface === 'cli' ? await filesUnder(reportsDir) : [...objects.values()];
    const leakSurface = [
      child.stdout,
      child.stderr,
      JSON.stringify(report ?? ''),
      ...artefacts,
      JSON.stringify(alerts),
      JSON.stringify(world.aws.cloudWatch.datums),
    ].join('\n');
    const threw = written?.outcome === 'threw' ? String(written.error) : null;
    return {
      surface: spec.surface,
      outcome:
        spec.surface === 'cli'
          ? `exit ${child.code ?? child.signal}`
          : written === null
            ? `crashed (${child.code ?? child.signal})`
            : threw === null
              ? 'returned'
              : 'threw',
      exitCode: child.code,
      threw,
      result: (written?.result as Record<string, unknown> | undefined) ?? null,
      report,
      runSucceeded: spec.surface === 'lambda' ? (heartbeat?.Value ?? null) : null,
      alertSubjects: alerts.map((a) => a.subject ?? ''),
      secretsFound: Object.entries(SECRETS)
        .filter(([, secret]) => leakSurface.includes(secret))
        .map(([name]) => name),
      wallSeconds,
      peakRssMb: typeof written?.maxRssKb === 'number' ? Math.round(written.maxRssKb / 1024) : null,
      stdout: child.stdout,
      stderr: child.stderr,
      objects,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The PATH and HOME a child needs, and nothing of the runner's own environment (no stray AWS or API settings). */
function minimalEnv(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG'];
  return Object.fromEntries(keep.flatMap((k) => (process.env[k] ? [[k, process.env[k] as string]] : [])));
}

/** The report the handler says it stored (its dated key), else latest.json, else none. */
async function storedReport(world: World, written: Record<string, unknown> | null): Promise<ValidationReport | null> {
  const sinks = (written?.result as { sinks?: { report?: { ok: boolean; value?: { location?: string } } } })?.sinks;
  const location = sinks?.report?.ok ? sinks.report.value?.location : undefined;
  const key = location?.replace(`s3://${world.aws.bucket}/`, '') ?? 'reports/book/latest.json';
  const text = await world.aws.readObject(key).catch(() => undefined);
  return text ? (JSON.parse(text) as ValidationReport) : null;
}

/** The CLI's latest.json, whatever folder the collection name gave it. */
async function latestUnder(reportsDir: string): Promise<ValidationReport | null> {
  const folders = await readdir(reportsDir).catch(() => []);
  for (const folder of folders) {
    const report = await readJson<ValidationReport>(path.join(reportsDir, folder, 'latest.json'));
    if (report !== null) return report;
  }
  return null;
}

/** The text of every file under `dir`, at any depth. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return Promise.all(
    entries.filter((e) => e.isFile()).map((e) => readFile(path.join(e.parentPath, e.name), 'utf8').catch(() => '')),
  );
}

/** The text of every object in the report bucket, a gzip object (the full URL lists) decompressed. */
async function bucketObjects(world: World): Promise<Map<string, string>> {
  const keys = await world.aws.listKeys().catch(() => []);
  const texts = await Promise.all(
    keys.map(async (key) => {
      if (!key.endsWith('.gz')) return (await world.aws.readObject(key).catch(() => '')) ?? '';
      const bytes = await world.aws.readObjectBytes(key).catch(() => undefined);
      return bytes === undefined ? '' : gunzipSync(bytes).toString('utf8');
    }),
  );
  return new Map(keys.map((key, i) => [key, texts[i] ?? '']));
}

async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

function runChild(
  script: string,
  argv: string[],
  nodeFlags: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeFlags, script, ...argv], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (stream: NodeJS.ReadableStream) => {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (c: Buffer) => {
        if (size < MAX_OUTPUT) chunks.push(c);
        size += c.length;
      });
      return () => Buffer.concat(chunks).toString('utf8');
    };
    const stdout = collect(child.stdout);
    const stderr = collect(child.stderr);
    child.on('close', (code, signal) => resolve({ code, signal, stdout: stdout(), stderr: stderr() }));
  });
}
