/** Numbers in words and quantities with units (quantities.ts). */
import { describe, expect, it } from 'vitest';
import {
  isNumberWord,
  isUnitWord,
  type Quantity,
  sameQuantity,
  statedNumbers,
  statedQuantities,
} from '../../../functions/core/grounding/quantities.ts';

const one = (text: string, lenient = false): Quantity => {
  const [q] = statedQuantities(text, { lenient });
  if (q === undefined) throw new Error(`no quantity in ${text}`);
  return q;
};

describe('statedNumbers', () => {
  it('reads digits as written and number words as their value', () => {
    expect(statedNumbers('Ubuntu 22.04 runs 1,000 nodes on five hosts and twenty-five disks.')).toEqual([
      '22.04',
      '1000',
      '5',
      '25',
    ]);
  });

  it('joins number words into one number', () => {
    expect(statedNumbers('two hundred and forty hertz, thirty hertz, one thousand nodes')).toEqual([
      '240',
      '30',
      '1000',
    ]);
  });

  it('reads "one", "half" and "hundred" alone as numbers before a unit only, unless lenient', () => {
    expect(statedNumbers('the one that runs, one of them, hundred of hertz')).toEqual([]);
    expect(statedNumbers('a step of one millisecond')).toEqual(['1']);
    expect(statedNumbers('the one that runs', { lenient: true })).toEqual(['1']);
  });

  it('does not read a digit glued to a word as a number', () => {
    expect(statedNumbers('Nav2 runs on ROS2')).toEqual([]);
  });
});

describe('statedQuantities', () => {
  it('reads a number with its unit in the dimension’s base', () => {
    expect(one('Nav2 needs 64 GB of RAM')).toMatchObject({ raw: '64', number: '64', value: 64e9, dimension: 'data' });
    expect(one('a step of one millisecond')).toMatchObject({ number: '1', value: 0.001, dimension: 'time' });
    expect(one('96°C')).toMatchObject({ value: 96, dimension: 'celsius' });
    expect(one('200 MB/s')).toMatchObject({ value: 200e6, dimension: 'data/time' });
  });

  it('shares a range’s unit between its two numbers', () => {
    expect(statedQuantities('the oven at 230 to 250 °C for 20-30 minutes').map((q) => [q.value, q.dimension])).toEqual([
      [230, 'celsius'],
      [250, 'celsius'],
      [1200, 'time'],
      [1800, 'time'],
    ]);
  });

  it('reads "a minute" as one minute, and "a second" only on the lenient (evidence) side', () => {
    expect(one('for up to a minute')).toMatchObject({ value: 60 });
    expect(statedQuantities('a second replica')).toEqual([]);
    expect(one('a second or more', true)).toMatchObject({ value: 1, dimension: 'time' });
  });

  it('reads no quantity from a number without a unit', () => {
    expect(statedQuantities('port 7500 and 3 replicas')).toEqual([]);
  });
});

describe('sameQuantity', () => {
  it('compares by dimension and value across units', () => {
    expect(sameQuantity(one('1000 ms'), one('a second', true))).toBe(true);
    expect(sameQuantity(one('16 MB'), one('16 GB'))).toBe(false);
    expect(sameQuantity(one('16 GB'), one('16 gigabytes'))).toBe(true);
    expect(sameQuantity(one('30 Hz'), one('30 s'))).toBe(false);
  });

  it('converts temperatures to the degree, both sides of the bound', () => {
    expect(sameQuantity(one('205 °F'), one('96 °C'))).toBe(true); // 96.1 °C
    expect(sameQuantity(one('206 °F'), one('96 °C'))).toBe(true); // 96.7 °C
    expect(sameQuantity(one('207 °F'), one('96 °C'))).toBe(false); // 97.2 °C
    expect(sameQuantity(one('96 °C'), one('97 °C'))).toBe(false);
  });
});

describe('isNumberWord and isUnitWord', () => {
  it('knows number words and units, and not the ambiguous words', () => {
    expect([isNumberWord('five'), isNumberWord('twenty-five'), isNumberWord('one'), isNumberWord('node')]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect([isUnitWord('gb'), isUnitWord('minutes'), isUnitWord('node')]).toEqual([true, true, false]);
  });
});
