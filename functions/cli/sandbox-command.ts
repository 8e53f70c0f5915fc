/**
 * `ragwatch sandbox`: your own book, offline. Starts the stand-ins with the book indexed and its sitemap served,
 * writes the environment that points ragwatch at them to an env file (KEY=VALUE lines), prints it, and serves until
 * SIGINT or SIGTERM. Loaded on demand, like the demo: `run` never pays for the stand-ins.
 */
import { writeFile } from 'node:fs/promises';
import { serveBook } from '../../sandbox/serve-book.ts';
import { InputError } from '../core/shared/errors.ts';

export interface SandboxFlags {
  docs: string;
  baseUrl: string;
  sitemap?: string;
  envFile: string;
  collection?: string;
}

/** Serves until `until` settles (default: the first SIGINT or SIGTERM); returns the exit code. */
export async function runSandbox(flags: SandboxFlags, until: Promise<unknown> = nextStopSignal()): Promise<number> {
  if (!URL.canParse(flags.baseUrl) || !/^https?:$/.test(new URL(flags.baseUrl).protocol))
    throw new InputError('--base-url', [`--base-url: must be an http(s) URL, got "${flags.baseUrl}"`]);
  const book = await serveBook({
    docsDir: flags.docs,
    baseUrl: flags.baseUrl,
    ...(flags.sitemap === undefined ? {} : { sitemapFile: flags.sitemap }),
    ...(flags.collection === undefined ? {} : { collection: flags.collection }),
  });
  try {
    const lines = Object.entries(book.env).map(([key, value]) => `${key}=${value}`);
    await writeFile(flags.envFile, `${lines.join('\n')}\n`);
    const log = (line: string) => process.stderr.write(`${line}\n`);
    log(
      `ragwatch sandbox: indexed ${book.indexed.documents} pages as ${book.indexed.chunks} chunks; sitemap ${book.sitemap === 'given' ? flags.sitemap : 'generated from the docs'}`,
    );
    log(`Wrote ${flags.envFile} (load it with: set -a; . ${flags.envFile}; set +a). Serving until Ctrl-C.`);
    process.stdout.write(`${lines.join('\n')}\n`);
    await until;
    return 0;
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
