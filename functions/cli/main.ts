#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import type { Env } from '../core/config.ts';
import { REPORT_SCHEMA_VERSION } from '../core/report/report.ts';
import { describeError, InputError, isServiceError } from '../core/shared/errors.ts';
/**
 * The ragwatch command line: a thin composition root. Each command registers itself (its flags, its action) from
 * its own file; this one builds the program from that list, maps what escapes a command to an exit code
 * (exit-codes.ts), and exits.
 */
import { redactUrlsIn } from '../core/shared/redact-url.ts';
import { registerCalibrate } from './calibrate-command.ts';
import { registerCompletion } from './completion-command.ts';
import { registerDemo } from './demo.ts';
import { EXIT } from './exit-codes.ts';
import { registerIndex } from './index-command.ts';
import { InputErrors } from './inputs.ts';
import { registerRun } from './run-command.ts';
import { registerSandbox } from './sandbox-command.ts';
import { registerSchema } from './schema-command.ts';
import { registerSuite } from './suite-command.ts';

/** The commands, in the order `ragwatch --help` lists them. */
const COMMANDS: ((program: Command, env: Env) => void)[] = [
  registerRun,
  registerDemo,
  registerSuite,
  registerCalibrate,
  registerSandbox,
  registerIndex,
  registerSchema,
];

function buildProgram(env: Env): Command {
  const program = new Command()
    .name('ragwatch')
    .description("Validates a RAG system's retrieval: golden queries, sitemap coverage, metadata quality.")
    .version(versionLine(), '-V, --version', 'the package’s version and the report schema’s')
    // Program-wide, so `ragwatch -q run` and `ragwatch run -q` both work; run and demo read them.
    .addOption(
      new Option(
        '-q, --quiet',
        'print only the three-line footer (verdict, counts, report link); errors still go to stderr',
      ).conflicts('verbose'),
    )
    .option('-v, --verbose', 'add each stage’s status and time to the summary')
    .showHelpAfterError()
    .exitOverride();
  for (const register of COMMANDS) register(program, env);
  registerCompletion(program); // last: it completes every command registered before it
  return program;
}

/** "ragwatch 0.1.0 (report schema_version 2)": what a bug report or a script checking compatibility needs. */
function versionLine(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return `ragwatch ${pkg.version} (report schema_version ${REPORT_SCHEMA_VERSION})`;
}

/** Runs the CLI with the given argv and environment; returns the exit code instead of exiting, for tests. */
export async function main(argv: string[], env: Env = process.env): Promise<number> {
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
    if (error instanceof InputError || error instanceof InputErrors) {
      for (const e of error instanceof InputErrors ? error.errors : [error])
        process.stderr.write(`ragwatch: ${redactUrlsIn(e.message)}\n`);
      return EXIT.badInput;
    }
    // A service that failed outside a run (suite generate reading the index, say): one line naming it, as a run
    // that could not complete exits; never a stack trace. Adapters' messages carry no secret (errors.ts).
    if (isServiceError(error)) {
      process.stderr.write(`ragwatch: ${redactUrlsIn(describeError(error))}\n`);
      return EXIT.error;
    }
    throw error;
  }
}

/**
 * Resolves once everything written to `stream` so far has reached the OS. On Linux a pipe is written asynchronously:
 * what the reader has not taken yet (past the pipe's 64 KiB) waits in Node, and `process.exit` would drop it. An
 * empty write's callback runs after every earlier write has been flushed; a reader that has gone away (EPIPE, as in
 * `ragwatch schema | head -1`) ends the wait too, since nobody is left to read the rest.
 */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('error', () => resolve());
    stream.write('', () => resolve());
  });
}

/**
 * Runs the CLI as a process: `argv` without node and the script, then the exit. ragwatch.mjs (the bin) calls it once
 * it has checked the Node version; `node functions/cli/main.ts` on Node 24 comes here directly.
 */
export async function runFromCommandLine(argv: string[]): Promise<never> {
  // `npm run ragwatch` puts `--` after the script (so that Node reads no flag of ours as its own): drop it.
  const code = await main(argv[0] === '--' ? argv.slice(1) : argv);
  // Every path (the report's JSON, the schema, the exit-3 fallback's whole report on stderr) is flushed before the
  // exit: the exit code never changes when output is cut, so a cut would break a CI job without saying why.
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  // Then exit rather than wait for the event loop to drain: cohere-ai 8.1 does not clear its own timeout timer when a
  // request is aborted (at the run's deadline), which would hold the process up to 30 s more.
  process.exit(code);
}

if (import.meta.main) await runFromCommandLine(process.argv.slice(2));
