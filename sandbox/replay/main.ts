/**
 * `npm run replay [-- --json] [--nights N] [--scenario file]`: replays the scenario's nights through the real
 * nightly handler against the sandbox's stand-ins and prints one row a night and the summary (or the JSON).
 * Exits 1 when the summary misses the target: every fault detected on its first night and recovered, no false
 * and no duplicate alert.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatReplayTable } from './format-table.ts';
import { runReplay } from './replay.ts';
import { loadScenario } from './scenario.ts';
import { tallyReplay } from './tally.ts';
import { startReplayWorld } from './world.ts';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    nights: { type: 'string' },
    scenario: { type: 'string', default: path.join(import.meta.dirname, 'scenario.json') },
  },
});
const scenario = loadScenario(values.scenario);
const nights = values.nights === undefined ? undefined : Number(values.nights);
if (nights !== undefined && !(Number.isInteger(nights) && nights >= 1)) {
  process.stderr.write(`replay: --nights must be a whole number of nights, got "${values.nights}"\n`);
  process.exit(2);
}
const world = await startReplayWorld();
try {
  const records = await runReplay(world, scenario, {
    ...(nights === undefined ? {} : { nights }),
    onNight: (r) => {
      if (!values.json) process.stderr.write(`night ${r.night} ${r.date}: ${r.status}, ${r.emails.length} email(s)\n`);
    },
  });
  const summary = tallyReplay(scenario, records);
  const nightsOut = records.map(({ night, date, faults, status, emails }) => ({
    night,
    date,
    faults,
    status,
    emails: emails.map(({ kind, severity, subject }) => ({ kind, severity, subject })),
  }));
  process.stdout.write(
    values.json
      ? `${JSON.stringify({ nights: nightsOut, summary }, null, 2)}\n`
      : `${formatReplayTable(records, summary)}\n`,
  );
  const met =
    summary.detected_first_night === summary.faults &&
    summary.recoveries === summary.faults &&
    summary.false_alerts === 0 &&
    summary.duplicate_alerts === 0;
  process.exitCode = met ? 0 : 1;
} finally {
  await world.stop();
}
