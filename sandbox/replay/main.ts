/**
 * `npm run replay [-- --json] [--nights N] [--scenario file ...] [--all] [--seeds N] [--sigma S]`: replays
 * scenarios night by night through the real nightly handler against the sandbox's stand-ins.
 * - one scenario, one seed (the default: scenario.json, faults a-h): one row a night and the summary, as before;
 * - several (`--all`: scenario.json and every file in scenarios/; `--seeds N`: N noise seeds each, the scenario's
 *   seed, +1, ...): one summary line per scenario and seed, then the figures per scenario.
 * `--sigma` sets the per-(chunk, query) score noise of every scenario (0.01 by default; 0: none).
 * Exits 1 when any scenario misses its target (scenario.ts: ScenarioTarget).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatReplayTable, formatScenarioLines } from './format-table.ts';
import { runReplay } from './replay.ts';
import { loadScenario, type Scenario } from './scenario.ts';
import { type ReplaySummary, tallyReplay, targetMisses } from './tally.ts';
import { startReplayWorld } from './world.ts';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    nights: { type: 'string' },
    scenario: { type: 'string', multiple: true },
    all: { type: 'boolean', default: false },
    seeds: { type: 'string', default: '1' },
    sigma: { type: 'string' },
  },
});
const fail = (message: string): never => {
  process.stderr.write(`replay: ${message}\n`);
  process.exit(2);
};
const whole = (name: string, raw: string | undefined, min: number) => {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return Number.isInteger(n) && n >= min ? n : fail(`--${name} must be a whole number >= ${min}, got "${raw}"`);
};
const nights = whole('nights', values.nights, 1);
const seeds = whole('seeds', values.seeds, 1) ?? 1;
const sigma = values.sigma === undefined ? undefined : Number(values.sigma);
if (sigma !== undefined && !(Number.isFinite(sigma) && sigma >= 0 && sigma <= 0.2))
  fail(`--sigma must be a number from 0 to 0.2, got "${values.sigma}"`);
const scenariosDir = path.join(import.meta.dirname, 'scenarios');
const files = [
  ...(values.scenario ?? (values.all ? [] : [path.join(import.meta.dirname, 'scenario.json')])),
  ...(values.all
    ? [
        path.join(import.meta.dirname, 'scenario.json'),
        ...readdirSync(scenariosDir)
          .filter((f) => f.endsWith('.json'))
          .sort()
          .map((f) => path.join(scenariosDir, f)),
      ]
    : []),
];
const scenarios = files.map(loadScenario);

interface Run {
  scenario: Scenario;
  seed: number;
  summary: ReplaySummary;
  misses: string[];
}
const runs: Run[] = [];
const single = scenarios.length === 1 && seeds === 1;
const world = await startReplayWorld();
try {
  for (const [s, base] of scenarios.entries())
    for (let i = 0; i < seeds; i += 1) {
      const scenario: Scenario = {
        ...base,
        // Each run on its own dates: every run writes to the same bucket, and the history reader reads a bounded
        // number of report keys per month, newest first; runs sharing dates would crowd each other's history out.
        start_date: new Date(Date.parse(base.start_date) + runs.length * 400 * 86_400_000).toISOString().slice(0, 10),
        noise: { ...base.noise, seed: base.noise.seed + i, ...(sigma === undefined ? {} : { sigma }) },
      };
      await world.startOver(runs.length === 0 ? 'replay' : `replay-${s + 1}-${i + 1}`);
      const records = await runReplay(world, scenario, {
        ...(nights === undefined ? {} : { nights }),
        onNight: (r) => {
          if (!values.json)
            process.stderr.write(
              `${scenario.name} seed ${scenario.noise.seed} night ${r.night} ${r.date}: ${r.status}, ${r.emails.length} email(s)\n`,
            );
        },
      });
      const summary = tallyReplay(scenario, records);
      const misses = targetMisses(scenario, summary);
      runs.push({ scenario, seed: scenario.noise.seed, summary, misses });
      if (single) {
        const nightsOut = records.map(({ night, date, faults, status, emails }) => ({
          night,
          date,
          faults,
          status,
          emails: emails.map(({ kind, severity, subject }) => ({ kind, severity, subject })),
        }));
        process.stdout.write(
          values.json
            ? `${JSON.stringify({ nights: nightsOut, summary, misses }, null, 2)}\n`
            : `${formatReplayTable(records, summary)}\n${misses.map((m) => `MISSED: ${m}\n`).join('')}`,
        );
      }
    }
  if (!single)
    process.stdout.write(
      values.json
        ? `${JSON.stringify(
            runs.map(({ scenario, seed, summary, misses }) => ({ scenario: scenario.name, seed, summary, misses })),
            null,
            2,
          )}\n`
        : `${formatScenarioLines(runs)}\n`,
    );
  process.exitCode = runs.every((r) => r.misses.length === 0) ? 0 : 1;
} finally {
  await world.stop();
}
