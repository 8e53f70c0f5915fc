/**
 * Reads a Docusaurus docs folder into pages with the metadata the payload needs, deriving each page's URL the way
 * Docusaurus does: route base path, folder path (number prefixes such as `01-` removed), then the frontmatter `slug`,
 * else the frontmatter `id`, else the file name; an `index.md`, `README.md` or a file named like its folder is the
 * folder's own page. Drafts (`draft: true`) and files or folders starting with `_` or `.` are skipped, as Docusaurus
 * does in a production build.
 */
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { type BookModules, deriveModules, type ModulePage } from '../core/book/book-modules.ts';
import { moduleNameOf } from '../core/book/module-name.ts';
import { InputError } from '../core/shared/errors.ts';
import { gitCommitTimes, lastUpdateOf } from './last-update.ts';
import { readSiteConfig, type SiteConfig, siteConfigFileIn } from './site-config.ts';

/** One published page of the book, ready to chunk. */
export interface DocPage {
  /** Path inside the docs folder, with `/` separators, e.g. `module-1-ros2/ch1-ros2-basics.md`. */
  file: string;
  title: string;
  sourceUrl: string;
  /** Folder path and id, e.g. `module-1-ros2/ch1-ros2-basics`; just the id for a top-level page. */
  chapterId: string;
  /** The top-level sidebar category holding the page, '' for none: functions/core/book/book-modules.ts. */
  moduleName: string;
  /** The markdown without its frontmatter. */
  body: string;
  /**
   * When the page was last updated, as Docusaurus dates its sitemap `<lastmod>` (last-update.ts): front matter
   * `last_update.date`, else its last git commit, else its file time. Undefined when none can be read.
   */
  updatedAt?: string | undefined;
}

/** Where the docs are and where the site publishes them. */
export interface ReadDocsOptions {
  docsDir: string;
  /** The site's base URL, e.g. https://book.example.com (a trailing slash is ignored). */
  baseUrl: string;
  /**
   * Docusaurus's `routeBasePath` for the docs plugin, overriding the site config's (`--route-base-path`). Default:
   * the docusaurus.config.* beside the docs folder, else `docs`.
   */
  routeBasePath?: string;
  /** Docusaurus's `trailingSlash`, overriding the site config's; default the config's, else none added. */
  trailingSlash?: boolean;
  /**
   * The folder inside the docs folder whose sub-folders are the modules (the override for unusual layouts); when
   * given, the sidebars file is not read. Default: the sidebars file, else the detected content root.
   */
  moduleRoot?: string;
  /** The site's sidebars file; default `sidebars.{json,js,cjs,mjs,ts}` beside the docs folder, when there is one. */
  sidebarsFile?: string;
}

/** The pages and the modules they were given. */
export interface Book {
  pages: DocPage[];
  modules: BookModules;
  /** Where the docs are served and why: the route base path, trailing slash, and the config they came from. */
  routes: Routes;
}

/** How the pages' URLs were formed (what index, sandbox and suite generate print). */
export interface Routes {
  routeBasePath: string;
  trailingSlash: boolean;
  /** The site config read, or null when there is none beside the docs folder. */
  configFile: string | null;
  /** The site's own public URL (config `url` + `baseUrl`) when it differs from the base URL given; else null. */
  configBaseUrl: string | null;
}

const SIDEBARS_FILES = ['sidebars.json', 'sidebars.js', 'sidebars.cjs', 'sidebars.mjs', 'sidebars.ts'];
const CATEGORY_FILE = /(^|\/)_category_\.(json|ya?ml)$/;

const MARKDOWN = /\.mdx?$/i;
const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Reads every published page under `docsDir`, sorted by file path; throws one InputError listing every bad page. */
export async function readDocs(options: ReadDocsOptions): Promise<DocPage[]> {
  return (await readBook(options)).pages;
}

/** readDocs, with the modules derived from the book's structure (what index, sandbox and suite generate print). */
export async function readBook(given: ReadDocsOptions): Promise<Book> {
  refuseSiteRoot(given.docsDir);
  const entries = await listEntries(given.docsDir);
  const files = entries.filter(isPublished);
  const routes = routesOf(given, await readSiteConfig(given.docsDir));
  const options = { ...given, routeBasePath: routes.routeBasePath, trailingSlash: routes.trailingSlash };
  const problems: string[] = [];
  const read: { page: DocPage; modulePage: ModulePage }[] = [];
  const commits = await gitCommitTimes(options.docsDir);
  for (const file of files) {
    const text = await readFile(join(options.docsDir, ...file.split('/')), 'utf8');
    const page = toPage(file, text, options, problems);
    if (page === undefined) continue;
    page.page.updatedAt = await lastUpdateOf(options.docsDir, file, page.frontmatter, commits);
    read.push(page);
  }
  const categoryLabels = await readCategoryLabels(options.docsDir, entries, problems);
  const root = options.moduleRoot;
  const sidebars = root === undefined ? await readSidebars(options, problems) : null;
  if (root !== undefined && !files.some((f) => f.startsWith(`${trimSlashes(root)}/`)))
    problems.push(`module root ${root}: no folder of that name holds pages under ${options.docsDir}`);
  const modules = deriveModules(
    read.map((r) => r.modulePage),
    { categoryLabels, sidebars, root: options.moduleRoot ?? null },
  );
  const pages = read.map(({ page }) => ({ ...page, moduleName: modules.moduleOf.get(page.file) ?? '' }));
  const byUrl = new Map<string, string>();
  for (const page of pages) {
    const other = byUrl.get(page.sourceUrl);
    if (other !== undefined) problems.push(`${page.file}: has the same URL as ${other} (${page.sourceUrl})`);
    byUrl.set(page.sourceUrl, page.file);
  }
  if (problems.length > 0) throw new InputError(`docs folder ${options.docsDir}`, problems);
  return { pages, modules, routes };
}

/**
 * Refuses the site's root given as the docs folder (issue 23: it indexed `/docs/docs/...` URLs with exit 0 and the
 * next run found coverage 0 %): a folder holding a docusaurus.config.*, or a `docs/` folder beside a site's
 * package.json, sidebars file or src/ folder, is a site, and the error names the docs folder inside it.
 */
function refuseSiteRoot(docsDir: string): void {
  const config = siteConfigFileIn(docsDir);
  const inner = join(docsDir, 'docs');
  const hasInner = existsSync(inner) && statSync(inner).isDirectory();
  const siteMarker = ['package.json', 'src', ...SIDEBARS_FILES].find((f) => existsSync(join(docsDir, f)));
  if (config === undefined && !(hasInner && siteMarker !== undefined)) return;
  const why = config === undefined ? `a docs/ folder beside ${siteMarker}` : basename(config);
  const use = hasInner ? `--docs ${inner}` : "--docs <the folder the docs plugin's path names>";
  throw new InputError(`docs folder ${docsDir}`, [
    `${docsDir}: is the site's root (it holds ${why}), not its docs folder: give ${use}`,
  ]);
}

/** The flags first, then the site config, then Docusaurus's defaults (`docs`, no trailing slash added). */
function routesOf(options: ReadDocsOptions, site: SiteConfig | null): Routes {
  const siteUrl =
    site?.url === undefined ? null : `${site.url.replace(/\/+$/, '')}/${(site.baseUrl ?? '/').replace(/^\/+/, '')}`;
  const differs = siteUrl !== null && sameSiteUrl(siteUrl, options.baseUrl) === false;
  return {
    routeBasePath: options.routeBasePath ?? site?.routeBasePath ?? 'docs',
    trailingSlash: options.trailingSlash ?? site?.trailingSlash ?? false,
    configFile: site?.file ?? null,
    configBaseUrl: differs ? siteUrl : null,
  };
}

function sameSiteUrl(a: string, b: string): boolean {
  const key = (url: string) => url.replace(/^(https?:\/\/[^/]+)/i, (host) => host.toLowerCase()).replace(/\/+$/, '');
  return key(a) === key(b);
}

/** The docs' path on the site: the base URL's path and the route base path, e.g. `/repo/docs/`, or `/` at the root. */
export function docsPathPrefix(baseUrl: string, routeBasePath: string): string {
  const base = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const route = routeBasePath.replace(/^\/+|\/+$/g, '');
  return `${base}/${route === '' ? '' : `${route}/`}`;
}

/** One line saying where the docs' URLs come from, e.g. "Docs served at <base>/ (routeBasePath '/' from ...)". */
export function describeRoutes(routes: Routes, baseUrl: string): string {
  const route = routes.routeBasePath.replace(/^\/+|\/+$/g, '');
  const at = `${baseUrl.replace(/\/+$/, '')}/${route === '' ? '' : `${route}/`}`;
  const from = routes.configFile === null ? 'no docusaurus.config.* beside --docs' : `from ${routes.configFile}`;
  const lines = [
    `Docs served at ${at} (routeBasePath '${routes.routeBasePath}'${routes.trailingSlash ? ', trailing slash' : ''}; ${from}; --route-base-path overrides)`,
  ];
  if (routes.configBaseUrl !== null)
    lines.push(`Note: the site config publishes the book at ${routes.configBaseUrl}, not at --base-url ${baseUrl}`);
  return lines.join('\n');
}

/** `_category_.json` / `.yml` labels by folder; a category file without a string label maps to null. */
async function readCategoryLabels(
  docsDir: string,
  entries: string[],
  problems: string[],
): Promise<Map<string, string | null>> {
  const labels = new Map<string, string | null>();
  for (const entry of entries.filter((e) => CATEGORY_FILE.test(e))) {
    const folder = entry.includes('/') ? entry.slice(0, entry.lastIndexOf('/')) : '';
    try {
      const data: unknown = parseYaml(await readFile(join(docsDir, ...entry.split('/')), 'utf8'));
      const label = (data as { label?: unknown } | null)?.label;
      labels.set(folder, typeof label === 'string' && label.trim() !== '' ? label.trim() : null);
    } catch (error) {
      problems.push(`${entry}: not valid JSON or YAML (${firstLine(error)})`);
    }
  }
  return labels;
}

/** The sidebars file's default export, or null when there is none; a file that cannot be loaded is a problem. */
async function readSidebars(options: ReadDocsOptions, problems: string[]): Promise<unknown> {
  const site = dirname(resolve(options.docsDir));
  const file = options.sidebarsFile ?? SIDEBARS_FILES.map((f) => join(site, f)).find((f) => existsSync(f));
  if (file === undefined) return null;
  try {
    if (file.endsWith('.json')) return JSON.parse(await readFile(file, 'utf8')) as unknown;
    const loaded = (await import(pathToFileURL(resolve(file)).href)) as { default?: unknown };
    return loaded.default ?? loaded;
  } catch (error) {
    problems.push(
      `sidebars file ${file}: cannot be read (${firstLine(error)}); give --module-root <folder> to take the modules from the folders instead`,
    );
    return null;
  }
}

function trimSlashes(path: string): string {
  return path.replace(/^\.?\/+|\/+$/g, '');
}

/** Separates YAML frontmatter from the markdown body; a page without frontmatter has an empty record. */
export function splitFrontmatter(text: string): { data: Record<string, unknown>; body: string } {
  const match = text.match(FRONTMATTER);
  if (match === null) return { data: {}, body: text };
  const parsed: unknown = parseYaml(match[1] ?? '');
  if (parsed !== null && parsed !== undefined && (typeof parsed !== 'object' || Array.isArray(parsed))) {
    throw new Error('frontmatter must be a YAML mapping');
  }
  return { data: (parsed ?? {}) as Record<string, unknown>, body: text.slice(match[0].length) };
}

/** The module_name of a folder or top-level page id: `module1-ros2` becomes "Module 1 Ros2" (one rule, in core). */
export const toModuleName = moduleNameOf;

/** Removes a Docusaurus number prefix (`01-intro` becomes `intro`), leaving dates and versions such as `2024-01` alone. */
export function stripNumberPrefix(name: string): string {
  if (/^\d+[-_.]\d+/.test(name)) return name;
  return name.replace(/^\d+\s*[-_.]+\s*(?=[^-_.\s])/, '');
}

function toPage(
  file: string,
  text: string,
  options: ReadDocsOptions,
  problems: string[],
): { page: DocPage; modulePage: ModulePage; frontmatter: Record<string, unknown> } | undefined {
  let frontmatter: { data: Record<string, unknown>; body: string };
  try {
    frontmatter = splitFrontmatter(text);
  } catch (error) {
    problems.push(`${file}: frontmatter is not valid YAML (${firstLine(error)})`);
    return undefined;
  }
  const { data, body } = frontmatter;
  const before = problems.length;
  const id = optionalString(data, 'id', file, problems);
  const slug = optionalString(data, 'slug', file, problems);
  const frontTitle = optionalString(data, 'title', file, problems);
  if (data.draft !== undefined && typeof data.draft !== 'boolean') {
    problems.push(`${file}: frontmatter draft must be true or false`);
  }
  if (data.draft === true || problems.length > before) return undefined;

  const segments = file.split('/');
  const fileName = (segments.pop() ?? file).replace(MARKDOWN, '');
  const folders = segments.map(stripNumberPrefix);
  const pageId = id ?? stripNumberPrefix(fileName);
  const title = frontTitle ?? firstHeading(body) ?? pageId;
  const chapterId = [...folders, pageId].join('/');
  const sidebarLabel = optionalString(data, 'sidebar_label', file, problems);
  return {
    page: {
      file,
      title,
      sourceUrl: buildUrl(options, folders, fileName, pageId, slug),
      chapterId,
      moduleName: '',
      body,
    },
    modulePage: { file, docId: chapterId, label: sidebarLabel ?? title, folderIndex: isFolderIndex(fileName, folders) },
    frontmatter: data,
  };
}

function buildUrl(
  options: ReadDocsOptions,
  folders: string[],
  fileName: string,
  id: string,
  slug: string | undefined,
): string {
  // The host in lower case, as the site's sitemap writes it (a config's `QuillWorks.github.io` is published lower).
  const base = options.baseUrl.replace(/^(https?:\/\/[^/]+)/i, (origin) => origin.toLowerCase()).replace(/\/+$/, '');
  const route = (options.routeBasePath ?? 'docs').replace(/^\/+|\/+$/g, '');
  const folderPath = folders.join('/');
  let path: string;
  if (slug !== undefined) path = slug.startsWith('/') ? slug : joinPath(folderPath, slug);
  else if (isFolderIndex(fileName, folders)) path = folderPath;
  else path = joinPath(folderPath, id);
  const full = `/${joinPath(route, path.replace(/^\/+|\/+$/g, ''))}`;
  // Docusaurus's trailingSlash: true ends every page's URL with '/'; the site's root keeps its single '/'.
  const slashed = options.trailingSlash === true && full !== '/' ? `${full}/` : full;
  return `${base}${encodeURI(slashed)}`;
}

// Docusaurus turns index.md, README.md and a file named after its folder into the folder's own page.
function isFolderIndex(fileName: string, folders: string[]): boolean {
  const name = stripNumberPrefix(fileName).toLowerCase();
  return name === 'index' || name === 'readme' || (folders.length > 0 && name === folders.at(-1)?.toLowerCase());
}

function joinPath(...parts: string[]): string {
  return parts.filter((part) => part !== '').join('/');
}

function isPublished(file: string): boolean {
  return MARKDOWN.test(file) && !file.split('/').some((part) => part.startsWith('_') || part.startsWith('.'));
}

/** Every file under the docs folder, `/`-separated, sorted. */
async function listEntries(docsDir: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(docsDir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new InputError(`docs folder ${docsDir}`, [`${docsDir}: cannot be read as a folder (${code})`]);
  }
  return entries.map((entry) => entry.split(sep).join('/')).sort();
}

/** A frontmatter string (a number is taken as its text); anything else is a problem for the page. */
function optionalString(
  data: Record<string, unknown>,
  key: string,
  file: string,
  problems: string[],
): string | undefined {
  const value = data[key];
  if (value === undefined) return undefined;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  problems.push(`${file}: frontmatter ${key} must be a non-empty string`);
  return undefined;
}

function firstHeading(body: string): string | undefined {
  return body.match(/^\s{0,3}#\s+(.+?)\s*#*\s*$/m)?.[1];
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
