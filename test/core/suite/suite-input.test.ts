import { describe, expect, it } from 'vitest';
import { InputError } from '../../../functions/core/shared/errors.ts';
import { parseSuite, parseSuiteBytes } from '../../../functions/core/suite/suite.ts';
import { firstInvalidUtf8 } from '../../../functions/core/suite/utf8.ts';

function problemsOf(parse: () => unknown): string[] {
  try {
    parse();
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  throw new Error('expected an InputError');
}

const encode = (text: string) => new TextEncoder().encode(text);

describe('suite input that is wrong', () => {
  it('refuses invalid UTF-8, naming the byte offset, line and column', () => {
    // Prepare: "é" in Latin-1 (one byte 0xe9) inside a UTF-8 file
    const bytes = Uint8Array.from([...encode('{"queries": [\n  {"query_text": "caf'), 0xe9, ...encode('"}]}')]);

    // Act
    const problems = problemsOf(() => parseSuiteBytes(bytes, 'suite.json'));

    // Assess
    expect(problems).toEqual([
      'not valid UTF-8: byte 0xe9 at byte offset 35 (line 2, column 22); save the file as UTF-8',
    ]);
  });

  it('reads valid UTF-8, a leading byte-order mark included', () => {
    const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, ...encode('{"queries": [{"query_text": "café 📚"}]}')]);

    expect(parseSuiteBytes(bytes, 'suite.json').queries[0]?.query_text).toBe('café 📚');
  });

  it.each([
    ['a lone continuation byte', [0x61, 0x80], 1],
    ['an overlong encoding of "/"', [0xc0, 0xaf], 0],
    ['a UTF-16 surrogate', [0x61, 0xed, 0xa0, 0x80], 1],
    ['a sequence cut at the end', [0x61, 0x62, 0xe2, 0x82], 2],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
  ])('finds %s', (_what, bytes, offset) => {
    expect(firstInvalidUtf8(Uint8Array.from(bytes))).toBe(offset);
  });

  it.each(['0x10', '0o10'])('refuses the YAML numeral %s, naming the field', (numeral) => {
    const problems = problemsOf(() => parseSuite(`queries:\n  - query_text: a\n    top_k: ${numeral}\n`, 's.yaml'));

    expect(problems).toEqual([
      `queries[0].top_k: must be a decimal number, got the numeral "${numeral}" (hex, octal and binary are refused)`,
    ]);
  });

  it('refuses .inf and .nan in YAML where a number is expected', () => {
    const problems = problemsOf(() =>
      parseSuite(
        'queries:\n  - query_text: a\n    min_similarity: .nan\n    criteria: {max_latency_ms: .inf}\n',
        's.yaml',
      ),
    );

    expect(problems).toEqual([
      'queries[0].min_similarity: must be a number from 0 to 1, got string ".nan"',
      'queries[0].criteria.max_latency_ms: must be a number, got string ".inf"',
    ]);
  });

  it('reads decimal YAML numbers', () => {
    const suite = parseSuite('queries:\n  - query_text: a\n    top_k: 10\n    min_similarity: 0.5\n', 's.yaml');

    expect(suite.queries[0]).toMatchObject({ top_k: 10, min_similarity: 0.5 });
  });

  it('names the field inside a relevance judgment and what it must be', () => {
    const problems = problemsOf(() =>
      parseSuite(
        JSON.stringify({ queries: [{ query_text: 'a', relevant: [{ url: '/x', grade: 2.5 }, 5] }] }),
        's.json',
      ),
    );

    expect(problems).toEqual([
      'queries[0].relevant[0].grade: must be 1, 2 or 3, got number 2.5',
      'queries[0].relevant[1]: must be a string or an object, got number 5',
    ]);
  });

  it('names an unknown field by its full path', () => {
    const problems = problemsOf(() =>
      parseSuite(JSON.stringify({ queries: [{ query_text: 'a', topk: 3 }] }), 's.json'),
    );

    expect(problems).toEqual(['queries[0].topk: is not a field here (check its spelling, or remove it)']);
  });

  it('says what a field must be and what it got when the type is wrong', () => {
    const problems = problemsOf(() =>
      parseSuite(JSON.stringify({ queries: [{ query_text: 'a', agent: 'yes' }] }), 's.json'),
    );

    expect(problems).toEqual(['queries[0].agent: must be a boolean, got string "yes"']);
  });
});
