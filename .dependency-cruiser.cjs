// @ts-check
/**
 * The house as built, as rules `npm run lint` checks on every import (docs/ARCHITECTURE.md draws the same layers).
 * - No circle anywhere in the tree.
 * - The core is pure: it imports only itself and the few libraries in CORE_PACKAGES (no SDK, no adapter, no
 *   node: module), and nothing outside test/ imports a test.
 * - Inside the core, folders are layers, bottom first: a file imports its own folder and the layers below it, never
 *   a layer above nor a folder beside it on its own layer. A new core folder must be given a layer here.
 *
 * Parsed with swc: TypeScript 7 has no JavaScript API for dependency-cruiser's TypeScript parser to use. swc keeps
 * type-only imports in the graph (a type is a dependency too) without `tsPreCompilationDeps`, which would ask for
 * that API; it misses an inline `import('…').Type`, so the code imports types at the top of a file instead.
 *
 * @type {import('dependency-cruiser').IConfiguration}
 */

/** The core's layers, bottom first; folders on one line are peers and may not import each other. */
const LAYERS = [
  ['shared'], // errors, statistics
  ['book'], // the book as the index holds it: payload fields, names, matching
  ['report'], // the data model: findings at the bottom, the sections, the report, incident state
  ['history'], // what past runs said, and their baseline
  ['(root)'], // ports.ts (what the core needs from outside), config.ts (how it is configured)
  ['suite'], // the golden queries' format, generation and calibration
  ['criteria'], // success criteria and the run's status
  ['checks'], // what a check is, and the machinery that runs checks and their named steps
  ['sitemap'], // the book's sitemap: read once, what its source refused, the golden queries it made stale
  ['queries'],
  ['quality'],
  ['coverage'],
  ['grounding', 'index-health'],
  ['regression', 'delivery', 'render'], // after the run: what changed, alert and metrics, HTML/CSV and trend
  ['incident'],
  ['run', 'post-run'], // the use cases
];

/** The libraries the core may import: pure computation, no I/O. */
const CORE_PACKAGES = ['zod', 'yaml', 'p-limit', 'stemmer'];

const CORE = '^functions/core/';
const folderPath = (folder) => (folder === '(root)' ? `${CORE}[^/]+\\.ts$` : `${CORE}${folder}/`);
const anyOf = (folders) => folders.map(folderPath).join('|');

const layerRules = LAYERS.flatMap((layer, i) => {
  const above = LAYERS.slice(i + 1).flat();
  return layer.map((folder) => {
    const peers = layer.filter((f) => f !== folder);
    const forbidden = [...above, ...peers];
    return {
      name: `core-layer-${folder === '(root)' ? 'root' : folder}`,
      comment: `core/${folder === '(root)' ? '*.ts' : folder} imports only its own folder and the layers below it (${LAYERS.slice(0, i).flat().join(', ') || 'none'}); not ${forbidden.join(', ') || 'anything above'}`,
      severity: /** @type {const} */ ('error'),
      from: { path: folderPath(folder) },
      to: { path: anyOf(forbidden) || '^$' },
    };
  });
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A circle of imports: no file may reach itself through its imports.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-folder-without-layer',
      comment: `Every folder of the core has a layer in .dependency-cruiser.cjs (LAYERS): ${LAYERS.flat().join(', ')}.`,
      severity: 'error',
      from: { path: CORE, pathNot: anyOf(LAYERS.flat()) },
      to: {},
    },
    {
      name: 'core-is-pure',
      comment: `The core imports only itself and ${CORE_PACKAGES.join(', ')}: no SDK, no adapter, no node: module.`,
      severity: 'error',
      from: { path: CORE },
      to: { pathNot: [CORE, ...CORE_PACKAGES.map((p) => `(^|/)node_modules/${p}/`)] },
    },
    {
      name: 'adapters-are-not-roots',
      comment: 'An adapter implements a port; only the composition roots (cli, nightly) wire adapters together.',
      severity: 'error',
      from: { path: '^functions/adapters/' },
      to: { path: '^functions/(cli|nightly|indexer)/' },
    },
    {
      name: 'no-test-code-outside-tests',
      comment: 'Nothing but a test imports test/.',
      severity: 'error',
      from: { pathNot: '^test/' },
      to: { path: '^test/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    ...layerRules,
  ],
  options: {
    parser: 'swc',
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|cdk\\.out|dist|reports|\\.stryker-tmp[^/]*)/' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.mts', '.js', '.mjs', '.json'],
      // Packages' `exports` maps (subpaths such as @aws-lambda-powertools/parameters/secrets), as Node resolves them.
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
