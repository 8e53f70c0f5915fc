/**
 * `ragwatch sandbox`: your own book, offline. Starts the stand-ins with the book indexed and its sitemap served,
 * writes the environment that points ragwatch at them to an env file (KEY=VALUE lines), prints it, and serves until
 * SIGINT or SIGTERM. Loaded on demand, like the demo: `run` never pays for the stand-ins.
 */
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { InputError } from '../core/shared/errors.ts';
import { EXIT, type ExitCode } from './exit-codes.ts';
import { ROUTE_BASE_PATH_HELP } from './index-command.ts';

interface SandboxFlags {
  docs: string;
  baseUrl: string;
  sitemap?: string;
  writeEnv: string;
  collection?: string;
  moduleRoot?: string;
  routeBasePath?: string;
}

/** Adds `sandbox` to the program. */
export function registerSandbox(program: Command): void {
  program
    .command('sandbox')
    .description(
      'your own book offline: start the Qdrant and Cohere stand-ins, index the book, serve its sitemap, write the environment to --write-env, serve until Ctrl-C',
    )
    .requiredOption('-d, --docs <dir>', 'the Docusaurus docs folder')
    .requiredOption('-b, --base-url <url>', "the book's public base URL, e.g. https://user.github.io/repo/")
    .option('--sitemap <file>', "the book's sitemap.xml (default: one generated from the docs)")
    // Not --env-file: Node 24 reads an `--env-file` anywhere on its command line, after the script's name too, and
    // exits 9 when the file does not exist yet (it is ours to write).
    .requiredOption('--write-env <path>', 'where to write the KEY=VALUE lines')
    .option('-c, --collection <name>', 'Qdrant collection', 'book')
    .option('--module-root <folder>', 'the folder (inside --docs) whose sub-folders are the modules (as index)')
    .option('--route-base-path <path>', ROUTE_BASE_PATH_HELP)
    .action(async (flags: SandboxFlags) => {
      process.exitCode = await runSandbox(flags, nextStopSignal());
    });
}

/** Serves until `until` settles (the first SIGINT or SIGTERM); returns the exit code. */
async function runSandbox(flags: SandboxFlags, until: Promise<unknown>): Promise<ExitCode> {
  if (!URL.canParse(flags.baseUrl) || !/^https?:$/.test(new URL(flags.baseUrl).protocol))
    throw new InputError('--base-url', [`--base-url: must be an http(s) URL, got "${flags.baseUrl}"`]);
  // Loaded on demand: `run` must not pay for (or depend on) the sandbox's stand-ins.
  const { serveBook } = await import('../../sandbox/serve-book.ts');
  const book = await serveBook({
    docsDir: flags.docs,
    baseUrl: flags.baseUrl,
    ...(flags.sitemap === undefined ? {} : { sitemapFile: flags.sitemap }),
    ...(flags.collection === undefined ? {} : { collection: flags.collection }),
    ...(flags.moduleRoot === undefined ? {} : { moduleRoot: flags.moduleRoot }),
    ...(flags.routeBasePath === undefined ? {} : { routeBasePath: flags.routeBasePath }),
  });
  try {
    const lines = Object.entries(book.env).map(([key, value]) => `${key}=${value}`);
    await writeFile(flags.writeEnv, `${lines.join('\n')}\n`);
    const log = (line: string) => process.stderr.write(`${line}\n`);
    log(
      `ragwatch sandbox: indexed ${book.indexed.documents} pages as ${book.indexed.chunks} chunks; sitemap ${book.sitemap === 'given' ? flags.sitemap : 'generated from the docs'}`,
    );
    log(book.indexed.routes);
    log(book.indexed.modules);
    log(`Wrote ${flags.writeEnv} (load it with: set -a; . ${flags.writeEnv}; set +a). Serving until Ctrl-C.`);
    process.stdout.write(`${lines.join('\n')}\n`);
    await until;
    return EXIT.ok;
  } finally {
    await book.stop();
  }
}

function nextStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
