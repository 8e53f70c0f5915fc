import { describe, expect, it } from 'vitest';
import {
  describeError,
  IndexError,
  InputError,
  isServiceError,
  truncate,
} from '../../../functions/core/shared/errors.ts';

describe('truncate', () => {
  it('folds every run of whitespace into one space and trims the ends', () => {
    expect(truncate('  Qdrant\n\n said:\t 404  ')).toBe('Qdrant said: 404');
  });

  it('keeps a text of exactly the maximum length whole', () => {
    expect(truncate('abcde', 5)).toBe('abcde');
  });

  it('cuts a text one character over the maximum and marks the cut', () => {
    expect(truncate('abcdef', 5)).toBe('abcde…');
  });

  it('cuts at 200 characters by default', () => {
    expect(truncate('x'.repeat(201))).toBe(`${'x'.repeat(200)}…`);
  });
});

describe('InputError', () => {
  it('names the source and lists every problem on a line of its own', () => {
    // Act
    const error = new InputError('suite.json', ['queries[0].id: required', 'defaults.top_k: must be > 0']);

    // Assess
    expect(error.message).toBe('suite.json is invalid:\n  - queries[0].id: required\n  - defaults.top_k: must be > 0');
    expect([error.name, error.source, error.problems]).toEqual([
      'InputError',
      'suite.json',
      ['queries[0].id: required', 'defaults.top_k: must be > 0'],
    ]);
  });
});

describe('describeError', () => {
  it('gives an Error’s message on one line, cut at 300 characters', () => {
    expect(describeError(new Error(`a\n${'b'.repeat(400)}`))).toBe(`a ${'b'.repeat(298)}…`);
  });

  it('describes a thrown value that is not an Error', () => {
    expect([describeError('plain text'), describeError(42), describeError({ toString: () => 'an object' })]).toEqual([
      'plain text',
      '42',
      'an object',
    ]);
  });
});

describe('isServiceError', () => {
  it('tells a classified service failure from any other error', () => {
    // Prepare
    const service = new IndexError('Qdrant timed out', 'timeout', { status: 504, retryAfterSeconds: 2 });

    // Assess
    expect([isServiceError(service), isServiceError(new Error('x')), isServiceError('x')]).toEqual([
      true,
      false,
      false,
    ]);
    expect([service.name, service.kind, service.status, service.retryAfterSeconds]).toEqual([
      'IndexError',
      'timeout',
      504,
      2,
    ]);
  });
});
