/** zod issues worded for a person: where (in the file's own names), what was expected, and what was found. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatPath, listIssues } from '../../../functions/core/suite/issue-messages.ts';

function problems(schema: z.ZodType, input: unknown, namePath?: (p: string) => string): string[] {
  const parsed = schema.safeParse(input, { reportInput: true });
  if (parsed.success) throw new Error('expected the input to be refused');
  return listIssues(parsed.error, namePath);
}

describe('formatPath', () => {
  it('writes keys with dots and indexes in brackets', () => {
    expect(formatPath(['queries', 3, 'relevant', 0, 'grade'])).toBe('queries[3].relevant[0].grade');
  });

  it('starts with an index or a key as the path does, and is empty for the root', () => {
    expect(formatPath([0, 'query_text'])).toBe('[0].query_text');
    expect(formatPath([])).toBe('');
  });
});

describe('listIssues', () => {
  it('names the root when the whole input is wrong', () => {
    expect(problems(z.object({ a: z.string() }), 5)).toEqual(['(root): must be an object, got number 5']);
  });

  it('says a whole number was expected for an integer field', () => {
    expect(problems(z.object({ top_k: z.int() }), { top_k: 2.5 })).toEqual([
      'top_k: must be a whole number, got number 2.5',
    ]);
  });

  it.each([
    [undefined, 'nothing'],
    [null, 'null'],
    [[1], 'a list'],
    [{ a: 1 }, 'an object'],
    [true, 'boolean true'],
  ])('says what it found instead: %s', (input, found) => {
    expect(problems(z.object({ name: z.string() }), { name: input })).toEqual([`name: must be a string, got ${found}`]);
  });

  it('cuts a long value it found at 60 characters', () => {
    const long = 'x'.repeat(100);
    expect(problems(z.object({ n: z.number() }), { n: long })).toEqual([
      `n: must be a number, got string ${JSON.stringify(long).slice(0, 60)}…`,
    ]);
  });

  it('keeps a value of exactly 60 characters whole', () => {
    const exact = 'y'.repeat(58);
    expect(problems(z.object({ n: z.number() }), { n: exact })).toEqual([`n: must be a number, got string "${exact}"`]);
  });

  it.each(['0x10', ' +0o7 ', '-0b1', '0X1F'])('refuses the numeral %s where a number is expected', (numeral) => {
    expect(problems(z.object({ n: z.number() }), { n: numeral })).toEqual([
      `n: must be a decimal number, got the numeral ${JSON.stringify(numeral)} (hex, octal and binary are refused)`,
    ]);
  });

  it('does not call a string that only looks like a numeral one where a string was not a number either', () => {
    expect(problems(z.object({ n: z.number() }), { n: '10x' })).toEqual(['n: must be a number, got string "10x"']);
    expect(problems(z.object({ s: z.boolean() }), { s: '0x10' })).toEqual(['s: must be a boolean, got string "0x10"']);
  });

  it('keeps a schema’s own wording of what it expected', () => {
    expect(problems(z.object({ n: z.number({ error: 'must be a score' }) }), { n: 'x' })).toEqual([
      'n: must be a score, got string "x"',
    ]);
  });

  it('reports the issues of the union branch the value was meant for', () => {
    const judgment = z.union([
      z.string(),
      z.object({ url: z.string(), grade: z.number().max(3, 'must be at most 3') }),
    ]);
    expect(problems(z.object({ r: judgment }), { r: { url: 'u', grade: 7 } })).toEqual(['r.grade: must be at most 3']);
  });

  it('takes the first branch refusing the value for a rule other than its type as the one it was meant for', () => {
    const either = z.union([
      z.string().min(5, 'must be at least 5 characters'),
      z.string().regex(/^x/, 'must start with x'),
    ]);
    expect(problems(z.object({ r: either }), { r: 'ab' })).toEqual(['r: must be at least 5 characters']);
  });

  it('lists every type a union accepts, once each, when the value fits none', () => {
    const either = z.union([z.string(), z.array(z.string()), z.string().min(2)]);
    expect(problems(z.object({ r: either }), { r: 5 })).toEqual(['r: must be a string or an array, got number 5']);
  });

  it('names each unknown field by its full path', () => {
    expect(problems(z.object({ q: z.strictObject({ a: z.string() }) }), { q: { a: 'x', b: 1, c: 2 } })).toEqual([
      'q.b: is not a field here (check its spelling, or remove it)',
      'q.c: is not a field here (check its spelling, or remove it)',
    ]);
  });

  it('adds what it found to a bare "Invalid input" message', () => {
    expect(problems(z.object({ e: z.enum(['a', 'b']) }), { e: 'c' })).toEqual([
      expect.stringMatching(/^e: Invalid (input|option).*/),
    ]);
    const custom = z.object({ v: z.custom<string>((x) => x === 'ok') });
    expect(problems(custom, { v: [1] })).toEqual(['v: Invalid input (a list)']);
  });

  it('adds what it found to zod’s own "Invalid input: …" wording', () => {
    expect(problems(z.object({ v: z.literal(1) }), { v: 2 })).toEqual(['v: Invalid input: expected 1 (number 2)']);
  });

  it('renames each path to the file’s own names', () => {
    const rename = (p: string) => p.replace('min_similarity', 'similarity_threshold');
    expect(problems(z.object({ min_similarity: z.number() }), { min_similarity: 'x' }, rename)).toEqual([
      'similarity_threshold: must be a number, got string "x"',
    ]);
  });
});
