/**
 * README's day-one walk, run as a user runs it: each step is ragwatch's own command in a child process (sandbox,
 * suite generate, calibrate --write, run; then a page edited, run, index, run), on a copy of the book under the
 * system's temporary folder. It measures the product as it is and assumes no feature it lacks: what cannot be
 * read from today's output is null ("n/a" or "not predicted" when printed). The figures: figures.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { QdrantClient } from '@qdrant/js-client-rest';

export const ROOT = path.join(import.meta.dirname, '..', '..');
const MAIN = path.join(ROOT, 'functions', 'cli', 'main.ts');

/** What the walk is given: a fixture book (with ground truth) or any docs folder. */
export interface WalkInput {
  name: string;
  docsDir: string;
  baseUrl: string;
  sitemapFile?: string;
  /** book.json of a fixture: the truth and the page to edit. */
  book?: BookJson;
}

export interface BookJson {
  name: string;
  held_out: boolean;
  modelled_on: { repository: string; commit: string; licence: string };
  site: {
    url: string;
    baseUrl: string;
    routeBasePath: string;
    trailingSlash: boolean | null;
    lastmod: 'date' | 'datetime' | null;
    showLastUpdateTime: boolean;
  };
  /** The site's sidebars file, as data. */
  sidebars?: Record<string, unknown>;
  edit: { file: string; append: string };
  truth: {
    base_url: string;
    modules: { label: string; pages: number }[];
    docs: { file: string; url: string; title: string; module: string | null; lastmod: string | null }[];
  };
}

interface StepResult {
  step: string;
  command: string;
  exit: number | null;
  /** The exit codes README documents for this step. */
  expected: number[];
  seconds: number;
  stdout: string;
  stderr: string;
}

interface PointRow {
  source_url: string;
  module_name: string | null;
  token_count: number;
}

export interface WalkRecord {
  input: WalkInput;
  steps: StepResult[];
  points: PointRow[];
  /** Reports of the runs, parsed: first night, after the edit (sandbox sitemap, rebuilt sitemap), after re-index. */
  reports: { first?: Report; edited?: Report; editedRebuilt?: Report; reindexed?: Report };
  calibrateOutput: string;
  editedFile: string | null;
  rebuiltSitemapChanged: boolean | null;
}

/** The parts of the ValidationReport the figures read. */
export interface Report {
  status: string;
  pass_rate: number;
  passed_queries: number;
  total_queries: number;
  query_results: { id: string; query_text: string; status: string; fail_reason: string | null }[];
  coverage_report: {
    coverage_percentage: number;
    total_sitemap_urls: number;
    missing_urls: string[];
    extra_urls: string[];
    matched_by: string;
  } | null;
  index_health?: { freshness: { pages_checked: number; stale_pages: number } | null } | null;
  errors: { error_type: string; message: string }[];
}

/** A docusaurus.config.js as a site writes one (preset options, sitemap plugin), from the fixture's `site`. */
function siteConfigOf(book: BookJson): string {
  const { site } = book;
  const trailing = site.trailingSlash === null ? '' : `\n  trailingSlash: ${site.trailingSlash},`;
  const lastmod = site.lastmod === null ? '' : `\n          lastmod: '${site.lastmod}',`;
  return `// @ts-check
import { themes as prismThemes } from 'prism-react-renderer';

/** @type {import('@docusaurus/types').Config} */
const config = {
  title: '${book.name}',
  url: '${site.url}',
  baseUrl: '${site.baseUrl}',${trailing}
  presets: [
    [
      'classic',
      {
        docs: {
          routeBasePath: '${site.routeBasePath}',
          sidebarPath: './sidebars.json',
          showLastUpdateTime: ${site.showLastUpdateTime},
        },
        blog: { routeBasePath: '/blog', showReadingTime: true },
        sitemap: {${lastmod}
          changefreq: 'weekly',
        },
      },
    ],
  ],
  themeConfig: { prism: { theme: prismThemes.github } },
};

export default config;
`;
}

/** Runs the whole walk; the sandbox is always stopped. */
export async function walkDayOne(input: WalkInput): Promise<WalkRecord> {
  const dir = mkdtempSync(path.join(tmpdir(), `ragwatch-day-one-${input.name}-`));
  const docs = path.join(dir, 'docs');
  cpSync(input.docsDir, docs, { recursive: true });
  // A site keeps its sidebars file beside its docs folder (site/sidebars.js, site/docs/): the fixture's, written there.
  if (input.book?.sidebars !== undefined)
    writeFileSync(path.join(dir, 'sidebars.json'), `${JSON.stringify(input.book.sidebars, null, 2)}\n`);
  // And its docusaurus.config.js: where the indexer reads the docs' route base path and trailing slash from.
  if (input.book?.site !== undefined) writeFileSync(path.join(dir, 'docusaurus.config.js'), siteConfigOf(input.book));
  const sitemap = input.sitemapFile === undefined ? undefined : path.join(dir, 'sitemap.xml');
  if (sitemap !== undefined && input.sitemapFile !== undefined) cpSync(input.sitemapFile, sitemap);
  const record: WalkRecord = {
    input,
    steps: [],
    points: [],
    reports: {},
    calibrateOutput: '',
    editedFile: null,
    rebuiltSitemapChanged: null,
  };
  const envFile = path.join(dir, 'sandbox.env');
  const sandboxArgs = ['sandbox', '--docs', docs, '--base-url', input.baseUrl, '--write-env', envFile];
  const sandbox = await startSandbox([...sandboxArgs, ...(sitemap ? ['--sitemap', sitemap] : [])], dir);
  record.steps.push(sandbox.step);
  if (sandbox.env === null) return record;
  const env = { ...process.env, ...sandbox.env, NO_COLOR: '1' };
  try {
    const step = async (name: string, args: string[], expected: number[]) => {
      const result = await runCli(name, args, env, dir, expected);
      record.steps.push(result);
      return result;
    };
    const suite = path.join(dir, 'my-suite.json');
    const reports = path.join(dir, 'reports');
    const latest = () => readReport(path.join(reports, sandbox.env?.QDRANT_COLLECTION ?? 'book', 'latest.json'));
    record.points = await readPoints(sandbox.env);
    if ((await step('suite generate', ['suite', 'generate', '--out', suite], [0])).exit !== 0) return record;
    const calibrate = await step('calibrate --write', ['calibrate', '--suite', suite, '--write'], [0]);
    record.calibrateOutput = calibrate.stdout;
    if (calibrate.exit !== 0) return record;
    const runArgs = ['run', '--suite', suite, '--out', reports, '--no-progress'];
    await step('run (first night)', runArgs, [0, 1]);
    record.reports.first = latest();

    // Edit one page, as its author would, and rebuild the sitemap as the site's build would publish it.
    const edited = input.book?.edit ?? {
      file: firstDoc(docs),
      append: '\n## Added Section\n\nA paragraph added after the index was built.\n',
    };
    writeFileSync(
      path.join(docs, edited.file),
      `${readFileSync(path.join(docs, edited.file), 'utf8')}${edited.append}`,
    );
    record.editedFile = edited.file;
    const editedUrl = input.book?.truth.docs.find((d) => d.file === edited.file)?.url;
    if (sitemap !== undefined && editedUrl !== undefined) {
      const before = readFileSync(sitemap, 'utf8');
      const after = bumpLastmod(before, editedUrl, new Date());
      writeFileSync(sitemap, after);
      record.rebuiltSitemapChanged = after !== before;
    }
    await step('run (after the edit)', runArgs, [0, 1]);
    record.reports.edited = latest();
    if (sitemap !== undefined) {
      // The same night with the rebuilt sitemap fetched from a server of its own (`run --sitemap-url`), as a
      // deployed site would serve it: tells the freshness check apart from what the sandbox serves.
      const served = await serveFile(sitemap);
      try {
        await step('run (after the edit, rebuilt sitemap)', [...runArgs, '--sitemap-url', served.url], [0, 1]);
        record.reports.editedRebuilt = latest();
      } finally {
        await served.stop();
      }
    }
    await step('index (re-index)', ['index', '--docs', docs, '--base-url', input.baseUrl], [0]);
    await step('run (after re-index)', runArgs, [0, 1]);
    record.reports.reindexed = latest();
    return record;
  } finally {
    record.steps.push(await stopSandbox(sandbox.child));
  }
}

/** Without a fixture's choice, the first page in file order is the one edited. */
function firstDoc(docs: string): string {
  const files = readdirSync(docs, { recursive: true })
    .map(String)
    .filter((f) => /\.mdx?$/.test(f))
    .sort();
  return files[0] ?? '';
}

/** The sitemap after a rebuild: the edited page's <lastmod> moved to `when`, in the form it already had. */
function bumpLastmod(xml: string, url: string, when: Date): string {
  const escaped = url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return xml.replace(new RegExp(`(<loc>${escaped}</loc>\\s*<lastmod>)([^<]+)(</lastmod>)`), (_m, a, old: string, c) => {
    const value = /^\d{4}-\d{2}-\d{2}$/.test(old) ? when.toISOString().slice(0, 10) : when.toISOString();
    return `${a}${value}${c}`;
  });
}

function readReport(file: string): Report | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Report) : undefined;
}

async function readPoints(env: Record<string, string>): Promise<PointRow[]> {
  const client = new QdrantClient({ url: env.QDRANT_URL ?? '', checkCompatibility: false });
  const rows: PointRow[] = [];
  let offset: string | number | undefined | null;
  do {
    const page = await client.scroll(env.QDRANT_COLLECTION ?? 'book', {
      limit: 256,
      with_payload: ['source_url', 'module_name', 'token_count'],
      with_vector: false,
      ...(offset === undefined || offset === null ? {} : { offset }),
    });
    for (const p of page.points) {
      const payload = (p.payload ?? {}) as Record<string, unknown>;
      rows.push({
        source_url: String(payload.source_url ?? ''),
        // '' is how the payload says "in no module" (module_name is a required string in seed 001).
        module_name: typeof payload.module_name === 'string' && payload.module_name !== '' ? payload.module_name : null,
        token_count: Number(payload.token_count ?? 0),
      });
    }
    offset = page.next_page_offset as string | number | null | undefined;
  } while (offset !== null && offset !== undefined);
  return rows;
}

function runCli(
  step: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  expected: number[],
): Promise<StepResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, '--', ...args], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += String(d);
    });
    child.stderr.on('data', (d) => {
      stderr += String(d);
    });
    child.on('close', (code) =>
      resolve({
        step,
        command: `ragwatch ${args.join(' ')}`,
        exit: code,
        expected,
        seconds: secs(started),
        stdout,
        stderr,
      }),
    );
  });
}

async function startSandbox(
  args: string[],
  cwd: string,
): Promise<{ child: ChildProcess; env: Record<string, string> | null; step: StepResult }> {
  const started = performance.now();
  const child = spawn(process.execPath, [MAIN, '--', ...args], { cwd });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  const env = await new Promise<Record<string, string> | null>((resolve) => {
    child.stdout?.on('data', (d) => {
      stdout += String(d);
      if (stdout.includes('SITEMAP_URL=')) resolve(parseEnv(stdout));
    });
    child.on('exit', () => resolve(null));
  });
  const step: StepResult = {
    step: 'sandbox',
    command: `ragwatch ${args.join(' ')}`,
    exit: env === null ? child.exitCode : null, // still serving: no exit code yet
    expected: [],
    seconds: secs(started),
    stdout,
    stderr,
  };
  return { child, env, step };
}

async function stopSandbox(child: ChildProcess): Promise<StepResult> {
  const started = performance.now();
  const exit = await new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
  return {
    step: 'sandbox stop (SIGTERM)',
    command: 'kill -TERM',
    exit,
    expected: [0],
    seconds: secs(started),
    stdout: '',
    stderr: '',
  };
}

function parseEnv(text: string): Record<string, string> {
  const lines = text.split('\n').filter((l) => /^[A-Z_]+=/.test(l));
  return Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

async function serveFile(file: string): Promise<{ url: string; stop(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sitemap.xml`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function secs(started: number): number {
  return Math.round((performance.now() - started) / 100) / 10;
}
