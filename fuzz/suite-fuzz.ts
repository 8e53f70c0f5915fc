/**
 * Suite fuzzing: one mutation per case on a valid suite (the sample suite, as JSON or YAML), each mutation knowing
 * whether it makes the suite invalid. Every case goes through parseSuiteBytes, as `ragwatch run` reads a file.
 * Counted: accepted-but-invalid (an invalid mutation accepted, or an accepted suite breaking an invariant), crashes
 * (anything thrown but an InputError), and refusals with a line that does not name a field or does not name the
 * mutated one.
 */
import { stringify } from 'yaml';
import { InputError } from '../functions/core/shared/errors.ts';
import { parseSuiteBytes, type Suite } from '../functions/core/suite/suite.ts';
import type { Rng } from './rng.ts';
import { NAMES_A_FIELD, type Tally } from './tally.ts';

type Json = Record<string, unknown>;
interface Case {
  bytes: Uint8Array;
  name: string;
  /** True when the mutation makes the suite invalid; false when it may or may not. */
  invalid: boolean;
  /** The path a refusal must name (a prefix of one of its lines), when the mutation is at one field. */
  path?: string;
  what: string;
}

const NUMBER_FIELDS: [string, unknown[]][] = [
  ['top_k', [0, 51, 2.5, -1, 1e9, Number.MAX_SAFE_INTEGER + 2]],
  ['min_similarity', [-0.1, 1.1, 2, -1e-9]],
];
const BAD_TYPES: unknown[] = [null, true, 'text', 3, [], {}, [1, 2]];
const FIELD_TYPES: [string, string][] = [
  ['query_text', 'string'],
  ['top_k', 'number'],
  ['agent', 'boolean'],
  ['filters', 'object'],
  ['criteria', 'object'],
  ['expected_sources', 'array'],
  ['category', 'string'],
];
const typeName = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);
const NUMERALS = ['0x10', '0o10', '.inf', '-.inf', '.nan'];
const encoder = new TextEncoder();

function mutate(seed: Json, rng: Rng): Case {
  const suite = structuredClone(seed) as Json & { queries: Json[] };
  const i = rng.int(suite.queries.length);
  const q = suite.queries[i] as Json;
  const at = `queries[${i}]`;
  const json = (what: string, invalid: boolean, path?: string): Case => ({
    bytes: encoder.encode(JSON.stringify(suite)),
    name: 'suite.json',
    invalid,
    what,
    ...(path ? { path } : {}),
  });
  switch (rng.int(12)) {
    case 0: {
      const [field, values] = rng.pick(NUMBER_FIELDS);
      q[field] = rng.pick(values);
      return json(`${at}.${field} = ${q[field]}`, true, `${at}.${field}`);
    }
    case 1: {
      const [field, type] = rng.pick(FIELD_TYPES);
      const value = rng.pick(BAD_TYPES.filter((v) => typeName(v) !== type));
      q[field] = value;
      return json(`${at}.${field} = ${JSON.stringify(value)}`, true, `${at}.${field}`);
    }
    case 2:
      delete q.query_text;
      return json(`${at}.query_text deleted`, true, `${at}.query_text`);
    case 3: {
      const key = rng.pick(['topk', 'query', 'expected', '__proto__x', 'Query_Text']);
      q[key] = 1;
      return json(`${at}.${key} added`, true, `${at}.${key}`);
    }
    case 4: {
      if (suite.queries.length < 2) return json('no-op', false);
      const j = (i + 1 + rng.int(suite.queries.length - 1)) % suite.queries.length;
      const later = Math.max(i, j);
      (suite.queries[later] as Json).id = (suite.queries[Math.min(i, j)] as Json).id ?? 'same';
      (suite.queries[Math.min(i, j)] as Json).id ??= 'same';
      return json(`queries[${later}].id duplicated`, true, `queries[${later}].id`);
    }
    case 5: {
      q.relevant = [{ url: '/docs/x', grade: rng.pick([0, 4, 2.5, '2', -1]) }];
      return json(`${at}.relevant[0].grade bad`, true, `${at}.relevant[0]`);
    }
    case 6: {
      q.query_text = rng.pick([' ', '\n\t', 'x'.repeat(1001), '']);
      return json(`${at}.query_text blank or too long`, true, `${at}.query_text`);
    }
    case 7: {
      const text = encoder.encode(JSON.stringify(suite));
      const at8 = rng.int(text.length);
      const bad = rng.pick([[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0x80], [0xf5, 0x80, 0x80, 0x80]]);
      const bytes = Uint8Array.from([...text.subarray(0, at8), ...bad, ...text.subarray(at8)]);
      return { bytes, name: 'suite.json', invalid: true, what: `invalid UTF-8 at byte ${at8}` };
    }
    case 8: {
      const text = encoder.encode(JSON.stringify(suite));
      return { bytes: text.subarray(0, rng.int(text.length)), name: 'suite.json', invalid: true, what: 'truncated' };
    }
    case 9: {
      const field = rng.pick(['top_k', 'min_similarity']);
      q[field] = '__NUMERAL__';
      const numeral = rng.pick(NUMERALS);
      const yaml = stringify(suite).replace(/'?__NUMERAL__'?/, numeral);
      return {
        bytes: encoder.encode(yaml),
        name: 'suite.yaml',
        invalid: true,
        what: `${at}.${field}: ${numeral}`,
        path: `${at}.${field}`,
      };
    }
    case 10: {
      // Valid-preserving: any text of 1..1000 characters, any script.
      const chars = 'aé日🤖 \u00a0-_/:?&#%"\\\'';
      q.query_text = `q${Array.from({ length: rng.int(900) }, () => rng.pick([...chars])).join('')}`;
      return rng.int(2) === 0
        ? json(`${at}.query_text unicode`, false)
        : { bytes: encoder.encode(stringify(suite)), name: 'suite.yaml', invalid: false, what: 'as YAML' };
    }
    default: {
      const root = rng.pick<unknown>([[], null, 'x', 7, { queries: [] }, { queries: {} }, { queries: [null] }]);
      return {
        bytes: encoder.encode(JSON.stringify(root)),
        name: 'suite.json',
        invalid: true,
        what: `root ${JSON.stringify(root)}`,
      };
    }
  }
}

/** Invariants every accepted suite must hold, checked independently of the schema. */
function broken(suite: Suite): string | null {
  const ids = new Set<string>();
  for (const [i, q] of suite.queries.entries()) {
    if (q.query_text.trim() === '' || q.query_text.length > 1000) return `queries[${i}].query_text`;
    if (q.top_k !== undefined && !(Number.isInteger(q.top_k) && q.top_k >= 1 && q.top_k <= 50))
      return `queries[${i}].top_k`;
    if (q.min_similarity !== undefined && !(q.min_similarity >= 0 && q.min_similarity <= 1))
      return `queries[${i}].min_similarity`;
    for (const r of q.relevant ?? [])
      if (typeof r !== 'string' && ![1, 2, 3].includes(r.grade)) return `queries[${i}].relevant`;
    if (q.id !== undefined) {
      if (ids.has(q.id)) return `queries[${i}].id`;
      ids.add(q.id);
    }
  }
  return null;
}

/** Runs `count` mutations of `seed` into `tally`. */
export function fuzzSuites(seed: Json, count: number, rng: Rng, tally: Tally): void {
  for (let n = 0; n < count; n++) {
    const c = mutate(seed, rng);
    tally.cases += 1;
    let suite: Suite;
    try {
      suite = parseSuiteBytes(c.bytes, c.name);
    } catch (error) {
      tally.refused += 1;
      if (!(error instanceof InputError)) {
        tally.crashes.push(`${c.what}: ${(error as Error).stack ?? String(error)}`);
        continue;
      }
      const fileLevel = (p: string) => /^not valid (UTF-8|JSON|YAML)/.test(p);
      // A line names a field when it starts with one ("path: ...") or quotes them (a mix of suite forms).
      const namesOne = (p: string) => NAMES_A_FIELD.test(p) || /\b[a-z_]+\[\d+\]\.[a-z_]+/.test(p);
      const unnamed = error.problems.filter((p) => !fileLevel(p) && (!namesOne(p) || /: Invalid input$/.test(p)));
      const missesPath = c.path !== undefined && !error.problems.some((p) => p.includes(c.path ?? ''));
      if (unnamed.length > 0 || missesPath) tally.unnamedMessages.push(`${c.what}: ${error.problems.join(' | ')}`);
      continue;
    }
    tally.accepted += 1;
    const invariant = broken(suite);
    if (c.invalid || invariant) tally.acceptedButInvalid.push(`${c.what}${invariant ? ` (breaks ${invariant})` : ''}`);
  }
}
