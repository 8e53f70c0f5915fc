/**
 * What a Docusaurus site's config says about its docs' URLs: `url`, `baseUrl`, `trailingSlash` and the docs plugin's
 * `routeBasePath` (issue 23: a book served from the site's root, `routeBasePath: '/'`, was indexed under `/docs/`).
 * The config is read as text, not imported: a real `docusaurus.config.ts` imports Docusaurus's own packages (themes,
 * prism, plugins) that ragwatch does not have. A value written as an expression (a variable, an env lookup) is not
 * read; `--route-base-path` then says it.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** The site's settings that shape a doc's URL; undefined where the config does not say (or says it as code). */
export interface SiteConfig {
  /** The config file read. */
  file: string;
  url?: string;
  baseUrl?: string;
  trailingSlash?: boolean;
  /** The docs plugin's routeBasePath (the docs preset's, or the plugin-content-docs instance serving this folder). */
  routeBasePath?: string;
}

const CONFIG_FILES = ['docusaurus.config.ts', 'docusaurus.config.js', 'docusaurus.config.mjs', 'docusaurus.config.cjs'];

/** The config file in `siteDir`, when there is one. */
export function siteConfigFileIn(siteDir: string): string | undefined {
  return CONFIG_FILES.map((f) => join(siteDir, f)).find((f) => existsSync(f));
}

/** The config beside the docs folder (its parent, where Docusaurus keeps it), or null when there is none. */
export async function readSiteConfig(docsDir: string): Promise<SiteConfig | null> {
  const file = siteConfigFileIn(dirname(resolve(docsDir)));
  if (file === undefined) return null;
  return { file, ...parseSiteConfig(await readFile(file, 'utf8'), basename(resolve(docsDir))) };
}

/** The settings written as literals in a config's text; `docsFolder` picks the docs plugin instance (default `docs`). */
export function parseSiteConfig(text: string, docsFolder: string): Omit<SiteConfig, 'file'> {
  const code = withoutComments(text);
  const url = literal(code, 'url');
  const baseUrl = literal(code, 'baseUrl');
  const trailing = code.match(/\btrailingSlash\s*:\s*(true|false)\b/)?.[1];
  const routeBasePath = docsRouteBasePath(code, docsFolder);
  return {
    ...(url === undefined ? {} : { url }),
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(trailing === undefined ? {} : { trailingSlash: trailing === 'true' }),
    ...(routeBasePath === undefined ? {} : { routeBasePath }),
  };
}

/**
 * The routeBasePath of the docs plugin serving `docsFolder`: one written in an object that is the preset's `docs:`
 * options or a `plugin-content-docs` instance's, whose `path` (default `docs`) names that folder. The blog's and
 * pages' routeBasePath are other objects and are not taken.
 */
function docsRouteBasePath(code: string, docsFolder: string): string | undefined {
  for (const match of code.matchAll(/\brouteBasePath\s*:\s*(['"`])(.*?)\1/g)) {
    const open = enclosingBrace(code, match.index);
    if (open < 0) continue;
    const before = code.slice(Math.max(0, open - 80), open);
    const isDocs = /\bdocs\s*:\s*$/.test(before) || /plugin-content-docs['"`]\s*,\s*$/.test(before);
    if (!isDocs) continue;
    // From its `{` on: ownLiteral takes only what is written directly in it, so what follows its `}` never counts.
    const block = code.slice(open);
    // The block's own path, not one of an object inside it (`versions: { current: { path: 'next' } }`).
    const path = ownLiteral(block, 'path') ?? 'docs';
    if (
      path
        .replace(/^\.\/|\/+$/g, '')
        .split('/')
        .at(-1) === docsFolder
    )
      return match[2];
  }
  return undefined;
}

/** A top-most `key: '<literal>'` in the text (the first written). */
function literal(code: string, key: string): string | undefined {
  return code.match(new RegExp(`(?<![\\w.])${key}\\s*:\\s*(['"\`])(.*?)\\1`))?.[2];
}

/** `key: '<literal>'` written directly in the object `block` (which starts with its `{`), not in one nested in it. */
function ownLiteral(block: string, key: string): string | undefined {
  for (const match of block.matchAll(new RegExp(`(?<![\\w.])${key}\\s*:\\s*(['"\`])(.*?)\\1`, 'g'))) {
    if (enclosingBrace(block, match.index) === 0) return match[2];
  }
  return undefined;
}

/** The `{` that opens the object holding position `at`, or -1. */
function enclosingBrace(code: string, at: number): number {
  let depth = 0;
  for (let i = at - 1; i >= 0; i--) {
    if (code[i] === '}') depth++;
    else if (code[i] === '{') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/**
 * Block and line comments removed, so a commented-out `routeBasePath: '/'` is not read. Strings are read over, not
 * into: `://` in a URL and `//` or `/*` inside a quoted value are text, not comments.
 */
function withoutComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && !(c !== '`' && text[j] === '\n')) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (text.startsWith('//', i)) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}
