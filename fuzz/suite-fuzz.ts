/**
 * Suite fuzzing: one mutation per case on a valid suite (the sample suite, as JSON or YAML), each mutation knowing
 * whether it makes the suite invalid, or keeps it valid. Every case goes through parseSuiteBytes, as `ragwatch run`
 * reads a file. The bounds (query_text's length, top_k, min_similarity, a grade) are README.md's suite table
 * (documented-bounds.ts), not the schema's code. Counted: accepted-but-invalid (an invalid mutation accepted, or an
 * accepted suite breaking an invariant), valid-refused (a mutation that keeps the suite within the documented bounds,
 * refused), crashes (anything thrown but an InputError), and refusals with a line that does not name a field or does
 * not name the mutated one.
 */
import { stringify } from 'yaml';
import { InputError } from '../functions/core/shared/errors.ts';
import { parseSuiteBytes, type Suite } from '../functions/core/suite/suite.ts';
import { type DocumentedBounds, readDocumentedBounds } from './documented-bounds.ts';
import type { Rng } from './rng.ts';
import { NAMES_A_FIELD, type Tally } from './tally.ts';

type Json = Record<string, unknown>;
interface Case {
  bytes: Uint8Array;
  name: string;
  /** True when the mutation makes the suite invalid; false when it may or may not. */
  invalid: boolean;
  /** True when the suite stays within every documented bound: refusing it is a defect. */
  valid?: true;
  /** The path a refusal must name (a prefix of one of its lines), when the mutation is at one field. */
  path?: string;
  what: string;
}

/** Values just outside each documented range (and a fraction where a whole number is documented). */
function outside(docs: DocumentedBounds): [string, unknown[]][] {
  const { topK, minSimilarity } = docs.suite;
  return [
    ['top_k', [topK.min - 1, topK.max + 1, topK.min + 1.5, -1, 1e9, Number.MAX_SAFE_INTEGER + 2]],
    ['min_similarity', [minSimilarity.min - 0.1, minSimilarity.max + 0.1, 2, minSimilarity.min - 1e-9]],
  ];
}
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

function mutate(seed: Json, rng: Rng, docs: DocumentedBounds): Case {
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
  switch (rng.int(13)) {
    case 0: {
      const [field, values] = rng.pick(outside(docs));
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
      const { grade } = docs.suite;
      q.relevant = [{ url: '/docs/x', grade: rng.pick([grade.min - 1, grade.max + 1, grade.min + 0.5, '2', -1]) }];
      return json(`${at}.relevant[0].grade bad`, true, `${at}.relevant[0]`);
    }
    case 6: {
      q.query_text = rng.pick([' ', '\n\t', 'x'.repeat(docs.suite.queryTextMaxChars + 1), '']);
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
      q.query_text = `q${Array.from({ length: rng.int(docs.suite.queryTextMaxChars - 1) }, () => rng.pick([...chars])).join('')}`;
      return rng.int(2) === 0
        ? { ...json(`${at}.query_text unicode (${[...String(q.query_text)].length} characters)`, false), valid: true }
        : { bytes: encoder.encode(stringify(suite)), name: 'suite.yaml', invalid: false, valid: true, what: 'as YAML' };
    }
    case 11: {
      // Valid-preserving, at and inside each documented bound: the values a tightened rule would refuse.
      const { topK, minSimilarity, grade, queryTextMaxChars } = docs.suite;
      const within = (min: number, max: number, whole: boolean) =>
        rng.pick([min, max, whole ? min + rng.int(max - min + 1) : min + rng.next() * (max - min)]);
      switch (rng.int(4)) {
        case 0:
          q.top_k = within(topK.min, topK.max, true);
          return { ...json(`${at}.top_k = ${q.top_k}`, false), valid: true };
        case 1:
          q.min_similarity = within(minSimilarity.min, minSimilarity.max, false);
          return { ...json(`${at}.min_similarity = ${q.min_similarity}`, false), valid: true };
        case 2:
          q.relevant = [{ url: '/docs/x', grade: within(grade.min, grade.max, true) }];
          return { ...json(`${at}.relevant[0].grade valid`, false), valid: true };
        default: {
          const length = rng.pick([1, queryTextMaxChars, 1 + rng.int(queryTextMaxChars)]);
          // Blanks around the text do not count ("after trimming"); 🤖 is one character.
          q.query_text = `  ${'🤖'.repeat(length - 1)}x\n`;
          return { ...json(`${at}.query_text of ${length} characters`, false), valid: true };
        }
      }
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

/** Invariants every accepted suite must hold, checked against the documented bounds, not the schema. */
function broken(suite: Suite, docs: DocumentedBounds): string | null {
  const { topK, minSimilarity, grade, queryTextMaxChars } = docs.suite;
  const inRange = (v: number, r: { min: number; max: number; whole: boolean }) =>
    v >= r.min && v <= r.max && (!r.whole || Number.isInteger(v));
  const ids = new Set<string>();
  for (const [i, q] of suite.queries.entries()) {
    const text = q.query_text.trim();
    if (text === '' || [...text].length > queryTextMaxChars) return `queries[${i}].query_text`;
    if (q.top_k !== undefined && !inRange(q.top_k, topK)) return `queries[${i}].top_k`;
    if (q.min_similarity !== undefined && !inRange(q.min_similarity, minSimilarity))
      return `queries[${i}].min_similarity`;
    for (const r of q.relevant ?? [])
      if (typeof r !== 'string' && !inRange(r.grade, grade)) return `queries[${i}].relevant`;
    if (q.id !== undefined) {
      if (ids.has(q.id)) return `queries[${i}].id`;
      ids.add(q.id);
    }
  }
  return null;
}

/**
 * Runs `count` mutations of `seed` into `tally`. `parse` is the product's reader; a test hands in one with a bound
 * tightened, to see the fuzz count the valid suites it refuses.
 */
export function fuzzSuites(
  seed: Json,
  count: number,
  rng: Rng,
  tally: Tally,
  parse: (bytes: Uint8Array, name: string) => Suite = parseSuiteBytes,
  docs: DocumentedBounds = readDocumentedBounds(),
): void {
  for (let n = 0; n < count; n++) {
    const c = mutate(seed, rng, docs);
    tally.cases += 1;
    let suite: Suite;
    try {
      suite = parse(c.bytes, c.name);
    } catch (error) {
      tally.refused += 1;
      if (c.valid) tally.validRefused.push(`${c.what}: ${(error as Error).message.slice(0, 300)}`);
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
    const invariant = broken(suite, docs);
    if (c.invalid || invariant) tally.acceptedButInvalid.push(`${c.what}${invariant ? ` (breaks ${invariant})` : ''}`);
  }
}
