/**
 * Whether this Node can run the CLI, in plain JavaScript that any Node reads: the entry (ragwatch.mjs) asks it
 * before it loads the TypeScript, which Node before 22.18 cannot even load (a ten-line stack about a file
 * extension, where a person needs one line saying what to run instead).
 */

/** The oldest Node that runs the CLI: package.json's engines, and the Node the project pins as a dev dependency. */
export const MIN_NODE_MAJOR = 24;

/**
 * What to tell a person whose Node is too old, or null when `version` (process.versions.node, like "20.20.2") will
 * do. `execPath` says which Node it was, since the one on PATH is not always the one a person thinks.
 */
export function tooOldNode(version, execPath) {
  const major = Number(String(version).split('.')[0]);
  if (Number.isInteger(major) && major >= MIN_NODE_MAJOR) return null;
  return [
    `ragwatch: needs Node.js ${MIN_NODE_MAJOR} or newer; this is Node ${version} (${execPath}).`,
    `  From the project's folder, after \`npm ci\`, run it on the project's own Node ${MIN_NODE_MAJOR}:`,
    '    npx ragwatch <command>          (or: npm run -s ragwatch -- <command>)',
    `  or put Node ${MIN_NODE_MAJOR} first on PATH.`,
  ].join('\n');
}
