import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../functions/core/shared/errors.ts';
import {
  readBook,
  readDocs,
  splitFrontmatter,
  stripNumberPrefix,
  toModuleName,
} from '../../functions/indexer/read-docs.ts';

const BOOK_DOCS = join(import.meta.dirname, '../../sandbox/book/docs');
const BASE = 'https://book.example.com';

let docsDir: string;

beforeEach(async () => {
  docsDir = await mkdtemp(join(tmpdir(), 'ragwatch-docs-'));
});

afterEach(async () => {
  await rm(docsDir, { recursive: true, force: true });
});

async function writeDoc(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(docsDir, path)), { recursive: true });
  await writeFile(join(docsDir, path), text);
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('readDocs', () => {
  it('derives URL, chapter id and module name of a chapter from its folder and frontmatter id', async () => {
    // Prepare
    await writeDoc(
      'module-1-ros2/basics.md',
      '---\nid: ch1-ros2-basics\ntitle: ROS 2 Basics\n---\n\n# ROS 2 Basics\n\nText.\n',
    );

    // Act
    const pages = await readDocs({ docsDir, baseUrl: `${BASE}/` });

    // Assess
    expect(pages).toEqual([
      {
        file: 'module-1-ros2/basics.md',
        title: 'ROS 2 Basics',
        sourceUrl: 'https://book.example.com/docs/module-1-ros2/ch1-ros2-basics',
        chapterId: 'module-1-ros2/ch1-ros2-basics',
        moduleName: 'Module 1 Ros2',
        body: '\n# ROS 2 Basics\n\nText.\n',
        // The file's time: the folder is outside git and the page has no last_update (last-update.test.ts).
        updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      },
    ]);
  });

  it('gives a top-level page its id as chapter id and no module (issue 23: a page outside every category has none)', async () => {
    // Prepare
    await writeDoc('intro.md', '---\ntitle: Introduction\n---\nWelcome.\n');

    // Act
    const [page] = await readDocs({ docsDir, baseUrl: BASE });

    // Assess
    expect(page).toMatchObject({ sourceUrl: `${BASE}/docs/intro`, chapterId: 'intro', moduleName: '' });
  });

  it('uses the file name without number prefix when there is no id, and the first heading when there is no title', async () => {
    // Prepare
    await writeDoc('02-module-2-sim/01-gazebo.md', '# Gazebo Physics\n\nText.\n');

    // Act
    const [page] = await readDocs({ docsDir, baseUrl: BASE });

    // Assess
    expect(page).toMatchObject({
      title: 'Gazebo Physics',
      sourceUrl: `${BASE}/docs/module-2-sim/gazebo`,
      chapterId: 'module-2-sim/gazebo',
      moduleName: 'Module 2 Sim',
    });
  });

  it('names the folder module1-ros2 "Module 1 Ros2", the seed’s form', async () => {
    // Prepare
    await writeDoc('module1-ros2/ch1.md', '# ROS 2\n\nText.\n');

    // Act
    const [page] = await readDocs({ docsDir, baseUrl: BASE });

    // Assess
    expect(page).toMatchObject({ chapterId: 'module1-ros2/ch1', moduleName: 'Module 1 Ros2' });
  });

  it('resolves a relative slug against the folder and an absolute slug against the route base', async () => {
    // Prepare
    await writeDoc('module-4-vla/a.md', '---\nslug: voice\n---\nA.\n');
    await writeDoc('module-4-vla/b.md', '---\nslug: /capstone/overview\n---\nB.\n');

    // Act
    const pages = await readDocs({ docsDir, baseUrl: BASE });

    // Assess
    expect(pages.map((p) => [p.sourceUrl, p.chapterId])).toEqual([
      [`${BASE}/docs/module-4-vla/voice`, 'module-4-vla/a'],
      [`${BASE}/docs/capstone/overview`, 'module-4-vla/b'],
    ]);
  });

  it('publishes index, README and same-name files at their folder URL', async () => {
    // Prepare
    await writeDoc('guides/index.md', 'Guides.\n');
    await writeDoc('setup/README.md', 'Setup.\n');
    await writeDoc('tools/tools.mdx', 'Tools.\n');

    // Act
    const pages = await readDocs({ docsDir, baseUrl: BASE });

    // Assess
    expect(pages.map((p) => p.sourceUrl)).toEqual([`${BASE}/docs/guides`, `${BASE}/docs/setup`, `${BASE}/docs/tools`]);
  });

  it('honours another route base path', async () => {
    // Prepare
    await writeDoc('intro.md', 'Hi.\n');

    // Act
    const [page] = await readDocs({ docsDir, baseUrl: BASE, routeBasePath: '/book/' });

    // Assess
    expect(page?.sourceUrl).toBe(`${BASE}/book/intro`);
  });

  it('skips drafts, partials starting with an underscore, hidden folders and files that are not markdown', async () => {
    // Prepare
    await writeDoc('module-1-ros2/ch1.md', 'Published.\n');
    await writeDoc('module-1-ros2/ch2.md', '---\ndraft: true\n---\nNot yet.\n');
    await writeDoc('module-1-ros2/_snippet.md', 'Partial.\n');
    await writeDoc('_shared/note.md', 'Partial folder.\n');
    await writeDoc('.drafts/x.md', 'Hidden.\n');
    await writeDoc('module-1-ros2/_category_.json', '{"label":"ROS 2"}');
    await writeDoc('module-1-ros2/diagram.png', 'not text');

    // Act
    const pages = await readDocs({ docsDir, baseUrl: BASE });

    // Assess
    expect(pages.map((p) => p.file)).toEqual(['module-1-ros2/ch1.md']);
  });

  it('lists every bad page at once: broken YAML, a wrongly typed field, two pages at one URL', async () => {
    // Prepare
    await writeDoc('a.md', '---\ntitle: Sensors: LiDAR\n---\nText.\n');
    await writeDoc('b.md', '---\nid: [x]\n---\nText.\n');
    await writeDoc('c.md', '---\nid: same\n---\nText.\n');
    await writeDoc('d.md', '---\nid: same\n---\nText.\n');

    // Act
    const error = await caught(readDocs({ docsDir, baseUrl: BASE }));

    // Assess
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).problems).toEqual([
      expect.stringMatching(/^a\.md: frontmatter is not valid YAML \(.+\)$/),
      'b.md: frontmatter id must be a non-empty string',
      'd.md: has the same URL as c.md (https://book.example.com/docs/same)',
    ]);
  });

  it('says which folder could not be read', async () => {
    // Act
    const error = await caught(readDocs({ docsDir: join(docsDir, 'missing'), baseUrl: BASE }));

    // Assess
    expect((error as InputError).problems).toEqual([
      `${join(docsDir, 'missing')}: cannot be read as a folder (ENOENT)`,
    ]);
  });

  it('reads the sample book: the introduction and 12 chapters in 4 modules', async () => {
    // Act
    const pages = await readDocs({ docsDir: BOOK_DOCS, baseUrl: BASE });

    // Assess
    expect(pages.map((p) => [p.sourceUrl.slice(BASE.length), p.chapterId, p.moduleName])).toEqual([
      ['/docs/intro', 'intro', ''],
      ['/docs/module-1-ros2/ch1-ros2-basics', 'module-1-ros2/ch1-ros2-basics', 'Module 1 Ros2'],
      ['/docs/module-1-ros2/ch2-rclpy-and-launch-files', 'module-1-ros2/ch2-rclpy-and-launch-files', 'Module 1 Ros2'],
      ['/docs/module-1-ros2/ch3-urdf-for-humanoids', 'module-1-ros2/ch3-urdf-for-humanoids', 'Module 1 Ros2'],
      [
        '/docs/module-2-digital-twin/ch1-gazebo-physics',
        'module-2-digital-twin/ch1-gazebo-physics',
        'Module 2 Digital Twin',
      ],
      [
        '/docs/module-2-digital-twin/ch2-sensor-simulation',
        'module-2-digital-twin/ch2-sensor-simulation',
        'Module 2 Digital Twin',
      ],
      [
        '/docs/module-2-digital-twin/ch3-unity-for-hri',
        'module-2-digital-twin/ch3-unity-for-hri',
        'Module 2 Digital Twin',
      ],
      [
        '/docs/module-3-nvidia-isaac/ch1-isaac-sim-synthetic-data',
        'module-3-nvidia-isaac/ch1-isaac-sim-synthetic-data',
        'Module 3 Nvidia Isaac',
      ],
      [
        '/docs/module-3-nvidia-isaac/ch2-isaac-ros-vslam',
        'module-3-nvidia-isaac/ch2-isaac-ros-vslam',
        'Module 3 Nvidia Isaac',
      ],
      [
        '/docs/module-3-nvidia-isaac/ch3-nav2-bipedal-planning',
        'module-3-nvidia-isaac/ch3-nav2-bipedal-planning',
        'Module 3 Nvidia Isaac',
      ],
      ['/docs/module-4-vla/ch1-voice-to-action', 'module-4-vla/ch1-voice-to-action', 'Module 4 Vla'],
      ['/docs/module-4-vla/ch2-llm-cognitive-planning', 'module-4-vla/ch2-llm-cognitive-planning', 'Module 4 Vla'],
      [
        '/docs/module-4-vla/ch3-capstone-autonomous-humanoid',
        'module-4-vla/ch3-capstone-autonomous-humanoid',
        'Module 4 Vla',
      ],
    ]);
  });
});

describe('splitFrontmatter', () => {
  it('returns the whole text as body when there is no frontmatter', () => {
    expect(splitFrontmatter('# Title\n---\nx')).toEqual({ data: {}, body: '# Title\n---\nx' });
  });

  it('refuses frontmatter that is not a mapping', () => {
    expect(() => splitFrontmatter('---\n- a\n- b\n---\nText')).toThrow('frontmatter must be a YAML mapping');
  });
});

describe('toModuleName', () => {
  it('title-cases each word of the folder name', () => {
    expect(['module-1-ros2', 'module_3_nvidia_isaac', 'appendix'].map(toModuleName)).toEqual([
      'Module 1 Ros2',
      'Module 3 Nvidia Isaac',
      'Appendix',
    ]);
  });
});

describe('stripNumberPrefix', () => {
  it('removes ordering prefixes but not dates, versions or names that only contain digits', () => {
    expect(
      ['01-intro', '2 . setup', '2024-01-release', '1.2-notes', 'module-1-ros2', '3d-maps'].map(stripNumberPrefix),
    ).toEqual(['intro', 'setup', '2024-01-release', '1.2-notes', 'module-1-ros2', '3d-maps']);
  });

  describe('modules from the book’s own structure (issue 23)', () => {
    async function nestedBook(): Promise<void> {
      await writeDoc('privacy.md', '# Privacy Policy\n\nText.\n');
      await writeDoc('terms.md', '# Terms\n\nText.\n');
      await writeDoc('book/intro.md', '# Introduction\n\nText.\n');
      await writeDoc('book/_category_.json', '{"label": "The Book"}');
      await writeDoc('book/01-hardware/_category_.json', '{"label": "Compute Hardware", "position": 1}');
      await writeDoc('book/01-hardware/index.md', '# Compute Hardware\n\nText.\n');
      await writeDoc('book/01-hardware/gpu.md', '# GPU\n\nText.\n');
      await writeDoc('book/02-sim/_category_.yml', 'label: Simulation Twin\n');
      await writeDoc('book/02-sim/physics.md', '# Physics\n\nText.\n');
      await writeDoc('book/03-perception/index.md', '---\nsidebar_label: Perception Stack\n---\n# Seeing\n\nText.\n');
      await writeDoc('book/03-perception/odometry.md', '# Odometry\n\nText.\n');
      await writeDoc('book/04-module-4-vla/voice.md', '# Voice\n\nText.\n');
    }

    const modulesOf = (pages: { file: string; moduleName: string }[]) =>
      Object.fromEntries(pages.map((p) => [p.file, p.moduleName]));

    it('finds the content root under site pages and names each folder below it by its category label', async () => {
      // Prepare
      await nestedBook();

      // Act
      const { pages, modules } = await readBook({ docsDir, baseUrl: BASE });

      // Assess: _category_ label (JSON or YAML), else the index page's sidebar_label, else the folder in seed form
      expect(modulesOf(pages)).toEqual({
        'book/01-hardware/gpu.md': 'Compute Hardware',
        'book/01-hardware/index.md': 'Compute Hardware',
        'book/02-sim/physics.md': 'Simulation Twin',
        'book/03-perception/index.md': 'Perception Stack',
        'book/03-perception/odometry.md': 'Perception Stack',
        'book/04-module-4-vla/voice.md': 'Module 4 Vla',
        'book/intro.md': '',
        'privacy.md': '',
        'terms.md': '',
      });
      expect(modules.source).toEqual({ kind: 'folders', root: 'book', given: false });
    });

    it('takes the modules under a given root instead (the override), and refuses a root that holds no page', async () => {
      // Prepare
      await nestedBook();

      // Act
      const { pages } = await readBook({ docsDir, baseUrl: BASE, moduleRoot: 'book/01-hardware/' });
      const error = await caught(readBook({ docsDir, baseUrl: BASE, moduleRoot: 'books' }));

      // Assess
      expect(modulesOf(pages)['book/01-hardware/gpu.md']).toBe('');
      expect(modulesOf(pages)['book/02-sim/physics.md']).toBe('');
      expect(error).toBeInstanceOf(InputError);
      expect(String(error)).toContain('module root books: no folder of that name holds pages');
    });

    it('reads the sidebars file beside the docs folder: hand-written categories, first sidebar first', async () => {
      // Prepare: the docs folder one level down, as in a site (site/docs, site/sidebars.json)
      const site = docsDir;
      docsDir = join(site, 'docs');
      await writeDoc('overview.md', '# Overview\n\nText.\n');
      await writeDoc('00_setup.md', '---\nid: setup\n---\n# Setup\n\nText.\n');
      await writeDoc('01_first.md', '# First\n\nText.\n');
      await writeDoc('glossary.md', '# Glossary\n\nText.\n');
      await writeFile(
        join(site, 'sidebars.json'),
        JSON.stringify({
          main: [
            'overview',
            { type: 'category', label: 'Mental Models', items: ['overview'] },
            { type: 'category', label: 'Foundations', items: [{ type: 'doc', id: 'setup' }, 'first'] },
          ],
          other: [{ type: 'category', label: 'Later', items: ['first', 'glossary'] }],
        }),
      );

      // Act
      const { pages, modules } = await readBook({ docsDir, baseUrl: BASE });

      // Assess
      expect(modulesOf(pages)).toEqual({
        '00_setup.md': 'Foundations',
        '01_first.md': 'Foundations',
        'glossary.md': 'Later',
        'overview.md': '',
      });
      expect(modules.source).toEqual({ kind: 'sidebars' });
    });

    it('loads a sidebars.js and expands an autogenerated folder as Docusaurus does', async () => {
      // Prepare
      const site = docsDir;
      docsDir = join(site, 'docs');
      await nestedBook();
      await writeFile(
        join(site, 'sidebars.js'),
        "module.exports = { book: [{ type: 'autogenerated', dirName: 'book' }], legal: ['privacy'] };\n",
      );

      // Act
      const { pages, modules } = await readBook({ docsDir, baseUrl: BASE });

      // Assess
      expect(modules.source).toEqual({ kind: 'sidebars' });
      expect(modulesOf(pages)).toMatchObject({
        'book/01-hardware/gpu.md': 'Compute Hardware',
        'book/02-sim/physics.md': 'Simulation Twin',
        'book/04-module-4-vla/voice.md': 'Module 4 Vla',
        'book/intro.md': '',
        'privacy.md': '',
        'terms.md': '',
      });
    });

    it('names the sidebars file it cannot load, and the way around it', async () => {
      // Prepare
      const site = docsDir;
      docsDir = join(site, 'docs');
      await writeDoc('a.md', '# A\n');
      await writeFile(join(site, 'sidebars.json'), '{ not json');

      // Act
      const error = await caught(readBook({ docsDir, baseUrl: BASE }));

      // Assess
      expect(String(error)).toMatch(/sidebars file .*sidebars\.json: cannot be read .*--module-root/);
    });
  });
});

describe('the site root given as --docs', () => {
  it('is refused with the docs folder inside it named, whether a config or a package.json marks the site', async () => {
    // Prepare: a site root (config, docs/ inside); another marked by its package.json alone.
    await writeDoc('docusaurus.config.ts', 'export default {};\n');
    await writeDoc('docs/intro.md', '# Intro\n');
    const other = join(docsDir, 'other');
    await writeDoc('other/package.json', '{}');
    await writeDoc('other/docs/intro.md', '# Intro\n');

    // Act
    const errors = [
      await caught(readBook({ docsDir, baseUrl: BASE })),
      await caught(readDocs({ docsDir: other, baseUrl: BASE })),
    ];

    // Assess
    expect(errors.map((e) => (e as InputError).problems)).toEqual([
      [
        `${docsDir}: is the site's root (it holds docusaurus.config.ts), not its docs folder: give --docs ${join(docsDir, 'docs')}`,
      ],
      [
        `${other}: is the site's root (it holds a docs/ folder beside package.json), not its docs folder: give --docs ${join(other, 'docs')}`,
      ],
    ]);
    await expect(readDocs({ docsDir: join(docsDir, 'docs'), baseUrl: BASE })).resolves.toHaveLength(1);
  });

  it('is not confused with a docs folder that has a docs/ module of its own', async () => {
    await writeDoc('docs/intro.md', '# Intro\n');
    await writeDoc('guide.md', '# Guide\n');
    expect((await readDocs({ docsDir, baseUrl: BASE })).map((p) => p.file)).toEqual(['docs/intro.md', 'guide.md']);
  });
});
