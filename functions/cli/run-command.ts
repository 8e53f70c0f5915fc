/**
 * `ragwatch run`: the full validation against real services named by the environment (the seeds' variables:
 * COHERE_API_KEY, QDRANT_URL, QDRANT_API_KEY, DOCUSAURUS_BASE_URL, SIMILARITY_THRESHOLD, TOP_K_RESULTS, LOG_LEVEL, ...).
 */
import type { Command } from 'commander';
import { loadSuiteFile } from '../adapters/files/suite-file.ts';
import { type Env, parseEngineConfig, parseLocations } from '../core/config.ts';
import { InputError } from '../core/shared/errors.ts';
import { executeRun } from './execute-run.ts';
import type { ExitCode } from './exit-codes.ts';
import { type SummaryDetail, summaryDetail } from './format-summary.ts';
import { gatherInputs, withSuiteHint } from './inputs.ts';

interface RunFlags {
  suite: string;
  out: string;
  collection?: string;
  sitemapUrl?: string;
  /** true: the whole report; "summary": its small form. */
  json?: boolean | string;
  all?: boolean;
  progress: boolean;
  /** The run's deadline in seconds (env RUN_DEADLINE_SECONDS). */
  deadline?: string;
  /** Write the HTML report beside the JSON (default; --no-html turns it off). */
  html?: boolean;
}

/** Adds `run` to the program. */
export function registerRun(program: Command, env: Env): void {
  const { suitePath, reportDir } = parseLocations(env);
  program
    .command('run')
    .description('run the full validation against the Qdrant and Cohere named by the environment')
    .option('-s, --suite <path>', 'golden-query suite, JSON or YAML (env SUITE_PATH)', suitePath)
    .option('-o, --out <dir>', 'directory for reports (env REPORT_DIR)', reportDir)
    .option('-c, --collection <name>', 'Qdrant collection (env QDRANT_COLLECTION)')
    .option(
      '--sitemap-url <url>',
      'sitemap.xml or sitemap index (env SITEMAP_URL; default DOCUSAURUS_BASE_URL/sitemap.xml)',
    )
    .option(
      '--json [form]',
      'print the report JSON on stdout instead of the summary; `--json summary`: only the status, exit code, counts, breached criteria and report paths',
    )
    .option('--all', 'list what passed in the summary too (by default only what failed or errored)')
    .option(
      '--deadline <seconds>',
      'the whole run’s budget; unfinished stages end as TIMEOUT and the report still goes out (env RUN_DEADLINE_SECONDS; default 600)',
    )
    .option('--no-html', 'do not write the HTML report beside the JSON (the CSV of query rows is always written)')
    .option('--no-progress', 'no progress bar')
    .action(async (flags: RunFlags, command: Command) => {
      process.exitCode = await runCheck(flags, env, summaryDetail(command.optsWithGlobals()));
    });
}

/** Runs the validation from flags and the environment; returns the exit code. */
async function runCheck(flags: RunFlags, env: Env, detail: SummaryDetail): Promise<ExitCode> {
  // The flags and the environment, and the suite file: every problem of both listed at once.
  const [json, config, suite] = await gatherInputs([
    () => jsonForm(flags.json),
    () =>
      parseEngineConfig({
        ...env,
        ...(flags.collection ? { QDRANT_COLLECTION: flags.collection } : {}),
        ...(flags.sitemapUrl ? { SITEMAP_URL: flags.sitemapUrl } : {}),
        ...(flags.deadline !== undefined ? { RUN_DEADLINE_SECONDS: flags.deadline } : {}),
      }),
    () =>
      loadSuiteFile(flags.suite).catch((error: unknown) => {
        throw withSuiteHint(error, flags.suite, 'flag or env');
      }),
  ]);
  return executeRun({
    config,
    suite,
    suiteSource: flags.suite,
    out: flags.out,
    json,
    all: flags.all ?? false,
    progress: flags.progress,
    html: flags.html ?? true,
    detail,
  });
}

/** --json alone is the whole report; --json summary its small form; any other word is bad input. */
function jsonForm(flag: boolean | string | undefined): false | 'report' | 'summary' {
  if (flag === undefined || flag === false) return false;
  if (flag === true || flag === 'report') return 'report';
  if (flag === 'summary') return 'summary';
  throw new InputError('--json', [`expects no value, "report" or "summary", got "${flag}"`]);
}
