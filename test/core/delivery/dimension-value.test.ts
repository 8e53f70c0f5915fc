import { describe, expect, it } from 'vitest';
import { dimensionValue } from '../../../functions/core/delivery/dimension-value.ts';

describe('dimensionValue', () => {
  it('leaves a printable ASCII name as it is, trimmed', () => {
    expect(dimensionValue('  book-v2_prod.1 (EU) ')).toBe('book-v2_prod.1 (EU)');
  });

  it('writes each non-ASCII character as its UTF-8 bytes in %XX form', () => {
    expect(dimensionValue('книга')).toBe('%D0%BA%D0%BD%D0%B8%D0%B3%D0%B0');
    expect(dimensionValue('café 📚')).toBe('caf%C3%A9 %F0%9F%93%9A');
  });

  it('writes % and control characters as %XX too, so the mapping can be undone', () => {
    const name = '100%\tbook\u007f';

    expect(dimensionValue(name)).toBe('100%25%09book%7F');
    expect(decodeURIComponent(dimensionValue(name))).toBe(name);
  });

  it('returns only ASCII whatever the name', () => {
    expect(dimensionValue('日本語の本 🤖 ünïcödé')).toMatch(/^[\x20-\x7e]+$/);
  });

  it('names a blank value "unknown"', () => {
    expect(dimensionValue(' \t ')).toBe('unknown');
  });

  it('keeps a name of 1,024 characters whole and cuts one of 1,025', () => {
    expect(dimensionValue('a'.repeat(1024))).toHaveLength(1024);
    expect(dimensionValue('a'.repeat(1025))).toHaveLength(1024);
  });

  it('never cuts inside a %XX sequence', () => {
    expect(dimensionValue(`${'a'.repeat(1022)}é`)).toBe('a'.repeat(1022));
  });
});
