/** The benchmark's plain-text tables and number formats. */
import { describe, expect, it } from 'vitest';
import { formatCount, formatNumber, formatTable } from '../../bench/format-table.ts';

describe('formatTable', () => {
  it('pads text to the left and figures to the right under a rule', () => {
    const table = formatTable(
      ['scenario', 'embed', 'wall ms'],
      [
        ['N=20', '1/1', '263'],
        ['N=200 indexed', '3/3', '1,068'],
      ],
    );

    expect(table.split('\n')).toEqual([
      'scenario       embed  wall ms',
      '-------------  -----  -------',
      'N=20             1/1      263',
      'N=200 indexed    3/3    1,068',
    ]);
  });
});

describe('formatNumber and formatCount', () => {
  it('groups thousands and fixes the decimals', () => {
    expect(formatNumber(63_093.4)).toBe('63,093');
    expect(formatNumber(2.345, 2)).toBe('2.35');
  });

  it('writes point counts as 10k, 100k and 1M', () => {
    expect([10_000, 100_000, 1_000_000, 92].map(formatCount)).toEqual(['10k', '100k', '1M', '92']);
  });
});
