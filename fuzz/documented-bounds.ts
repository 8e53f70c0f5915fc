/**
 * The fuzzers' oracle, read from what README.md documents (its Configuration table and its table of suite fields),
 * not from the product's code or its regular expressions: a change that tightens a bound in the code (TOP_K_RESULTS
 * capped at 3, query_text at 100 characters) then shows as valid input refused, one that loosens it as invalid input
 * accepted, and a table that no longer says what a fuzzed variable takes stops the fuzz with an error.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A documented numeric range; `whole` when the docs say a whole number. */
export interface Range {
  min: number;
  max: number;
  whole: boolean;
}

export interface DocumentedBounds {
  /** Each numeric variable of the Configuration table, with its range (TOP_K_RESULTS etc. from the suite's). */
  numbers: Map<string, Range>;
  /** Variables whose default is "required". */
  required: Set<string>;
  /** Variables documented as a URL (their name ends in _URL). */
  urls: Set<string>;
  /** QDRANT_COLLECTION's rule: its longest name in characters, the characters it may not hold, the names it may not be. */
  collection: { maxChars: number; forbidden: string[]; reserved: string[] };
  /** The suite's fields: query_text's longest (after trimming), top_k, min_similarity, a relevance grade. */
  suite: { queryTextMaxChars: number; topK: Range; minSimilarity: Range; grade: Range };
}

export const README = path.join(import.meta.dirname, '..', 'README.md');

/** A table's rows under the first line matching `heading`, as cells (escaped pipes kept inside their cell). */
function tableRows(markdown: string, heading: RegExp): string[][] {
  const lines = markdown.split('\n');
  const at = lines.findIndex((l) => heading.test(l));
  if (at === -1) throw new Error(`README.md has no line matching ${heading}`);
  const rows: string[][] = [];
  let inTable = false;
  for (const line of lines.slice(at + 1)) {
    if (line.startsWith('|')) {
      inTable = true;
      rows.push(
        line
          .slice(1, -1)
          .split(/(?<!\\)\|/)
          .map((c) => c.trim()),
      );
    } else if (inTable) break;
  }
  return rows.filter((r) => !/^-+$/.test(r[0] ?? ''));
}

const NUMBER = String.raw`-?\d[\d,]*(?:\.\d+)?`;
/** "0–50", "1 to 3600", "(100–60000 and 100–120000)"; not "1–255 characters" (a length). */
const RANGE = new RegExp(`(${NUMBER})\\s*(?:–|to)\\s*(${NUMBER})(?![\\d,.])(?!\\s*characters)`, 'g');
const value = (text: string) => Number(text.replace(/,/g, ''));

function rangesIn(text: string): Range[] {
  const whole = /whole number/.test(text);
  return [...text.matchAll(RANGE)].map((m) => ({ min: value(m[1] ?? ''), max: value(m[2] ?? ''), whole }));
}

/** Reads the bounds; throws naming what the README no longer says. */
export function readDocumentedBounds(markdown = readFileSync(README, 'utf8')): DocumentedBounds {
  const fields = new Map(
    tableRows(markdown, /^\| field \| rule \|$/).map((r) => [r[0]?.replace(/`/g, '') ?? '', r[1] ?? '']),
  );
  const field = (name: string) => {
    const rule = fields.get(name);
    if (rule === undefined) throw new Error(`README.md's suite table has no row for ${name}`);
    return rule;
  };
  const one = (name: string, text: string): Range => {
    const [range] = rangesIn(text);
    if (range === undefined) throw new Error(`README.md gives no range for ${name}: "${text}"`);
    return range;
  };
  const queryText = /(\d[\d,]*)\s*(?:–|to)\s*(\d[\d,]*) characters/.exec(field('query_text'));
  const suite = {
    queryTextMaxChars: value(queryText?.[2] ?? 'NaN'),
    topK: one('top_k', field('top_k')),
    minSimilarity: one('min_similarity', field('min_similarity')),
    grade: { ...one('relevant grade', /grade ([^}]*)/.exec(field('relevant'))?.[1] ?? ''), whole: true },
  };

  const numbers = new Map<string, Range>();
  const required = new Set<string>();
  const urls = new Set<string>();
  let collection: DocumentedBounds['collection'] | null = null;
  for (const [names = '', fallback = '', meaning = ''] of tableRows(markdown, /^### Configuration$/)) {
    const variables = [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1] ?? '');
    if (fallback === 'required') for (const v of variables) required.add(v);
    for (const v of variables) if (v.endsWith('_URL')) urls.add(v);
    if (variables.includes('QDRANT_COLLECTION'))
      collection = {
        maxChars: value(/(\d[\d,]*) characters/.exec(meaning)?.[1] ?? 'NaN'),
        forbidden: (/none of `([^`]+)`/.exec(meaning)?.[1] ?? '').replace(/\\\|/g, '|').split(' ').filter(Boolean),
        reserved: [...(/not ((?:`[^`]+`(?: or )?)+)/.exec(meaning)?.[1]?.matchAll(/`([^`]+)`/g) ?? [])].map(
          (m) => m[1] ?? '',
        ),
      };
    const ranges = rangesIn(meaning);
    // A variable that overrides a suite default takes what the suite's field takes.
    const suiteField = /defaults\.(\w+)/.exec(fallback)?.[1];
    if (ranges.length === 0 && suiteField !== undefined) {
      const range = one(suiteField, field(suiteField));
      for (const v of variables) numbers.set(v, range);
    } else if (ranges.length === variables.length)
      for (const [i, v] of variables.entries()) numbers.set(v, ranges[i] as Range);
    else if (ranges.length === 1) for (const v of variables) numbers.set(v, ranges[0] as Range);
  }
  if (!Number.isFinite(suite.queryTextMaxChars)) throw new Error('README.md gives no length for query_text');
  if (collection === null || !Number.isFinite(collection.maxChars) || collection.forbidden.length === 0)
    throw new Error('README.md gives no length or forbidden characters for QDRANT_COLLECTION');
  return { numbers, required, urls, collection, suite };
}
