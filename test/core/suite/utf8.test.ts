/** Strict UTF-8 (RFC 3629) for suite files: each lead byte's range of second bytes, pinned on both sides. */
import { describe, expect, it } from 'vitest';
import { decodeUtf8, firstInvalidUtf8 } from '../../../functions/core/suite/utf8.ts';

const at = (...bytes: number[]) => firstInvalidUtf8(Uint8Array.from(bytes));

describe('firstInvalidUtf8', () => {
  it.each([
    ['empty input', []],
    ['ASCII up to 0x7f', [0x00, 0x41, 0x7f]],
    ['the lowest two-byte sequence (U+0080)', [0xc2, 0x80]],
    ['the highest two-byte sequence (U+07FF)', [0xdf, 0xbf]],
    ['the lowest three-byte sequence (U+0800)', [0xe0, 0xa0, 0x80]],
    ['0xe0 with its highest second byte', [0xe0, 0xbf, 0xbf]],
    ['0xe1 with its lowest second byte', [0xe1, 0x80, 0x80]],
    ['0xec with its highest second byte', [0xec, 0xbf, 0xbf]],
    ['the last code point before the surrogates (U+D7FF)', [0xed, 0x9f, 0xbf]],
    ['0xed with its lowest second byte', [0xed, 0x80, 0x80]],
    ['0xee, past the surrogates', [0xee, 0x80, 0x80]],
    ['the highest three-byte sequence (U+FFFF)', [0xef, 0xbf, 0xbf]],
    ['the lowest four-byte sequence (U+10000)', [0xf0, 0x90, 0x80, 0x80]],
    ['0xf0 with its highest second byte', [0xf0, 0xbf, 0xbf, 0xbf]],
    ['0xf1 with its lowest second byte', [0xf1, 0x80, 0x80, 0x80]],
    ['0xf3 with its highest second byte', [0xf3, 0xbf, 0xbf, 0xbf]],
    ['the highest code point (U+10FFFF)', [0xf4, 0x8f, 0xbf, 0xbf]],
    ['0xf4 with its lowest second byte', [0xf4, 0x80, 0x80, 0x80]],
    ['several sequences in a row', [0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x93, 0x9a, 0x62]],
  ])('accepts %s', (_what, bytes) => {
    expect(at(...bytes)).toBe(-1);
  });

  it.each([
    ['a lone continuation byte 0x80', [0x80], 0],
    ['continuation bytes without a lead byte', [0x80, 0x80, 0x80, 0x80], 0],
    ['the overlong lead 0xc1 before continuation bytes', [0xc1, 0x80, 0x80, 0x80], 0],
    ['a lone 0xbf', [0xbf], 0],
    ['the overlong lead 0xc1', [0xc1, 0xbf], 0],
    ['0xc2 followed by ASCII', [0xc2, 0x7f], 0],
    ['0xdf followed by a lead byte', [0xdf, 0xc0], 0],
    ['an overlong three-byte sequence (0xe0 0x9f)', [0xe0, 0x9f, 0x80], 0],
    ['0xe0 with a second byte over 0xbf', [0xe0, 0xc0, 0x80], 0],
    ['0xe1 with a second byte under 0x80', [0xe1, 0x7f, 0x80], 0],
    ['0xef with a second byte over 0xbf', [0xef, 0xc0, 0x80], 0],
    ['a surrogate (0xed 0xa0)', [0xed, 0xa0, 0x80], 0],
    ['0xed with a second byte under 0x80', [0xed, 0x7f, 0x80], 0],
    ['a three-byte sequence whose third byte is ASCII', [0xe2, 0x82, 0x41], 0],
    ['a three-byte sequence whose third byte is a lead byte', [0xe2, 0x82, 0xc0], 0],
    ['an overlong four-byte sequence (0xf0 0x8f)', [0xf0, 0x8f, 0x80, 0x80], 0],
    ['0xf0 with a second byte over 0xbf', [0xf0, 0xc0, 0x80, 0x80], 0],
    ['0xf1 with a second byte under 0x80', [0xf1, 0x7f, 0x80, 0x80], 0],
    ['0xf3 with a second byte over 0xbf', [0xf3, 0xc0, 0x80, 0x80], 0],
    ['a code point over U+10FFFF (0xf4 0x90)', [0xf4, 0x90, 0x80, 0x80], 0],
    ['0xf4 with a second byte under 0x80', [0xf4, 0x7f, 0x80, 0x80], 0],
    ['a four-byte sequence whose fourth byte is ASCII', [0xf0, 0x9f, 0x93, 0x41], 0],
    ['the lead byte 0xf5', [0xf5, 0x80, 0x80, 0x80], 0],
    ['the lead byte 0xff', [0xff], 0],
    ['a two-byte sequence cut at the end', [0x61, 0xc3], 1],
    ['a four-byte sequence cut at the end', [0xf0, 0x9f, 0x93], 0],
    ['an error after a valid four-byte sequence', [0xf0, 0x9f, 0x93, 0x9a, 0x80], 4],
    ['an error after a valid two-byte sequence', [0xc3, 0xa9, 0xc3], 2],
  ])('finds %s', (_what, bytes, offset) => {
    expect(at(...bytes)).toBe(offset);
  });
});

describe('decodeUtf8', () => {
  const encode = (text: string) => new TextEncoder().encode(text);

  it('decodes valid UTF-8, dropping a leading byte-order mark', () => {
    expect(decodeUtf8(Uint8Array.from([0xef, 0xbb, 0xbf, ...encode('café')]))).toEqual({ text: 'café' });
  });

  it('names the byte, its offset, and its line and column counted in characters', () => {
    const bytes = Uint8Array.from([...encode('a\nbé\nçà'), 0x8f]);
    expect(decodeUtf8(bytes)).toEqual({
      problem: 'not valid UTF-8: byte 0x8f at byte offset 10 (line 3, column 3); save the file as UTF-8',
    });
  });

  it('counts the first line and column from 1', () => {
    expect(decodeUtf8(Uint8Array.from([0xc2, 0x05]))).toEqual({
      problem: 'not valid UTF-8: byte 0xc2 at byte offset 0 (line 1, column 1); save the file as UTF-8',
    });
  });
});
