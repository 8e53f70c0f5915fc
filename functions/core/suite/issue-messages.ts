/**
 * zod issues as lines a person can act on: "path: what was expected, and what was found". zod's own wording
 * leaves some cases bare (a union says only "Invalid input", whatever was wrong inside the branch the value was
 * meant for), so each issue kind is worded here once, and a union reports the issues of the branch whose type
 * the value has.
 */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** Formats a zod path the way a person reads it: queries[3].top_k */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)),
    '',
  );
}

/**
 * Lists zod issues as "path: message" lines; parse with `reportInput: true` so each can say what it found.
 * `namePath` renames a path to the file's own field names (a seed-form suite).
 */
export function listIssues(
  error: { issues: readonly Issue[] },
  namePath: (path: string) => string = (p) => p,
): string[] {
  return error.issues.flatMap((issue) => describe(issue, [], namePath));
}

function describe(issue: Issue, prefix: readonly PropertyKey[], namePath: (path: string) => string): string[] {
  const path = [...prefix, ...issue.path];
  const where = namePath(formatPath(path)) || '(root)';
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    // The branch the value was meant for: the first whose issues are not about the value's type itself.
    const meant = issue.errors.find((branch) => !branch.some((i) => i.path.length === 0 && i.code === 'invalid_type'));
    if (meant) return meant.flatMap((i) => describe(i, path, namePath));
    const expected = issue.errors.flatMap((b) => b.filter((i) => i.code === 'invalid_type').map((i) => i.expected));
    return [`${where}: must be ${[...new Set(expected)].map(article).join(' or ')}${got(issue)}`];
  }
  if (issue.code === 'invalid_type') {
    const numeral = typeof issue.input === 'string' && /^[-+]?0[xob]/i.test(issue.input.trim());
    if (issue.expected === 'number' && numeral)
      return [
        `${where}: must be a decimal number, got the numeral ${JSON.stringify(issue.input)} (hex, octal and binary are refused)`,
      ];
    // A schema's own wording ("must be 1, 2 or 3") wins over the generic one.
    const expected = issue.message.startsWith('Invalid input') ? `must be ${article(issue.expected)}` : issue.message;
    return [`${where}: ${expected}${got(issue)}`];
  }
  if (issue.code === 'unrecognized_keys')
    return issue.keys.map(
      (key) => `${formatPath([...path, key])}: is not a field here (check its spelling, or remove it)`,
    );
  // Custom and bound messages are written as "must ..." in the schema: they already say what was expected.
  const message = issue.message.startsWith('Invalid input')
    ? `${issue.message} (${found(issue.input)})`
    : issue.message;
  return [`${where}: ${message}`];
}

function article(type: string): string {
  if (type === 'int') return 'a whole number';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** ", got <what was found>", or nothing when the parse did not report its input (parse with reportInput). */
function got(issue: Issue): string {
  return 'input' in issue ? `, got ${found(issue.input)}` : '';
}

function found(input: unknown): string {
  if (input === undefined) return 'nothing';
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'a list';
  if (typeof input === 'object') return 'an object';
  const text = JSON.stringify(input) ?? String(input);
  return `${typeof input} ${text.length > 60 ? `${text.slice(0, 60)}…` : text}`;
}
