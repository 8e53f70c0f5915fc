/**
 * `ragwatch demo` (what `npm start` runs): the full validation end to end against the local sandbox, with no
 * account, no key and no network. It starts the stand-ins, indexes the sample book through the real clients,
 * seeds the index drift it wants to show, runs the same engine as `run` and always stops the servers.
 */

import { type Command, Option } from 'commander';
import { loadSuiteFile } from '../adapters/files/suite-file.ts';
import { parseEngineConfig } from '../core/config.ts';
import { InputError } from '../core/shared/errors.ts';
import { executeRun } from './execute-run.ts';
import { EXIT, type ExitCode } from './exit-codes.ts';
import { type SummaryDetail, summaryDetail } from './format-summary.ts';
import { wholeNumberFlag } from './inputs.ts';

/** The agent question the chat stand-in answers with an invented figure, so the demo shows UNSUPPORTED_CLAIM. */
const INVENTED_NUMBER_QUERY = 'llm-planning';
/** The agent question the chat stand-in answers with its first sentence negated, for the claim judge to catch. */
const FLIPPED_NEGATION_QUERY = 'isaac-vslam';

export interface DemoFlags {
  out: string;
  /** Milliseconds, as given (a string) or the default; checked by wholeNumberFlag. */
  latency: string | number;
  payloadIndexes: boolean;
  strict?: boolean;
  all?: boolean;
  progress: boolean;
  /** Write the HTML report beside the JSON (default). */
  html?: boolean;
  /** -q: the footer alone (no narration, no bar); -v: each stage's time too. */
  detail?: SummaryDetail;
}

/** Adds `demo` to the program. */
export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description(
      'start the local sandbox (Qdrant and Cohere stand-ins, sample book), index the book and run the full validation',
    )
    .option('-o, --out <dir>', 'directory for reports', 'reports')
    .addOption(new Option('--latency <ms>', 'latency added to every stand-in request (0 to 60000)').default(0))
    .option('--no-payload-indexes', 'index without payload indexes, to show the scroll fallback')
    .option('--strict', 'exit 1 when a criterion is breached, as `run` does (the demo breaches some on purpose)')
    .option('--no-html', 'do not write the HTML report beside the JSON')
    .option('--all', 'list what passed in the summary too (by default only what failed or errored)')
    .option('--no-progress', 'no progress bar')
    .action(async (flags: DemoFlags, command: Command) => {
      process.exitCode = await runDemo({ ...flags, detail: summaryDetail(command.optsWithGlobals()) });
    });
}

/** Runs the demo; returns 0 once a report was produced (or `run`'s exit code with --strict). */
export async function runDemo(flags: DemoFlags): Promise<ExitCode> {
  // Loaded on demand: `run` must not pay for (or depend on) the sandbox's stand-ins.
  const { indexSampleBook, SAMPLE_SUITE_PATH, seedIndexDrift, startSandbox } = await import(
    '../../sandbox/start-sandbox.ts'
  );
  const log = (line: string) => {
    if (flags.detail !== 'quiet') process.stderr.write(`${line}\n`);
  };
  // A negative delay would be read as none by the timers, and the demo would claim a latency it never added.
  const latency = wholeNumberFlag('--latency', flags.latency, { min: 0, max: 60_000 });
  if ('problem' in latency) throw new InputError('demo', [latency.problem]);
  const suite = await loadSuiteFile(SAMPLE_SUITE_PATH);
  const sandbox = await startSandbox({ latencyMs: latency.value });
  try {
    log('ragwatch demo: the full validation against a local sandbox (no account, no key, no network)');
    log(`  Qdrant stand-in   ${sandbox.qdrant.url}`);
    log(`  Cohere stand-in   ${sandbox.cohere.url}`);
    log(`  book sitemap      ${sandbox.env.SITEMAP_URL}`);
    const indexed = await indexSampleBook(sandbox, { payloadIndexes: flags.payloadIndexes });
    log(
      `Indexed the sample book: ${indexed.documents} pages, ${indexed.chunks} chunks${flags.payloadIndexes ? '' : ' (no payload indexes: coverage and quality will scroll)'}`,
    );
    await seedIndexDrift(sandbox);
    log('Seeded deliberate drift: 2 chunks of a removed page (orphans) lacking chapter_id and heading_hierarchy');
    const inventing = suite.queries.find((q) => q.id === INVENTED_NUMBER_QUERY);
    if (inventing) {
      sandbox.cohere.setChatBehaviour('invent_number', { question: inventing.query_text });
      log(`Told the chat stand-in to invent a number, under a real citation, when it answers "${inventing.id}"`);
    }
    const flipping = suite.queries.find((q) => q.id === FLIPPED_NEGATION_QUERY);
    if (flipping) {
      sandbox.cohere.setChatBehaviour('flip_negation', { question: flipping.query_text });
      log(`Told the chat stand-in to flip a negation, under a real citation, when it answers "${flipping.id}"`);
    }
    log(`Running the suite ${SAMPLE_SUITE_PATH} (${suite.queries.length} queries)\n`);
    const config = parseEngineConfig(sandbox.env);
    const code = await executeRun({
      config,
      suite,
      suiteSource: SAMPLE_SUITE_PATH,
      out: flags.out,
      json: false,
      progress: flags.progress,
      html: flags.html ?? true,
      all: flags.all ?? false,
      detail: flags.detail ?? 'normal',
    });
    if (code === EXIT.failed && !flags.strict) {
      log('\nThe sample suite and book breach some criteria on purpose, to show each kind of failure;');
      log('`ragwatch run` exits 1 on such a run (use `demo --strict` to get that exit code here).');
      return EXIT.ok;
    }
    return code;
  } finally {
    await sandbox.stop();
  }
}
