/**
 * `npm run fuzz`: seeded, in-process fuzzing of suites and configuration (fuzz/suite-fuzz.ts, fuzz/config-fuzz.ts).
 * Prints the counts the issues target at 0 (accepted-but-invalid, valid-refused, crashes, messages that do not name
 * the field) and the first cases behind any of them; exits 1 when one is not 0. The same seed replays the same cases.
 * What is valid is README.md's documented bounds (fuzz/documented-bounds.ts), read apart from the product's code.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fuzzConfig } from './config-fuzz.ts';
import { seededRng } from './rng.ts';
import { fuzzSuites } from './suite-fuzz.ts';
import { newTally, type Tally } from './tally.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '20261123' },
    suites: { type: 'string', default: '10000' },
    configs: { type: 'string', default: '2000' },
  },
});
const seed = Number(values.seed);
const SAMPLE_SUITE = JSON.parse(readFileSync(path.join(import.meta.dirname, '../sandbox/suite.json'), 'utf8'));

const started = performance.now();
const suites = newTally();
fuzzSuites(SAMPLE_SUITE, Number(values.suites), seededRng(seed), suites);
const configs = newTally();
fuzzConfig(Number(values.configs), seededRng(seed + 1), configs);

const line = (name: string, t: Tally) =>
  `${name.padEnd(13)} ${String(t.cases).padStart(7)} ${String(t.accepted).padStart(9)} ${String(t.refused).padStart(8)} ${String(t.acceptedButInvalid.length).padStart(21)} ${String(t.validRefused.length).padStart(14)} ${String(t.crashes.length).padStart(8)} ${String(t.unnamedMessages.length).padStart(30)}`;
const out = (text: string) => process.stdout.write(`${text}\n`);
out(
  `ragwatch fuzz: seed ${seed}, ${os.availableParallelism()} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}`,
);
out('');
out(
  'input           cases  accepted  refused  accepted-but-invalid  valid-refused  crashes  messages not naming the field',
);
out(line('suites', suites));
out(line('configuration', configs));
out('');
out(`finished in ${((performance.now() - started) / 1000).toFixed(1)} s`);
let failed = false;
for (const [name, t] of [
  ['suites', suites],
  ['configuration', configs],
] as const) {
  for (const [kind, list] of [
    ['accepted but invalid', t.acceptedButInvalid],
    ['valid but refused', t.validRefused],
    ['crash', t.crashes],
    ['message not naming the field', t.unnamedMessages],
  ] as const) {
    for (const item of list.slice(0, 5)) out(`${name}: ${kind}: ${item.slice(0, 400)}`);
    if (list.length > 0) failed = true;
  }
}
process.exitCode = failed ? 1 : 0;
