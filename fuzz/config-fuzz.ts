/**
 * Configuration fuzzing: sets of environment variables, each a valid base with one to four variables replaced by
 * values drawn from what people and scripts really write (hex, octal, leading zeros, blanks, units, credentials in
 * URLs, other schemes, path escapes, huge numbers). An independent oracle says which values are valid; every set
 * goes through parseEngineConfig as `ragwatch run` reads it.
 */
import { parseEngineConfig } from '../functions/core/config.ts';
import { InputError } from '../functions/core/shared/errors.ts';
import type { Rng } from './rng.ts';
import type { Tally } from './tally.ts';

const BASE = {
  COHERE_API_KEY: 'fuzz-key-0000',
  QDRANT_URL: 'https://qdrant.example:6333',
  DOCUSAURUS_BASE_URL: 'https://book.example.com',
};

const DECIMAL = /^[-+]?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$|^[-+]?0?\.[0-9]+$/;
type Oracle = (value: string) => boolean;
const number =
  (min: number, max: number, integer: boolean): Oracle =>
  (raw) => {
    const v = raw.trim();
    if (v === '') return true; // unset: the default applies
    if (!DECIMAL.test(v)) return false;
    const n = Number(v);
    return Number.isFinite(n) && n >= min && n <= max && (!integer || Number.isInteger(n));
  };
const url: Oracle = (raw) => {
  const v = raw.trim();
  if (v === '') return true;
  if (!URL.canParse(v)) return false;
  const u = new URL(v);
  return (u.protocol === 'http:' || u.protocol === 'https:') && u.username === '' && u.password === '';
};
const collection: Oracle = (raw) => {
  const v = raw.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the rule refuses
  return v === '' || (v.length <= 255 && !/[<>:"/\\|?*\u0000-\u001f\u007f]/.test(v) && v !== '.' && v !== '..');
};

/** Each variable the engine reads, with its validity oracle. */
const VARIABLES: Record<string, Oracle> = {
  QDRANT_URL: (raw) => raw.trim() !== '' && url(raw),
  DOCUSAURUS_BASE_URL: (raw) => raw.trim() !== '' && url(raw),
  SITEMAP_URL: url,
  COHERE_BASE_URL: url,
  QDRANT_COLLECTION: collection,
  MAX_AGENT_QUERIES: number(0, 50, true),
  SIMILARITY_THRESHOLD: number(0, 1, false),
  TOP_K_RESULTS: number(1, 50, true),
  MIN_PASS_RATE: number(0, 100, false),
  MIN_COVERAGE: number(0, 100, false),
  MIN_COMPLETENESS: number(0, 100, false),
  QDRANT_TIMEOUT_MS: number(100, 60_000, true),
  COHERE_TIMEOUT_MS: number(100, 120_000, true),
  SEARCH_CONCURRENCY: number(1, 32, true),
  RUN_DEADLINE_SECONDS: number(1, 3600, false),
};

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

/** Runs `count` configuration sets into `tally`. */
export function fuzzConfig(count: number, rng: Rng, tally: Tally): void {
  const names = Object.keys(VARIABLES);
  for (let n = 0; n < count; n++) {
    const env: Record<string, string> = { ...BASE };
    const changed = new Set<string>();
    for (let k = 0, m = 1 + rng.int(4); k < m; k++) {
      const name = rng.pick(names);
      env[name] = rng.pick(VALUES);
      changed.add(name);
    }
    const invalid = [...changed].filter((name) => !(VARIABLES[name] ?? (() => true))(env[name] ?? ''));
    const what = JSON.stringify(Object.fromEntries([...changed].map((name) => [name, env[name]])));
    tally.cases += 1;
    try {
      parseEngineConfig(env);
    } catch (error) {
      tally.refused += 1;
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
