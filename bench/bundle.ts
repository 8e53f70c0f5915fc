/**
 * esbuild with the options infra/nightly-stack.ts gives CDK's NodejsFunction (ESM, node24, minified, source map, the
 * createRequire banner, module-then-main fields), so what the benchmark runs and weighs is what Lambda would load.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';

/** The project's root, and where bundles go: inside it so external imports resolve from its node_modules. */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '..');
export const BUNDLE_DIR = path.join(PROJECT_ROOT, 'node_modules/.cache/ragwatch-bench');

const BANNER = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

/** Bundles `entry` into `outfile` as the stack does; `external` as CDK's externalModules. */
export async function bundleLikeTheStack(options: {
  entry: string;
  outfile: string;
  external: string[];
  /** false: keep names and lines, so a CPU profile of the bundle names ragwatch's functions (bench --unminified). */
  minify?: boolean;
}): Promise<Metafile> {
  mkdirSync(path.dirname(options.outfile), { recursive: true });
  const result = await build({
    entryPoints: [options.entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    minify: options.minify ?? true,
    sourcemap: true,
    sourcesContent: false,
    external: options.external,
    mainFields: ['module', 'main'],
    banner: { js: BANNER },
    outfile: options.outfile,
    metafile: true,
    logLevel: 'silent',
  });
  return result.metafile;
}
