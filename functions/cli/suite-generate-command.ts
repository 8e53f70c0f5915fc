/**
 * `ragwatch suite generate`: a known-item suite from the index named by the environment (or from a docs folder),
 * checked by the same validation as any suite before it is written.
 */
import { writeFile } from 'node:fs/promises';
import { stringify as toYaml } from 'yaml';
import { QdrantIndex } from '../adapters/qdrant/vector-index.ts';
import { parseEngineConfig } from '../core/config.ts';
import { InputError } from '../core/shared/errors.ts';
import { readBookPagesFromIndex } from '../core/suite/book-pages.ts';
import { generateSuite } from '../core/suite/generate-suite.ts';
import { parseSuite } from '../core/suite/suite.ts';
import { readBookPagesFromDocs } from '../indexer/book-pages.ts';

export interface GenerateFlags {
  out: string;
  perPage: number;
  probes: number;
  docs?: string;
  baseUrl?: string;
  collection?: string;
}

/** Generates, validates and writes the suite; returns the exit code. */
export async function runSuiteGenerate(
  flags: GenerateFlags,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const problems: string[] = [];
  if (!Number.isInteger(flags.perPage) || flags.perPage < 1 || flags.perPage > 20)
    problems.push(`--per-page: must be a whole number from 1 to 20, got ${flags.perPage}`);
  if (!Number.isInteger(flags.probes) || flags.probes < 0 || flags.probes > 5)
    problems.push(`--probes: must be a whole number from 0 to 5, got ${flags.probes}`);
  if (problems.length > 0) throw new InputError('suite generate', problems);

  const pages = flags.docs === undefined ? await pagesFromIndex(flags, env) : await pagesFromDocs(flags, env);
  if (pages.length === 0) throw new InputError('suite generate', ['the book has no page to ask about']);
  const suite = generateSuite(pages, { perPage: flags.perPage, probes: flags.probes });
  const text = /\.ya?ml$/i.test(flags.out) ? toYaml(suite) : `${JSON.stringify(suite, null, 2)}\n`;
  const parsed = parseSuite(text, flags.out); // the file written is one `run` accepts
  await writeFile(flags.out, text);
  const known = parsed.queries.filter((q) => q.expect_match).length;
  process.stdout.write(
    `Wrote ${flags.out}: ${known} known-item questions from ${pages.length} pages and ${parsed.queries.length - known} out-of-domain probes.\nNext: ragwatch calibrate --suite ${flags.out} --write\n`,
  );
  return 0;
}

async function pagesFromIndex(flags: GenerateFlags, env: Record<string, string | undefined>) {
  const config = parseEngineConfig(
    { ...env, ...(flags.collection ? { QDRANT_COLLECTION: flags.collection } : {}) },
    { requireCohereKey: false },
  );
  const index = new QdrantIndex({
    url: config.qdrantUrl,
    collection: config.collection,
    timeoutMs: config.qdrantTimeoutMs,
    ...(config.secrets.qdrantApiKey ? { apiKey: config.secrets.qdrantApiKey } : {}),
  });
  return readBookPagesFromIndex(index);
}

async function pagesFromDocs(flags: GenerateFlags, env: Record<string, string | undefined>) {
  const baseUrl = flags.baseUrl ?? env.DOCUSAURUS_BASE_URL;
  if (baseUrl === undefined || !URL.canParse(baseUrl))
    throw new InputError('suite generate', [
      `--base-url: required with --docs (or DOCUSAURUS_BASE_URL), an http(s) URL; got ${baseUrl === undefined ? 'nothing' : `"${baseUrl}"`}`,
    ]);
  return readBookPagesFromDocs({ docsDir: flags.docs ?? '', baseUrl });
}
