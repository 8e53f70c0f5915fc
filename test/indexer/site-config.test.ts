import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeRoutes, docsPathPrefix, readBook } from '../../functions/indexer/read-docs.ts';
import { parseSiteConfig } from '../../functions/indexer/site-config.ts';

const PRESET = `// @ts-check
import { themes as prismThemes } from 'prism-react-renderer';
const config = {
  title: 'Notes',
  url: 'https://Notes.example.com', // the custom domain
  baseUrl: '/',
  trailingSlash: true,
  presets: [
    [
      'classic',
      /** @type {import('@docusaurus/preset-classic').Options} */
      ({
        docs: {
          routeBasePath: '/',
          sidebarPath: './sidebars.js',
          editUrl: 'https://github.com/o/r/tree/main/',
        },
        blog: { routeBasePath: '/news', showReadingTime: true },
      }),
    ],
  ],
};
export default config;
`;

describe('parseSiteConfig', () => {
  it("reads url, baseUrl, trailingSlash and the docs preset's routeBasePath, not the blog's", () => {
    expect(parseSiteConfig(PRESET, 'docs')).toEqual({
      url: 'https://Notes.example.com',
      baseUrl: '/',
      trailingSlash: true,
      routeBasePath: '/',
    });
  });

  it('takes the blog-first order too: only an object under docs: counts', () => {
    const text =
      "export default { presets: [['classic', { blog: { routeBasePath: '/' }, docs: { sidebarPath: 'x' } }]] };";
    expect(parseSiteConfig(text, 'docs').routeBasePath).toBeUndefined();
  });

  it('reads a plugin-content-docs instance by its path, and the default path docs', () => {
    const text = `export default {
      plugins: [
        ['@docusaurus/plugin-content-docs', { id: 'api', path: 'api-docs', routeBasePath: 'api' }],
        ['@docusaurus/plugin-content-docs', { id: 'guide', path: './guide', routeBasePath: 'guide' }],
      ],
      presets: [['classic', { docs: { routeBasePath: 'handbook' } }]],
    };`;
    expect(parseSiteConfig(text, 'api-docs').routeBasePath).toBe('api');
    expect(parseSiteConfig(text, 'guide').routeBasePath).toBe('guide');
    expect(parseSiteConfig(text, 'docs').routeBasePath).toBe('handbook');
    expect(parseSiteConfig(text, 'other').routeBasePath).toBeUndefined();
  });

  it('ignores commented-out settings and settings written as code', () => {
    const text = `export default {
      url: process.env.SITE_URL,
      // trailingSlash: true,
      /* presets: [['classic', { docs: { routeBasePath: '/' } }]], */
      presets: [['classic', { docs: { routeBasePath: ROUTE } }]],
    };`;
    expect(parseSiteConfig(text, 'docs')).toEqual({});
  });

  it('reads trailingSlash false', () => {
    expect(parseSiteConfig('export default { trailingSlash: false };', 'docs')).toEqual({ trailingSlash: false });
  });
});

describe('parseSiteConfig: the forms a config is written in', () => {
  it('reads settings written with or without spaces around the colon', () => {
    expect(
      parseSiteConfig(
        "export default { trailingSlash:true, presets: [['classic', { docs:{ routeBasePath:'guide' } }]] };",
        'docs',
      ),
    ).toEqual({ trailingSlash: true, routeBasePath: 'guide' });
    expect(
      parseSiteConfig(
        "export default { trailingSlash : false, presets: [['classic', { docs: { routeBasePath : 'guide' } }]] };",
        'docs',
      ),
    ).toEqual({ trailingSlash: false, routeBasePath: 'guide' });
  });

  it('gives no key for a setting the config does not write', () => {
    expect(Object.keys(parseSiteConfig('export default { title: "Notes" };', 'docs'))).toEqual([]);
  });

  it('reads the docs options around an object nested in them, and only up to their closing brace', () => {
    // Prepare: the preset first, with a nested object before its routeBasePath; a plugin with a path after it.
    const text = `export default {
      presets: [['classic', { docs: { sidebar: { hideable: true }, routeBasePath: 'handbook' }, blog: { routeBasePath: '/news' } }]],
      plugins: [['@docusaurus/plugin-content-docs' , { id: 'api', path: 'website/api-docs/', routeBasePath: 'api' }]],
    };`;

    // Act / Assess
    expect(parseSiteConfig(text, 'docs').routeBasePath).toBe('handbook');
    expect(parseSiteConfig(text, 'api-docs').routeBasePath).toBe('api');
  });

  it('reads a plugin instance’s path written after an object nested in its options, in a compact tuple', () => {
    const text =
      "export default { plugins: [['@docusaurus/plugin-content-docs',{ id: 'api', sidebar: { hideable: true }, path: 'api-docs', routeBasePath: 'api' }]] };";
    expect(parseSiteConfig(text, 'api-docs').routeBasePath).toBe('api');
  });

  it('does not take the blog’s routeBasePath written right after docs options that have none', () => {
    const text =
      "export default { presets: [['classic', { docs: { sidebarPath: 'x' }, blog: { routeBasePath: '/' } }]] };";
    expect(parseSiteConfig(text, 'docs').routeBasePath).toBeUndefined();
  });

  it('leaves out comments wherever they stand: the first line, inside a value, right after a value', () => {
    expect(parseSiteConfig('// trailingSlash: true\nexport default {};', 'docs')).toEqual({});
    expect(parseSiteConfig('export default { trailingSlash: /* the host needs it */ true };', 'docs')).toEqual({
      trailingSlash: true,
    });
    expect(parseSiteConfig('export default {\n  trailingSlash: false// GitHub Pages\n};', 'docs')).toEqual({
      trailingSlash: false,
    });
  });
});

describe('parseSiteConfig on what a config may hold around its settings', () => {
  it('takes the docs options’ own path, not the path of a version nested in them', () => {
    const text = `export default { presets: [['classic', {
      docs: { versions: { current: { label: 'Next', path: 'next' } }, routeBasePath: '/' },
    }]] };`;
    expect(parseSiteConfig(text, 'docs').routeBasePath).toBe('/');
    // A path written in the docs options themselves still picks the folder.
    const own =
      "export default { presets: [['classic', { docs: { path: 'book', versions: { current: { path: 'next' } }, routeBasePath: '/' } }]] };";
    expect(parseSiteConfig(own, 'book').routeBasePath).toBe('/');
    expect(parseSiteConfig(own, 'docs').routeBasePath).toBeUndefined();
  });

  it('reads a quoted value holding // or /* as text, not as the start of a comment', () => {
    const text = `export default {
      tagline: 'Robots // humans /* and */ books',
      url: "https://example.org", baseUrl: '/book/', // the project site
      trailingSlash: false, /* GitHub Pages */
    };`;
    expect(parseSiteConfig(text, 'docs')).toEqual({
      url: 'https://example.org',
      baseUrl: '/book/',
      trailingSlash: false,
    });
    expect(parseSiteConfig("export default { tagline: 'a // b', // trailingSlash: true\n};", 'docs')).toEqual({});
    expect(parseSiteConfig("export default { title: `x // y`, baseUrl: '/b/' };", 'docs')).toEqual({ baseUrl: '/b/' });
  });

  it('reads over an escaped quote: the // after it is still inside the string', () => {
    expect(parseSiteConfig("export default { tagline: 'a\\' // b', baseUrl: '/b/' };", 'docs')).toEqual({
      baseUrl: '/b/',
    });
  });

  it('ends a quoted string at its line’s end, so a comment on the next line is still a comment', () => {
    const text = "export default {\n  tagline: 'unclosed,\n  // trailingSlash: true\n  baseUrl: '/b/',\n};";
    expect(parseSiteConfig(text, 'docs')).toEqual({ baseUrl: '/b/' });
  });

  it('reads a string left open at the end of the text, and a comment whose first character is a quote', () => {
    expect(parseSiteConfig("export default { baseUrl: '/b/', tagline: 'never closed", 'docs')).toEqual({
      baseUrl: '/b/',
    });
    expect(parseSiteConfig("export default {\n  //'trailingSlash: true\n  baseUrl: '/b/',\n};", 'docs')).toEqual({
      baseUrl: '/b/',
    });
  });

  it('ends a block comment only at a */ after its opening /*, not at the / of the opening', () => {
    expect(parseSiteConfig('export default { /*/ trailingSlash: true */ baseUrl: "/b/" };', 'docs')).toEqual({
      baseUrl: '/b/',
    });
  });

  it('reads an escaped quote inside a string and a comment with an apostrophe in it', () => {
    const text =
      "export default {\n  title: 'It\\'s // a book', // don't read: baseUrl: '/x/'\n  baseUrl: '/docs-site/',\n};";
    expect(parseSiteConfig(text, 'docs')).toEqual({ baseUrl: '/docs-site/' });
  });
});

describe('readBook with a site config', () => {
  let site: string;
  let docsDir: string;

  beforeEach(async () => {
    site = await mkdtemp(join(tmpdir(), 'ragwatch-site-'));
    docsDir = join(site, 'docs');
  });

  afterEach(async () => {
    await rm(site, { recursive: true, force: true });
  });

  async function write(path: string, text: string): Promise<void> {
    await mkdir(dirname(join(site, path)), { recursive: true });
    await writeFile(join(site, path), text);
  }

  it("serves the docs from the site's root with a trailing slash, as the config says", async () => {
    // Prepare
    await write('docusaurus.config.js', PRESET);
    await write('docs/introduction.md', '---\nslug: /\n---\n# Introduction\n\nHello.\n');
    await write('docs/faq/storage/retention-policy.md', '# Which retention policy should I choose?\n\nText.\n');
    await write('docs/dm/laws of sets.mdx', '---\nid: set-laws\n---\n# laws of sets\n\nText.\n');
    await write('docs/cli/index.md', '# CLI\n\nText.\n');

    // Act
    const { pages, routes } = await readBook({ docsDir, baseUrl: 'https://notes.example.com/' });

    // Assess
    expect(pages.map((p) => p.sourceUrl).sort()).toEqual([
      'https://notes.example.com/',
      'https://notes.example.com/cli/',
      'https://notes.example.com/dm/set-laws/',
      'https://notes.example.com/faq/storage/retention-policy/',
    ]);
    expect(routes).toEqual({
      routeBasePath: '/',
      trailingSlash: true,
      configFile: join(site, 'docusaurus.config.js'),
      configBaseUrl: null,
    });
  });

  it('lets the flags override the config, and says when the config publishes elsewhere', async () => {
    // Prepare
    await write('docusaurus.config.ts', PRESET);
    await write('docs/intro.md', '# Intro\n\nText.\n');
    const baseUrl = 'https://user.github.io/notes/';

    // Act
    const book = await readBook({ docsDir, baseUrl, routeBasePath: 'docs', trailingSlash: false });

    // Assess
    expect(book.pages[0]?.sourceUrl).toBe('https://user.github.io/notes/docs/intro');
    expect(book.routes.configBaseUrl).toBe('https://Notes.example.com/');
    expect(describeRoutes(book.routes, baseUrl)).toBe(
      `Docs served at https://user.github.io/notes/docs/ (routeBasePath 'docs'; from ${join(site, 'docusaurus.config.ts')}; --route-base-path overrides)\n` +
        'Note: the site config publishes the book at https://Notes.example.com/, not at --base-url https://user.github.io/notes/',
    );
  });

  it("keeps Docusaurus's defaults without a config", async () => {
    // Prepare
    await write('docs/intro.md', '# Intro\n');

    // Act
    const { pages, routes } = await readBook({ docsDir, baseUrl: 'https://user.github.io/notes' });

    // Assess
    expect(pages[0]?.sourceUrl).toBe('https://user.github.io/notes/docs/intro');
    expect(describeRoutes(routes, 'https://user.github.io/notes')).toBe(
      "Docs served at https://user.github.io/notes/docs/ (routeBasePath 'docs'; no docusaurus.config.* beside --docs; --route-base-path overrides)",
    );
  });
});

describe('docsPathPrefix', () => {
  it('joins the base path and the route, with the root as /', () => {
    expect(docsPathPrefix('https://user.github.io/repo/', 'docs')).toBe('/repo/docs/');
    expect(docsPathPrefix('https://user.github.io/repo', '/guide/')).toBe('/repo/guide/');
    expect(docsPathPrefix('https://notes.example.com/', '/')).toBe('/');
    expect(docsPathPrefix('https://notes.example.com', '')).toBe('/');
  });
});

describe('page URLs', () => {
  it('write the host in lower case, as the sitemap publishes it, and keep the path as it is', async () => {
    const site = await mkdtemp(join(tmpdir(), 'ragwatch-site-'));
    try {
      await mkdir(join(site, 'docs', 'Book'), { recursive: true });
      await writeFile(join(site, 'docs', 'Book', 'Intro.md'), '# Intro\n');
      const [page] = await readBook({
        docsDir: join(site, 'docs'),
        baseUrl: 'HTTPS://QuillWorks.GitHub.io/Field/',
      }).then((b) => b.pages);
      expect(page?.sourceUrl).toBe('https://quillworks.github.io/Field/docs/Book/Intro');
    } finally {
      await rm(site, { recursive: true, force: true });
    }
  });
});
