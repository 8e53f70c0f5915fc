/**
 * `npm run faults`: the fault matrix. Starts the stand-ins once, then runs each case (the real CLI or the real
 * handler in a child process, one fault injected) and prints a table: case, expected, observed (exit code or
 * handler outcome, report status, RunSucceeded sent, alert sent, secrets found in outputs, wall time, peak RSS),
 * verdict. `--json` prints the same rows as JSON; `--only <text>` runs the cases whose name contains it.
 * Exits 1 when a row fails.
 */
import { cpus, totalmem } from 'node:os';
import type { Case } from './case.ts';
import { AWS_CASES } from './cases-aws.ts';
import { SECRET_CASES } from './cases-secrets.ts';
import { SERVICE_CASES } from './cases-services.ts';
import { SITEMAP_CASES } from './cases-sitemap.ts';
import { drive } from './drive.ts';
import { formatTable, type Row } from './table.ts';
import { startWorld } from './world.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const cases: Case[] = [...SERVICE_CASES, ...SITEMAP_CASES, ...AWS_CASES, ...SECRET_CASES].filter(
  (c) => only === undefined || c.name.includes(only),
);

const log = (line: string) => process.stderr.write(`${line}\n`);
const started = performance.now();
log(`starting the stand-ins (sandbox, AWS, fault proxies, hostile sitemaps)...`);
const world = await startWorld();
const rows: Row[] = [];
try {
  for (const [i, c] of cases.entries()) {
    world.reset();
    const spec = await c.arrange(world);
    const observed = await drive(world, spec);
    const problems = c.check(observed, world);
    rows.push({
      case: c.name,
      group: c.group,
      surface: observed.surface,
      expected: c.expected,
      outcome: observed.outcome,
      reportStatus: observed.report?.status ?? null,
      runSucceededSent: observed.surface === 'cli' ? null : observed.runSucceeded,
      alertSent: observed.surface === 'cli' ? null : observed.alertSubjects.length > 0,
      secretsFound: observed.secretsFound,
      wallSeconds: Math.round(observed.wallSeconds * 10) / 10,
      peakRssMb: observed.peakRssMb,
      verdict: problems.length === 0 ? 'PASS' : 'FAIL',
      problems,
    });
    const last = rows.at(-1);
    log(
      `[${i + 1}/${cases.length}] ${last?.verdict} ${c.name} (${last?.wallSeconds} s)${problems.length ? `: ${problems.join('; ')}` : ''}`,
    );
  }
} finally {
  await world.stop();
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}`;
const totalSeconds = Math.round((performance.now() - started) / 1000);
if (json) process.stdout.write(`${JSON.stringify({ machine, totalSeconds, rows }, null, 2)}\n`);
else
  process.stdout.write(
    `${formatTable(rows)}\n\n${rows.filter((r) => r.verdict === 'PASS').length} of ${rows.length} rows pass; ${totalSeconds} s on ${machine}\n`,
  );
process.exitCode = rows.every((r) => r.verdict === 'PASS') ? 0 : 1;
