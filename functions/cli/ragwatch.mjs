#!/usr/bin/env node
/**
 * The `ragwatch` command (package.json's bin, what `npx ragwatch` runs): plain JavaScript, so that a Node too old
 * for the TypeScript behind it still reads this far and says what to run instead (exit 2, as for any bad setup).
 * Committed executable (git's mode 100755): npx would otherwise chmod it on first use and leave the tree dirty, and
 * fail with "Permission denied" where it cannot.
 */
import { tooOldNode } from './node-version.mjs';

const refusal = tooOldNode(process.versions.node, process.execPath);
if (refusal !== null) {
  process.stderr.write(`${refusal}\n`);
  process.exit(2);
}
const { runFromCommandLine } = await import('./main.ts');
await runFromCommandLine(process.argv.slice(2));
