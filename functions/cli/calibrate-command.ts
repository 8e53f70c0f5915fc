/**
 * `ragwatch calibrate --suite F [--write]`: runs the suite against the services named by the environment, prints
 * the evidence (best scores per category, the probes' scores, latency) and the thresholds proposed from it
 * (core/suite/calibrate.ts), and with --write puts them into the suite file.
 */
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { createEngineAdapters, runOptionsFromConfig } from '../adapters/engine-adapters.ts';
import { readSuiteText } from '../adapters/files/suite-file.ts';
import { type Env, parseEngineConfig } from '../core/config.ts';
import { runValidation } from '../core/run/run-validation.ts';
import { redactUrlsIn } from '../core/shared/redact-url.ts';
import { applyCalibration, type Calibration, proposeThresholds } from '../core/suite/calibrate.ts';
import { formatPrediction, predictRun } from '../core/suite/predict-run.ts';
import { proposeSetAside, recheckSetAside, type SetAsideProposal, withoutSetAside } from '../core/suite/set-aside.ts';
import { parseSuite } from '../core/suite/suite.ts';
import { EXIT, type ExitCode } from './exit-codes.ts';
import { gatherInputs, withSuiteHint } from './inputs.ts';
import { calibrationJson, printJson } from './json-output.ts';

interface CalibrateFlags {
  suite: string;
  write?: boolean;
  collection?: string;
  json?: boolean;
}

/** Adds `calibrate` to the program. */
export function registerCalibrate(program: Command, env: Env): void {
  program
    .command('calibrate')
    .description(
      'run a suite and propose thresholds from what it observed (min_similarity per category, the p95 latency budget); --write puts them into the suite',
    )
    .requiredOption('-s, --suite <path>', 'the suite to calibrate (JSON or YAML)')
    .option('--write', 'write the proposed thresholds into the suite file')
    .option('-c, --collection <name>', 'Qdrant collection (env QDRANT_COLLECTION)')
    .option('--json', 'print the evidence, the proposal and the prediction as one JSON object on stdout')
    .action(async (flags: CalibrateFlags) => {
      process.exitCode = await runCalibrate(flags, env);
    });
}

/** Runs, proposes, prints, and writes with --write; returns the exit code (0 once a proposal is made). */
async function runCalibrate(flags: CalibrateFlags, env: Env): Promise<ExitCode> {
  const yaml = /\.ya?ml$/i.test(flags.suite);
  // The flags and the environment, and the suite file: every problem of both listed at once.
  const [config, { text, suite }] = await gatherInputs([
    () => parseEngineConfig({ ...env, ...(flags.collection ? { QDRANT_COLLECTION: flags.collection } : {}) }),
    async () => {
      const text = await readSuiteText(flags.suite).catch((error: unknown) => {
        throw withSuiteHint(error, flags.suite, 'flag');
      });
      return { text, suite: parseSuite(text, flags.suite) };
    },
  ]);
  const raw = (yaml ? parseYaml(text) : JSON.parse(text)) as Record<string, unknown>;
  const write = (suiteObject: Record<string, unknown>) =>
    yaml ? toYaml(suiteObject) : `${JSON.stringify(suiteObject, null, 2)}\n`;
  // The queries an earlier calibration set aside are run again, as the others are: one whose page is back in its
  // top k is brought back (its mark removed), the others stay set aside (set-aside.ts).
  const { raw: all, setAside: previous } = withoutSetAside(raw);
  // Calibration measures the book, not the suite's current thresholds: a similarity override would skew nothing
  // (best scores do not depend on it), so the configuration is used as is.
  const report = await runValidation(createEngineAdapters(config), {
    ...runOptionsFromConfig(config),
    suite: previous.length === 0 ? suite : parseSuite(write(all), flags.suite),
    suiteSource: flags.suite,
  });
  // Thresholds proposed from a run in which no query completed would be proposed from nothing (every score
  // missing): say why and exit as a run that could not complete does, with nothing written.
  if (report.total_queries > 0 && report.passed_queries + report.failed_queries === 0) {
    process.stderr.write(
      `ragwatch: nothing to calibrate from: ${redactUrlsIn(report.status_reason)}; fix the services and run calibrate again (nothing was written)\n`,
    );
    return EXIT.error;
  }
  const calibration = proposeThresholds(report);
  if (!flags.json)
    process.stdout.write(`${formatCalibration(calibration, { suite: flags.suite, collection: config.collection })}\n`);
  // The prediction is the run itself at the proposed thresholds, judged by the run's own judge (issue 23 §1):
  // one more pass of the suite, so what calibrate says is what the first night will see.
  const runSuiteText = (suiteText: string) =>
    runValidation(createEngineAdapters(config), {
      ...runOptionsFromConfig(config),
      suite: parseSuite(suiteText, flags.suite), // what is written still passes validation
      suiteSource: flags.suite,
    });
  let out = write(applyCalibration(all, report, calibration));
  let predicted = await runSuiteText(out);
  // A known item that fails there with its page not in its top k would fail every night whatever the threshold:
  // set aside in the file (marked, not run, not counted) rather than left to fail, and the prediction made again
  // without it (one more pass: the run's criteria, not a recount, say what the first night sees). Those set aside
  // before are judged in the same pass: back when their page is in their top k again, else kept.
  const proposal = proposeSetAside(predicted);
  const recheck = recheckSetAside(previous, predicted);
  const again = new Set(proposal.queries.map((q) => q.id));
  const marks = [...proposal.queries, ...recheck.kept.filter((q) => !again.has(q.id))];
  const setAside: SetAsideProposal = { queries: marks, refused: proposal.refused };
  if (!flags.json) process.stdout.write(formatSetAside(proposal, previous, recheck.back, flags.write === true));
  if (marks.length > 0) {
    out = write(applyCalibration(all, report, calibration, marks));
    predicted = await runSuiteText(out);
  }
  const prediction = predictRun(predicted);
  if (flags.write) await writeFile(flags.suite, out);
  if (flags.json) {
    const { collection } = config;
    const written = flags.write === true;
    const back = recheck.back;
    printJson(calibrationJson({ suite: flags.suite, collection, calibration, setAside, back, prediction, written }));
    return EXIT.ok;
  }
  process.stdout.write(`${formatPrediction(prediction)}\n`);
  if (!flags.write) {
    process.stdout.write(`Not written: add --write to put these thresholds into ${flags.suite}.\n`);
    return EXIT.ok;
  }
  const marked = marks.length > 0 ? ` and ${marks.length} set_aside mark${marks.length === 1 ? '' : 's'}` : '';
  const removed =
    recheck.back.length > 0 ? ` (${recheck.back.length} mark${recheck.back.length === 1 ? '' : 's'} removed)` : '';
  process.stdout.write(`Wrote the thresholds${marked} into ${flags.suite}${removed}.\n`);
  return EXIT.ok;
}

/** The evidence and the proposal, as lines a person reads. */
function formatCalibration(c: Calibration, where: { suite: string; collection: string }): string {
  const lines = [`Calibration of ${where.suite} against the collection "${where.collection}"`];
  for (const cat of c.categories) {
    const s = cat.scores;
    lines.push(
      `  ${cat.category} (${cat.queries} queries): best similarity ${s ? `min ${f(s.min)} · p10 ${f(s.p10)} · median ${f(s.median)} · max ${f(s.max)}` : 'none'}`,
      `    proposed min_similarity ${cat.threshold ?? '-'}: ${cat.basis}`,
    );
    if (cat.below.length > 0) lines.push(`    under it (would fail): ${cat.below.join(', ')}`);
  }
  if (c.probes.queries > 0) {
    lines.push(
      `  probes (${c.probes.queries}): best similarity max ${c.probes.maxScore === null ? '-' : f(c.probes.maxScore)}; proposed min_similarity ${c.probes.threshold ?? '-'} (the lowest category threshold)`,
    );
    if (c.probes.above.length > 0) lines.push(`    at or over it (would fail): ${c.probes.above.join(', ')}`);
  }
  lines.push(
    `  latency per query (its share of the batched embed and search calls): p50 ${c.latency.p50 ?? '-'} ms · p95 ${c.latency.p95 ?? '-'} ms; proposed max_p95_latency_ms ${c.latency.maxP95LatencyMs ?? '-'} (2 x p95, at least p95 + 100 ms, rounded up to 10 ms)`,
  );
  for (const w of c.warnings) lines.push(`  warning: ${w}`);
  return lines.join('\n');
}

/**
 * The known items set aside now, and what became of those the file had set aside: run again, brought back when
 * their page is in their top k again, else still set aside.
 */
function formatSetAside(
  p: SetAsideProposal,
  previous: readonly { id: string }[],
  back: readonly string[],
  write: boolean,
): string {
  const lines: string[] = [];
  const before = new Set(previous.map((q) => q.id));
  const fresh = p.queries.filter((q) => !before.has(q.id));
  if (fresh.length > 0) {
    lines.push(
      `Set aside${write ? '' : ' with --write'} (kept in the file, marked set_aside, neither run nor counted): ${fresh.length} known item${fresh.length === 1 ? '' : 's'} whose page is not in the top k`,
    );
    for (const q of fresh) lines.push(`  ${q.id}: ${q.reason}`);
  }
  if (p.refused !== null) lines.push(`warning: ${p.refused}`);
  if (previous.length > 0) {
    const still = previous.filter((q) => !back.includes(q.id)).map((q) => q.id);
    lines.push(
      `Set aside before, run again: ${back.length} brought back, their page in the top k again (set_aside ${write ? 'removed' : 'removed with --write'})${back.length > 0 ? `: ${back.join(', ')}` : ''}; ${still.length} still set aside${still.length > 0 ? `: ${still.join(', ')}` : ''}`,
    );
  }
  return lines.map((l) => `${l}\n`).join('');
}

function f(v: number): string {
  return v.toFixed(3);
}
