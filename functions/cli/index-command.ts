/** `ragwatch index`: chunk a Docusaurus docs folder, embed it with Cohere and upsert it into Qdrant. */

import type { Command } from 'commander';
import { cohereEmbedTarget, qdrantTarget } from '../adapters/engine-adapters.ts';
import { redact } from '../adapters/transport.ts';
import { type Env, parseEngineConfig } from '../core/config.ts';
import { describeError, InputError } from '../core/shared/errors.ts';
import { redactUrlsIn } from '../core/shared/redact-url.ts';
import { type IndexBookSummary, indexBook } from '../indexer/index.ts';
import { EXIT, type ExitCode } from './exit-codes.ts';
import { indexJson, printJson } from './json-output.ts';

/** The `--route-base-path` help, shared by index, sandbox and suite generate. */
export const ROUTE_BASE_PATH_HELP =
  "the docs plugin's routeBasePath ('/' for docs at the site's root); default: the docusaurus.config.* beside --docs, else docs";

interface IndexFlags {
  docs: string;
  baseUrl: string;
  collection?: string;
  recreate?: boolean;
  prune?: boolean;
  payloadIndexes: boolean;
  moduleRoot?: string;
  routeBasePath?: string;
  json?: boolean;
}

/** Adds `index` to the program. */
export function registerIndex(program: Command, env: Env): void {
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
    .option(
      '--module-root <folder>',
      'the folder (inside --docs) whose sub-folders are the modules; default: the sidebars file beside --docs, else the detected content root',
    )
    .option('--route-base-path <path>', ROUTE_BASE_PATH_HELP)
    .option('--json', 'print what was written, kept and deleted as one JSON object on stdout')
    .action(async (flags: IndexFlags) => {
      process.exitCode = await runIndex(flags, env);
    });
}

/**
 * Indexes from flags and the environment (QDRANT_URL, QDRANT_API_KEY, COHERE_API_KEY, ...); returns the exit code:
 * done, a service failed (one line on stderr, as `run` says it, never a stack trace), or bad input (thrown).
 */
async function runIndex(flags: IndexFlags, env: Env): Promise<ExitCode> {
  const config = parseEngineConfig({
    ...env,
    DOCUSAURUS_BASE_URL: flags.baseUrl,
    ...(flags.collection ? { QDRANT_COLLECTION: flags.collection } : {}),
  });
  let summary: IndexBookSummary;
  try {
    summary = await indexBook({
      docsDir: flags.docs,
      baseUrl: config.docusaurusBaseUrl,
      qdrant: qdrantTarget(config),
      cohere: cohereEmbedTarget(config),
      payloadIndexes: flags.payloadIndexes,
      recreate: flags.recreate ?? false,
      prune: flags.prune ?? false,
      ...(flags.moduleRoot === undefined ? {} : { moduleRoot: flags.moduleRoot }),
      ...(flags.routeBasePath === undefined ? {} : { routeBasePath: flags.routeBasePath }),
    });
  } catch (error) {
    if (error instanceof InputError) throw error;
    const secrets = [config.secrets.cohereApiKey, config.secrets.qdrantApiKey];
    process.stderr.write(`ragwatch: indexing failed: ${redactUrlsIn(redact(describeError(error), secrets))}\n`);
    return EXIT.error;
  }
  if (flags.json) printJson(indexJson(summary));
  else
    process.stdout.write(
      `Indexed ${summary.documents} pages as ${summary.chunks} chunks into "${summary.collection}" (${summary.vectorSize || 'no new'} dims, ${summary.model}): ` +
        `${summary.written} written${summary.reused > 0 ? ` (${summary.reused} moved, their vectors reused)` : ''}, ${summary.unchanged} unchanged, ${summary.deleted} deleted in ${Math.round(summary.durationMs)} ms\n` +
        `${summary.routes}\n${summary.modules}\n`,
    );
  const gone = summary.keptGonePages;
  if (gone.length > 0)
    process.stderr.write(
      `ragwatch: warning: the collection still holds ${gone.length} page(s) no longer in --docs (orphans: the run fails on them, max_orphan_urls); give --prune to delete them: ${gone.slice(0, 5).join(', ')}${gone.length > 5 ? ', ...' : ''}\n`,
    );
  return EXIT.ok;
}
