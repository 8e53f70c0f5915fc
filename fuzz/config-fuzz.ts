/**
 * Configuration fuzzing: sets of environment variables, each a valid base with one to four variables replaced by
 * values drawn from what people and scripts really write (hex, octal, leading zeros, blanks, units, credentials in
 * URLs, other schemes, path escapes, huge numbers) and from each documented range's edges. The oracle is README.md's
 * Configuration table (documented-bounds.ts), read apart from the product's code; every set goes through
 * parseEngineConfig as `ragwatch run` reads it. Counted both ways: invalid accepted, and valid refused.
 */
import { parseEngineConfig } from '../functions/core/config.ts';
import { InputError } from '../functions/core/shared/errors.ts';
import { type DocumentedBounds, type Range, readDocumentedBounds } from './documented-bounds.ts';
import type { Rng } from './rng.ts';
import type { Tally } from './tally.ts';

const BASE = {
  COHERE_API_KEY: 'fuzz-key-0000',
  QDRANT_URL: 'https://qdrant.example:6333',
  DOCUSAURUS_BASE_URL: 'https://book.example.com',
};

/**
 * README: "Numbers are read in plain decimal only": an optional sign, digits without a leading zero, an optional
 * fraction and exponent. Written as a scanner from those words, not as the product's regular expression.
 */
function plainDecimal(v: string): boolean {
  let i = 0;
  const digits = () => {
    const from = i;
    while (i < v.length && (v[i] ?? '') >= '0' && (v[i] ?? '') <= '9') i++;
    return v.slice(from, i);
  };
  if (v[i] === '+' || v[i] === '-') i++;
  const whole = digits();
  if (whole.length > 1 && whole.startsWith('0')) return false;
  let fraction = '';
  if (v[i] === '.') {
    i++;
    fraction = digits();
    if (fraction === '') return false;
  }
  if (whole === '' && fraction === '') return false;
  if (whole !== '' && (v[i] === 'e' || v[i] === 'E')) {
    i++;
    if (v[i] === '+' || v[i] === '-') i++;
    if (digits() === '') return false;
  }
  return i === v.length;
}

type Oracle = (value: string) => boolean;
const number =
  ({ min, max, whole }: Range): Oracle =>
  (raw) => {
    const v = raw.trim();
    if (v === '') return true; // unset: the default applies
    if (!plainDecimal(v)) return false;
    const n = Number(v);
    return Number.isFinite(n) && n >= min && n <= max && (!whole || Number.isInteger(n));
  };
const url: Oracle = (raw) => {
  const v = raw.trim();
  if (v === '') return true;
  if (!URL.canParse(v)) return false;
  const u = new URL(v);
  return (u.protocol === 'http:' || u.protocol === 'https:') && u.username === '' && u.password === '';
};

/** Each fuzzed variable with its oracle, every one from the documented bounds (a variable they miss is an error). */
function oracles(docs: DocumentedBounds): Record<string, Oracle> {
  const out: Record<string, Oracle> = {};
  for (const name of ['QDRANT_URL', 'DOCUSAURUS_BASE_URL', 'SITEMAP_URL', 'COHERE_BASE_URL']) {
    if (!docs.urls.has(name)) throw new Error(`README.md's Configuration table has no URL row for ${name}`);
    out[name] = docs.required.has(name) ? (raw) => raw.trim() !== '' && url(raw) : url;
  }
  const { maxChars, forbidden, reserved } = docs.collection;
  out.QDRANT_COLLECTION = (raw) => {
    const v = raw.trim();
    return (
      v === '' ||
      ([...v].length <= maxChars &&
        ![...v].some((c) => forbidden.includes(c) || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f) &&
        !reserved.includes(v))
    );
  };
  for (const name of NUMERIC) {
    const range = docs.numbers.get(name);
    if (range === undefined) throw new Error(`README.md's Configuration table gives no range for ${name}`);
    out[name] = number(range);
  }
  return out;
}

const NUMERIC = [
  'MAX_AGENT_QUERIES',
  'SIMILARITY_THRESHOLD',
  'TOP_K_RESULTS',
  'MIN_PASS_RATE',
  'MIN_COVERAGE',
  'MIN_COMPLETENESS',
  'QDRANT_TIMEOUT_MS',
  'COHERE_TIMEOUT_MS',
  'SEARCH_CONCURRENCY',
  'RUN_DEADLINE_SECONDS',
  'JUDGE_MAX_CLAIMS',
  'SCROLL_PARTITIONS',
];

/** Each documented range's edges and a value inside it: valid input the parser must take. */
function edges(docs: DocumentedBounds): string[] {
  return NUMERIC.flatMap((name) => docs.numbers.get(name) ?? []).flatMap(({ min, max, whole }) => [
    String(min),
    String(max),
    String(whole ? Math.floor((min + max) / 2) : (min + max) / 2),
    String(whole ? min + 1 : min + (max - min) / 3),
  ]);
}

const VALUES = [
  '0',
  '1',
  '4',
  '16',
  '32',
  '33',
  '50',
  '51',
  '100',
  '101',
  '600',
  '3600',
  '3601',
  '60000',
  '60001',
  '120000',
  '120001',
  '0.5',
  '1.5',
  '-1',
  '+5',
  '1e2',
  '1e400',
  '0x10',
  '0X1F',
  '0o17',
  '0b101',
  '010',
  '007',
  '1_000',
  '5ms',
  '5 ',
  ' 5',
  '',
  ' ',
  'NaN',
  'Infinity',
  '-0',
  '.5',
  '5.',
  '١٢',
  '５',
  'ten',
  '9007199254740993',
  'https://qdrant.example',
  'http://127.0.0.1:6333',
  'https://u:p@host.example',
  'https://:secret@host.example',
  'https://user@host.example',
  'ftp://host.example',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'qdrant:6333',
  '//host.example',
  'book',
  '..',
  '.',
  'a/b',
  'a\\b',
  'книга',
  'x'.repeat(256),
  'tab\there',
  'a:b',
];

/**
 * Runs `count` configuration sets into `tally`. `parse` is the product's parser; a test hands in one with a bound
 * tightened, to see the fuzz count the valid input it refuses.
 */
export function fuzzConfig(
  count: number,
  rng: Rng,
  tally: Tally,
  parse: (env: Record<string, string>) => unknown = parseEngineConfig,
  docs: DocumentedBounds = readDocumentedBounds(),
): void {
  const variables = oracles(docs);
  const names = Object.keys(variables);
  const values = [...VALUES, ...edges(docs)];
  for (let n = 0; n < count; n++) {
    const env: Record<string, string> = { ...BASE };
    const changed = new Set<string>();
    for (let k = 0, m = 1 + rng.int(4); k < m; k++) {
      const name = rng.pick(names);
      env[name] = rng.pick(values);
      changed.add(name);
    }
    const invalid = [...changed].filter((name) => !(variables[name] ?? (() => true))(env[name] ?? ''));
    const what = JSON.stringify(Object.fromEntries([...changed].map((name) => [name, env[name]])));
    tally.cases += 1;
    try {
      parse(env);
    } catch (error) {
      tally.refused += 1;
      if (invalid.length === 0) tally.validRefused.push(`${what}: ${(error as Error).message.slice(0, 300)}`);
      if (!(error instanceof InputError)) {
        tally.crashes.push(`${what}: ${(error as Error).stack ?? String(error)}`);
        continue;
      }
      // Every line names one of the variables set, and every invalid one is named.
      const unnamed = error.problems.filter((p) => ![...changed].some((name) => p.startsWith(`${name}: `)));
      const missed = invalid.filter((name) => !error.problems.some((p) => p.startsWith(`${name}: `)));
      if (unnamed.length > 0 || missed.length > 0) tally.unnamedMessages.push(`${what}: ${error.problems.join(' | ')}`);
      continue;
    }
    tally.accepted += 1;
    if (invalid.length > 0) tally.acceptedButInvalid.push(`${what} (invalid: ${invalid.join(', ')})`);
  }
}
