/**
 * README's day-one walk, run as a user runs it: each step is ragwatch's own command in a child process (sandbox,
 * suite generate, calibrate --write, run; then a page edited, run, index, run), on a copy of the book under the
 * system's temporary folder. It measures the product as it is and assumes no feature it lacks: what cannot be
 * read from today's output is null ("n/a" or "not predicted" when printed). The figures: figures.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
  /**
   * The sitemap republished after the edit as the sitemap plugin's `lastmod` option writes it ('date': YYYY-MM-DD,
   * 'datetime': ISO), every doc page dated by its last update, when the book as shipped has none (Docusaurus's
   * default). Default: the republished sitemap keeps the form the book ships.
   */
  lastmodForm?: 'date' | 'datetime';
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
  /** Each doc's last update (as git would give it): files by path inside docs/, else the default. */
  last_updated?: { default: string; files?: Record<string, string> };
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
  reports: {
    first?: Report;
    edited?: Report;
    editedRebuilt?: Report;
    reindexed?: Report;
    reindexedRebuilt?: Report;
  };
  /** The first night's terminal summary and HTML report (what they say of freshness). */
  firstSummary: string;
  firstHtml: string | null;
  /** The URL of the edited page, as the book publishes it (null without a ground truth). */
  editedUrl: string | null;
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
  index_health?: {
    freshness: { pages_checked: number; stale_pages: number; urls?: string[]; note?: string } | null;
  } | null;
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
  // Each page dated as the site's build dated it (its last commit; book.json last_updated): the indexer reads the
  // same time (front matter, git, else the file's time) to compare with a date-only <lastmod>. A copy would be today.
  if (input.book?.last_updated !== undefined) datePages(docs, input.book.last_updated);
  const sitemap = input.sitemapFile === undefined ? undefined : path.join(dir, 'sitemap.xml');
  if (sitemap !== undefined && input.sitemapFile !== undefined) cpSync(input.sitemapFile, sitemap);
  // The sitemap the site publishes after the edit: the same file rebuilt, beside the one the sandbox serves.
  const rebuilt = sitemap === undefined ? undefined : path.join(dir, 'sitemap-rebuilt.xml');
  const record: WalkRecord = {
    input,
    steps: [],
    points: [],
    reports: {},
    calibrateOutput: '',
    editedFile: null,
    rebuiltSitemapChanged: null,
    firstSummary: '',
    firstHtml: null,
    editedUrl: null,
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
    const firstRun = await step('run (first night)', runArgs, [0, 1]);
    record.reports.first = latest();
    record.firstSummary = firstRun.stdout;
    record.firstHtml = htmlOf(firstRun.stdout);

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
    record.editedUrl = editedUrl ?? null;
    if (sitemap !== undefined && rebuilt !== undefined && editedUrl !== undefined) {
      const before = readFileSync(sitemap, 'utf8');
      const shipped =
        input.lastmodForm === undefined || input.book === undefined
          ? before
          : withLastmod(before, input.book, input.lastmodForm);
      const after = bumpLastmod(shipped, editedUrl, new Date());
      writeFileSync(rebuilt, after);
      // The sandbox serves the --sitemap file as it is now: the rebuilt one, unless it adds a lastmod the book
      // does not ship (then the sandbox keeps serving the sitemap as shipped, and the rebuilt one is served apart).
      if (input.lastmodForm === undefined) writeFileSync(sitemap, after);
      record.rebuiltSitemapChanged = after !== before;
    }
    await step('run (after the edit)', runArgs, [0, 1]);
    record.reports.edited = latest();
    // The same night with the rebuilt sitemap fetched from a server of its own (`run --sitemap-url`), as a deployed
    // site would serve it: tells the freshness check apart from what the sandbox serves.
    const withRebuilt = async (name: string) => {
      if (rebuilt === undefined || !existsSync(rebuilt)) return undefined;
      const served = await serveFile(rebuilt);
      try {
        await step(name, [...runArgs, '--sitemap-url', served.url], [0, 1]);
        return latest();
      } finally {
        await served.stop();
      }
    };
    record.reports.editedRebuilt = await withRebuilt('run (after the edit, rebuilt sitemap)');
    await step('index (re-index)', ['index', '--docs', docs, '--base-url', input.baseUrl], [0]);
    await step('run (after re-index)', runArgs, [0, 1]);
    record.reports.reindexed = latest();
    // The re-index the same day as the edit must clear it against the rebuilt sitemap too (a date-only <lastmod>).
    record.reports.reindexedRebuilt = await withRebuilt('run (after re-index, rebuilt sitemap)');
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

/** Sets each doc file's time to its last update in book.json (files by path inside docs/, else the default). */
function datePages(docs: string, updated: NonNullable<BookJson['last_updated']>): void {
  for (const file of readdirSync(docs, { recursive: true }).map(String)) {
    if (!/\.mdx?$/.test(file)) continue;
    const when = new Date(updated.files?.[file.split(path.sep).join('/')] ?? updated.default);
    utimesSync(path.join(docs, file), when, when);
  }
}

/**
 * The sitemap as the book would publish it with the sitemap plugin's `lastmod` option: each doc page's <lastmod>,
 * its last update in that form ('date': the UTC day, as Docusaurus formats it), after its <loc>. Pages that are not
 * docs (home, markdown pages) get none, as they have no last update time.
 */
function withLastmod(xml: string, book: BookJson, form: 'date' | 'datetime'): string {
  let out = xml;
  for (const doc of book.truth.docs) {
    const at = new Date(book.last_updated?.files?.[doc.file] ?? book.last_updated?.default ?? Number.NaN);
    if (Number.isNaN(at.getTime())) continue;
    const value = form === 'date' ? at.toISOString().slice(0, 10) : at.toISOString();
    const loc = `<loc>${doc.url}</loc>`;
    if (out.includes(`${loc}<lastmod>`)) continue;
    out = out.replace(loc, `${loc}<lastmod>${value}</lastmod>`);
  }
  return out;
}

/** The HTML report the run's summary links to (file://...html), read; null when there is none. */
function htmlOf(summary: string): string | null {
  const link = /file:\/\/\S+\.html/.exec(summary)?.[0];
  if (link === undefined) return null;
  const file = fileURLToPath(link);
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
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
