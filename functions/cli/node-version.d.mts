/** Types of node-version.mjs (plain JavaScript, so that an old Node can read it). */
export declare const MIN_NODE_MAJOR: number;
export declare function tooOldNode(version: string, execPath: string): string | null;
