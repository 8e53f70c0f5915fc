#!/usr/bin/env node
/**
 * The ragwatch command line: a thin composition root. It parses flags and the environment, wires adapters,
 * calls the same engine the Lambda calls, saves the report and prints a summary.
 * Exit codes: 0 every success criterion holds; 1 a criterion is breached or the run could not complete;
 * 2 bad input or configuration (nothing ran); 3 the report could not be written (it went to stderr in full).
 */
import { Command, CommanderError, Option } from 'commander';
import { InputError } from '../core/shared/errors.ts';
import { runCheck } from './run-command.ts';
import { writeSchema } from './schema-command.ts';
import { registerSuiteNormalize } from './suite-command.ts';

export const EXIT = { ok: 0, breached: 1, badInput: 2, reportNotWritten: 3 } as const;

function buildProgram(env: Record<string, string | undefined>): Command {
  const program = new Command()
    .name('ragwatch')
    .description("Validates a RAG system's retrieval: golden queries, sitemap coverage, metadata quality.")
    .showHelpAfterError()
    .exitOverride();

  program
    .command('run')
    .description('run the full validation against the Qdrant and Cohere named by the environment')
    .option('-s, --suite <path>', 'golden-query suite, JSON or YAML (env SUITE_PATH)', env.SUITE_PATH ?? 'suite.json')
    .option('-o, --out <dir>', 'directory for reports (env REPORT_DIR)', env.REPORT_DIR ?? 'reports')
    .option('-c, --collection <name>', 'Qdrant collection (env QDRANT_COLLECTION)')
    .option(
      '--sitemap-url <url>',
      'sitemap.xml or sitemap index (env SITEMAP_URL; default DOCUSAURUS_BASE_URL/sitemap.xml)',
    )
    .option('--json', 'print the report JSON on stdout instead of the summary')
    .option(
      '--deadline <seconds>',
      'the whole run’s budget; unfinished stages end as TIMEOUT and the report still goes out (env RUN_DEADLINE_SECONDS; default 600)',
    )
    .option('--no-html', 'do not write the HTML report beside the JSON (the CSV of query rows is always written)')
    .option('--no-progress', 'no progress bar')
    .action(async (opts) => {
      process.exitCode = await runCheck(opts, env);
    });

  program
    .command('demo')
    .description(
      'start the local sandbox (Qdrant and Cohere stand-ins, sample book), index the book and run the full validation',
    )
    .option('-o, --out <dir>', 'directory for reports', 'reports')
    .addOption(new Option('--latency <ms>', 'latency added to every stand-in request').default(0).argParser(Number))
    .option('--no-payload-indexes', 'index without payload indexes, to show the scroll fallback')
    .option('--strict', 'exit 1 when a criterion is breached, as `run` does (the demo breaches some on purpose)')
    .option('--no-html', 'do not write the HTML report beside the JSON')
    .option('--no-progress', 'no progress bar')
    .action(async (opts) => {
      // Loaded on demand: `run` must not pay for (or depend on) the sandbox's stand-ins.
      const { runDemo } = await import('./demo.ts');
      process.exitCode = await runDemo(opts);
    });

  const suite = program.command('suite').description('golden-query suites: generate, normalize');
  registerSuiteNormalize(suite);
  suite
    .command('generate')
    .description(
      'write a known-item suite from the index named by the environment (or from --docs): questions from each page’s headings and text, expected module and chapter, out-of-domain probes',
    )
    .option('-o, --out <file>', 'the suite file to write (.json, or .yaml/.yml)', 'suite.json')
    .addOption(new Option('--per-page <n>', 'questions per page, at most').default(2).argParser(Number))
    .addOption(new Option('--probes <n>', 'out-of-domain probes (0 to 5)').default(3).argParser(Number))
    .option('-d, --docs <dir>', 'read the pages from this docs folder instead of the index')
    .option('-b, --base-url <url>', "with --docs: the book's public base URL (env DOCUSAURUS_BASE_URL)")
    .option('-c, --collection <name>', 'Qdrant collection (env QDRANT_COLLECTION)')
    .action(async (opts) => {
      const { runSuiteGenerate } = await import('./suite-generate-command.ts');
      process.exitCode = await runSuiteGenerate(opts, env);
    });

  program
    .command('calibrate')
    .description(
      'run a suite and propose thresholds from what it observed (min_similarity per category, the p95 latency budget); --write puts them into the suite',
    )
    .requiredOption('-s, --suite <path>', 'the suite to calibrate (JSON or YAML)')
    .option('--write', 'write the proposed thresholds into the suite file')
    .option('-c, --collection <name>', 'Qdrant collection (env QDRANT_COLLECTION)')
    .action(async (opts) => {
      const { runCalibrate } = await import('./calibrate-command.ts');
      process.exitCode = await runCalibrate(opts, env);
    });

  program
    .command('sandbox')
    .description(
      'your own book offline: start the Qdrant and Cohere stand-ins, index the book, serve its sitemap, write the environment to --env-file, serve until Ctrl-C',
    )
    .requiredOption('-d, --docs <dir>', 'the Docusaurus docs folder')
    .requiredOption('-b, --base-url <url>', "the book's public base URL, e.g. https://user.github.io/repo/")
    .option('--sitemap <file>', "the book's sitemap.xml (default: one generated from the docs)")
    .requiredOption('--env-file <path>', 'where to write the KEY=VALUE lines')
    .option('-c, --collection <name>', 'Qdrant collection', 'book')
    .action(async (opts) => {
      const { runSandbox } = await import('./sandbox-command.ts');
      process.exitCode = await runSandbox(opts);
    });

  program
    .command('index')
    .description('chunk a Docusaurus docs folder, embed it with Cohere and upsert it into Qdrant')
    .requiredOption('-d, --docs <dir>', 'the docs folder')
    .requiredOption(
      '-b, --base-url <url>',
      "the book's public base URL (env DOCUSAURUS_BASE_URL)",
      env.DOCUSAURUS_BASE_URL,
    )
    .option('-c, --collection <name>', 'Qdrant collection (env QDRANT_COLLECTION)')
    .option('--recreate', 'drop and recreate the collection first')
    .option('--prune', 'delete the points of pages that are no longer in the docs folder')
    .option('--no-payload-indexes', 'do not create payload indexes')
    .action(async (opts) => {
      const { runIndex } = await import('./index-command.ts');
      process.exitCode = await runIndex(opts, env);
    });

  program
    .command('schema')
    .description('print the JSON Schema of the ValidationReport (or write it to a file)')
    .option('-o, --out <file>', 'write to this file')
    .action(async (opts) => {
      process.exitCode = await writeSchema(opts);
    });
  return program;
}

/** Runs the CLI with the given argv and environment; returns the exit code instead of exiting, for tests. */
export async function main(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  process.exitCode = undefined;
  try {
    await buildProgram(env).parseAsync(argv, { from: 'user' });
    return Number(process.exitCode ?? EXIT.ok);
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
        ? EXIT.ok
        : EXIT.badInput;
    }
    if (error instanceof InputError) {
      process.stderr.write(`ragwatch: ${error.message}\n`);
      return EXIT.badInput;
    }
    throw error;
  }
}

if (import.meta.main) {
  // `npm run ragwatch` puts `--` after the script: Node 24 reads an `--env-file <path>` anywhere on its command line,
  // even after the script's name (and exits 9 when the file does not exist yet), unless a `--` comes first.
  const argv = process.argv.slice(2);
  // Exit once the run is over rather than when the event loop drains: cohere-ai 8.1 does not clear its own
  // timeout timer when a request is aborted (at the run's deadline), which would hold the process up to 30 s more.
  process.exit(await main(argv[0] === '--' ? argv.slice(1) : argv));
}
