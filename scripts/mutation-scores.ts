/**
 * Prints the mutation score of each mutated file from Stryker's JSON report, and fails (exit 1) when the core is
 * under its target: >= 90 % overall and >= 80 % for every file (issue 14, docs/TESTING.md).
 * Score as Stryker counts it: detected (killed or timed out) over valid mutants (detected, survived, no coverage);
 * mutants that did not compile or crashed the runner, and ignored ones (static mutants), are not counted.
 * Usage: node scripts/mutation-scores.ts [report.json ...]; several reports (runs of parts of the core with
 * `--mutate`) are merged, a file in two reports taking the later one.
 */
import { readFileSync } from 'node:fs';

const REPORTS = process.argv.length > 2 ? process.argv.slice(2) : ['reports/mutation/mutation.json'];
const MIN_OVERALL = 90;
const MIN_PER_FILE = 80;

interface Report {
  files: Record<string, { mutants: { status: string }[] }>;
}

interface Tally {
  detected: number;
  survived: number;
  noCoverage: number;
  ignored: number;
}

function tally(statuses: string[]): Tally {
  const count = (...s: string[]) => statuses.filter((x) => s.includes(x)).length;
  return {
    detected: count('Killed', 'Timeout'),
    survived: count('Survived'),
    noCoverage: count('NoCoverage'),
    ignored: count('Ignored'),
  };
}

function score(t: Tally): number {
  const valid = t.detected + t.survived + t.noCoverage;
  return valid === 0 ? 100 : (t.detected / valid) * 100;
}

const files: Report['files'] = {};
for (const path of REPORTS) Object.assign(files, (JSON.parse(readFileSync(path, 'utf8')) as Report).files);
const report: Report = { files };
const rows = Object.entries(report.files)
  .map(([file, { mutants }]) => ({ file, t: tally(mutants.map((m) => m.status)) }))
  .sort((a, b) => score(a.t) - score(b.t) || a.file.localeCompare(b.file));
const all = tally(Object.values(report.files).flatMap((f) => f.mutants.map((m) => m.status)));

const width = Math.max(...rows.map((r) => r.file.length), 'all files'.length);
const line = (name: string, t: Tally, flag: string) =>
  `${name.padEnd(width)}  ${score(t).toFixed(2).padStart(6)} %  killed ${String(t.detected).padStart(4)}  survived ${String(t.survived).padStart(3)}  no coverage ${String(t.noCoverage).padStart(3)}  static ${String(t.ignored).padStart(3)}${flag}`;
console.log(
  `Mutation score per file (${REPORTS.join(', ')}); target >= ${MIN_OVERALL} % overall, >= ${MIN_PER_FILE} % per file`,
);
for (const r of rows) console.log(line(r.file, r.t, score(r.t) < MIN_PER_FILE ? '  UNDER TARGET' : ''));
console.log(line('all files', all, score(all) < MIN_OVERALL ? '  UNDER TARGET' : ''));

const under = rows.filter((r) => score(r.t) < MIN_PER_FILE);
if (score(all) < MIN_OVERALL || under.length > 0) process.exitCode = 1;
