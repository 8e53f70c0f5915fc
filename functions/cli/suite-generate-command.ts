/**
 * `ragwatch suite generate`: a known-item suite from the index named by the environment (or from a docs folder),
 * checked by the same validation as any suite before it is written.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import { stringify as toYaml } from 'yaml';
import { qdrantTarget } from '../adapters/engine-adapters.ts';
import { QdrantIndex } from '../adapters/qdrant/vector-index.ts';
import { countModules } from '../core/book/book-modules.ts';
import { type EngineConfig, type Env, parseEngineConfig } from '../core/config.ts';
import { InputError } from '../core/shared/errors.ts';
import { readBookPagesFromIndex } from '../core/suite/book-pages.ts';
import { generateSuite } from '../core/suite/generate-suite.ts';
import { parseSuite } from '../core/suite/suite.ts';
import { readBookPagesFromDocs } from '../indexer/book-pages.ts';
import { EXIT, type ExitCode } from './exit-codes.ts';
import { ROUTE_BASE_PATH_HELP } from './index-command.ts';
import { gatherInputs, unwritableOutput, wholeNumberFlag } from './inputs.ts';
import { generatedSuiteJson, printJson } from './json-output.ts';

interface GenerateFlags {
  out: string;
  /** Overwrite --out when it exists (a calibrated suite is otherwise never replaced). */
  force?: boolean;
  /** As given (a string), or the default: checked by wholeNumberFlag so "abc" is named, never "NaN". */
  perPage: string | number;
  probes: string | number;
  docs?: string;
  baseUrl?: string;
  collection?: string;
  moduleRoot?: string;
  routeBasePath?: string;
  json?: boolean;
}

/** Adds `generate` to the `suite` command (beside `suite normalize`). */
export function registerSuiteGenerate(suite: Command, env: Env): void {
  suite
    .command('generate')
    .description(
      'write a known-item suite from the index named by the environment (or from --docs): questions from each page’s headings and text, expected module and chapter, out-of-domain probes',
    )
    .option('-o, --out <file>', 'the suite file to write (.json, or .yaml/.yml)', 'suite.json')
    .addOption(new Option('--per-page <n>', 'questions per page, at most (1 to 20)').default(2))
    .addOption(new Option('--probes <n>', 'out-of-domain probes (0 to 5)').default(3))
    .option('-f, --force', 'overwrite --out when it exists (by default an existing suite is never replaced)')
    .option('-d, --docs <dir>', 'read the pages from this docs folder instead of the index')
    .option('-b, --base-url <url>', "with --docs: the book's public base URL (env DOCUSAURUS_BASE_URL)")
    .option('-c, --collection <name>', 'Qdrant collection (env QDRANT_COLLECTION)')
    .option('--module-root <folder>', 'with --docs: the folder whose sub-folders are the modules (as index)')
    .option('--route-base-path <path>', `with --docs: ${ROUTE_BASE_PATH_HELP}`)
    .option('--json', 'print the file written and what it holds as one JSON object on stdout')
    .action(async (flags: GenerateFlags) => {
      process.exitCode = await runSuiteGenerate(flags, env);
    });
}

/** Generates, validates and writes the suite; returns the exit code. */
async function runSuiteGenerate(flags: GenerateFlags, env: Env): Promise<ExitCode> {
  const perPage = wholeNumberFlag('--per-page', flags.perPage, { min: 1, max: 20 });
  const probes = wholeNumberFlag('--probes', flags.probes, { min: 0, max: 5 });
  // The flags, then the environment (or --docs and --base-url): every problem of both listed at once.
  const [counts, source] = await gatherInputs([
    () => {
      if ('problem' in perPage || 'problem' in probes)
        throw new InputError(
          'suite generate',
          [perPage, probes].flatMap((f) => ('problem' in f ? [f.problem] : [])),
        );
      return { perPage: perPage.value, probes: probes.value };
    },
    () => (flags.docs === undefined ? configForIndex(flags, env) : baseUrlForDocs(flags, env)),
    // A suite already there may hold calibrated thresholds and hand-written queries: replaced only when asked.
    () => {
      if (!flags.force && existsSync(flags.out))
        throw new InputError(`--out ${flags.out}`, [
          'the file exists (it may hold calibrated thresholds): pass --force to overwrite it, or name another file',
        ]);
    },
  ]);
  const { pages, modules } =
    typeof source === 'string' ? await pagesFromDocs(flags, source) : await pagesFromIndex(source);
  if (pages.length === 0) throw new InputError('suite generate', ['the book has no page to ask about']);
  const suite = generateSuite(pages, counts);
  const text = /\.ya?ml$/i.test(flags.out) ? toYaml(suite) : `${JSON.stringify(suite, null, 2)}\n`;
  const parsed = parseSuite(text, flags.out); // the file written is one `run` accepts
  await writeFile(flags.out, text).catch((error: unknown) => {
    throw unwritableOutput('--out', flags.out, error);
  });
  const known = parsed.queries.filter((q) => q.expect_match).length;
  if (flags.json) {
    const probes = parsed.queries.length - known;
    printJson(generatedSuiteJson({ out: flags.out, pages: pages.length, knownItems: known, probes }));
    return EXIT.ok;
  }
  process.stdout.write(
    `Wrote ${flags.out}: ${known} known-item questions from ${pages.length} pages and ${parsed.queries.length - known} out-of-domain probes.\n${modules}\nNext: ragwatch calibrate --suite ${flags.out} --write\n`,
  );
  return EXIT.ok;
}

function configForIndex(flags: GenerateFlags, env: Env): EngineConfig {
  return parseEngineConfig(
    { ...env, ...(flags.collection ? { QDRANT_COLLECTION: flags.collection } : {}) },
    { requireCohereKey: false },
  );
}

async function pagesFromIndex(config: EngineConfig) {
  const pages = await readBookPagesFromIndex(new QdrantIndex(qdrantTarget(config)));
  return { pages, modules: `modules in the index: ${countModules(pages.map((p) => p.moduleName))}` };
}

/** With --docs, the book's base URL (--base-url or DOCUSAURUS_BASE_URL). */
function baseUrlForDocs(flags: GenerateFlags, env: Env): string {
  const baseUrl = flags.baseUrl ?? env.DOCUSAURUS_BASE_URL;
  if (baseUrl === undefined || !URL.canParse(baseUrl))
    throw new InputError('suite generate', [
      `--base-url: required with --docs (or DOCUSAURUS_BASE_URL), an http(s) URL; got ${baseUrl === undefined ? 'nothing' : `"${baseUrl}"`}`,
    ]);
  return baseUrl;
}

async function pagesFromDocs(flags: GenerateFlags, baseUrl: string) {
  return readBookPagesFromDocs({
    docsDir: flags.docs ?? '',
    baseUrl,
    ...(flags.moduleRoot === undefined ? {} : { moduleRoot: flags.moduleRoot }),
    ...(flags.routeBasePath === undefined ? {} : { routeBasePath: flags.routeBasePath }),
  });
}
