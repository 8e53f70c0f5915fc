/**
 * `ragwatch suite generate`: a known-item suite from the index named by the environment (or from a docs folder),
 * checked by the same validation as any suite before it is written.
 */
import { writeFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import { stringify as toYaml } from 'yaml';
import { qdrantTarget } from '../adapters/engine-adapters.ts';
import { QdrantIndex } from '../adapters/qdrant/vector-index.ts';
import { countModules } from '../core/book/book-modules.ts';
import { type Env, parseEngineConfig } from '../core/config.ts';
import { InputError } from '../core/shared/errors.ts';
import { readBookPagesFromIndex } from '../core/suite/book-pages.ts';
import { generateSuite } from '../core/suite/generate-suite.ts';
import { parseSuite } from '../core/suite/suite.ts';
import { readBookPagesFromDocs } from '../indexer/book-pages.ts';
import { EXIT, type ExitCode } from './exit-codes.ts';
import { ROUTE_BASE_PATH_HELP } from './index-command.ts';

interface GenerateFlags {
  out: string;
  perPage: number;
  probes: number;
  docs?: string;
  baseUrl?: string;
  collection?: string;
  moduleRoot?: string;
  routeBasePath?: string;
}

/** Adds `generate` to the `suite` command (beside `suite normalize`). */
export function registerSuiteGenerate(suite: Command, env: Env): void {
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
    .option('--module-root <folder>', 'with --docs: the folder whose sub-folders are the modules (as index)')
    .option('--route-base-path <path>', `with --docs: ${ROUTE_BASE_PATH_HELP}`)
    .action(async (flags: GenerateFlags) => {
      process.exitCode = await runSuiteGenerate(flags, env);
    });
}

/** Generates, validates and writes the suite; returns the exit code. */
async function runSuiteGenerate(flags: GenerateFlags, env: Env): Promise<ExitCode> {
  const problems: string[] = [];
  if (!Number.isInteger(flags.perPage) || flags.perPage < 1 || flags.perPage > 20)
    problems.push(`--per-page: must be a whole number from 1 to 20, got ${flags.perPage}`);
  if (!Number.isInteger(flags.probes) || flags.probes < 0 || flags.probes > 5)
    problems.push(`--probes: must be a whole number from 0 to 5, got ${flags.probes}`);
  if (problems.length > 0) throw new InputError('suite generate', problems);

  const { pages, modules } =
    flags.docs === undefined ? await pagesFromIndex(flags, env) : await pagesFromDocs(flags, env);
  if (pages.length === 0) throw new InputError('suite generate', ['the book has no page to ask about']);
  const suite = generateSuite(pages, { perPage: flags.perPage, probes: flags.probes });
  const text = /\.ya?ml$/i.test(flags.out) ? toYaml(suite) : `${JSON.stringify(suite, null, 2)}\n`;
  const parsed = parseSuite(text, flags.out); // the file written is one `run` accepts
  await writeFile(flags.out, text);
  const known = parsed.queries.filter((q) => q.expect_match).length;
  process.stdout.write(
    `Wrote ${flags.out}: ${known} known-item questions from ${pages.length} pages and ${parsed.queries.length - known} out-of-domain probes.\n${modules}\nNext: ragwatch calibrate --suite ${flags.out} --write\n`,
  );
  return EXIT.ok;
}

async function pagesFromIndex(flags: GenerateFlags, env: Env) {
  const config = parseEngineConfig(
    { ...env, ...(flags.collection ? { QDRANT_COLLECTION: flags.collection } : {}) },
    { requireCohereKey: false },
  );
  const pages = await readBookPagesFromIndex(new QdrantIndex(qdrantTarget(config)));
  return { pages, modules: `modules in the index: ${countModules(pages.map((p) => p.moduleName))}` };
}

async function pagesFromDocs(flags: GenerateFlags, env: Env) {
  const baseUrl = flags.baseUrl ?? env.DOCUSAURUS_BASE_URL;
  if (baseUrl === undefined || !URL.canParse(baseUrl))
    throw new InputError('suite generate', [
      `--base-url: required with --docs (or DOCUSAURUS_BASE_URL), an http(s) URL; got ${baseUrl === undefined ? 'nothing' : `"${baseUrl}"`}`,
    ]);
  return readBookPagesFromDocs({
    docsDir: flags.docs ?? '',
    baseUrl,
    ...(flags.moduleRoot === undefined ? {} : { moduleRoot: flags.moduleRoot }),
    ...(flags.routeBasePath === undefined ? {} : { routeBasePath: flags.routeBasePath }),
  });
}
